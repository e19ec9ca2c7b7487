"""Note kinds: one module per kind, each with its families and `build`."""

from dataclasses import dataclass
from typing import Callable, Dict, List

from ..context import NoteContext
from . import audit, clinic, discharge, ed, icu, labs, pathology, psych, radiology
from . import consult, ems, letter, operative, prescription, progress, referral
from . import chart_access, family_meeting, field, handoff, outside, portal, signout
from . import telephone, transfer

Builder = Callable[[NoteContext], None]


@dataclass(frozen=True)
class KindSpec:
    """A note kind: how to build it and how often it occurs."""

    name: str
    build: Builder
    weight: float
    informal: bool = False
    dev: bool = False


KINDS: Dict[str, KindSpec] = {
    spec.name: spec
    for spec in (
        KindSpec("discharge", discharge.build, 7.0),
        KindSpec("psych", psych.build, 2.0),
        KindSpec("icu_nursing", icu.build, 2.0, informal=True),
        KindSpec("radiology", radiology.build, 1.2),
        KindSpec("referral", referral.build, 1.0),
        KindSpec("ed_triage", ed.build, 1.0),
        KindSpec("clinic_comment", clinic.build, 1.2, informal=True),
        KindSpec("lab_header", labs.build, 0.6),
        KindSpec("audit_log", audit.build, 0.5),
        KindSpec("progress", progress.build, 6.0),
        KindSpec("operative", operative.build, 0.8),
        KindSpec("consult", consult.build, 3.0),
        KindSpec("patient_letter", letter.build, 0.6),
        KindSpec("transfer_form", transfer.build, 0.8),
        KindSpec("prescription", prescription.build, 0.6),
        KindSpec("ems_run", ems.build, 0.8, dev=True),
        KindSpec("pathology", pathology.build, 1.0, dev=True),
        KindSpec("telephone", telephone.build, 1.2, informal=True, dev=True),
        KindSpec("nursing_handoff", handoff.build, 1.2, informal=True),
        KindSpec("signout", signout.build, 0.8, informal=True),
        KindSpec("family_meeting", family_meeting.build, 0.8),
        KindSpec("portal_message", portal.build, 0.8, informal=True),
        KindSpec("chart_access", chart_access.build, 0.5),
        KindSpec("outside_record", outside.build, 1.0),
        KindSpec("field_record", field.build, 0.8),
    )
}

DEV_KINDS: List[str] = [name for name, spec in KINDS.items() if spec.dev]
TRAIN_KINDS: List[str] = [name for name, spec in KINDS.items() if not spec.dev]
