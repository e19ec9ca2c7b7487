"""Note kinds: one module per kind, each with its families and `build`."""

from dataclasses import dataclass
from typing import Callable, Dict, List

from .. import blocks as B
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


# Shared blocks appended to a kind's note: (probability, group, min, max lines).
EXTRA = {
    "signout": ((0.7, B.CENSUS, 1, 3), (0.8, B.WATCH, 1, 2)),
    "nursing_handoff": ((0.35, B.CENSUS, 1, 3), (0.25, B.WATCH, 1, 1), (0.3, B.WORDNAME, 1, 2),
                        (0.2, B.ORGS, 1, 2)),
    "icu_nursing": ((0.25, B.SHORTDATE, 1, 3), (0.5, B.VITALS, 2, 3),
                    (0.15, B.NOTIFY, 1, 2), (0.1, B.CENSUS, 1, 2)),
    "audit_log": ((0.4, B.NOTIFY, 1, 2),),
    "chart_access": ((0.4, B.NOTIFY, 1, 2),),
    "lab_header": ((0.4, B.NOTIFY, 1, 2),),
    "progress": ((0.3, B.SHORTDATE, 1, 3), (0.45, B.VITALS, 2, 3),
                 (0.12, B.NOTIFY, 1, 2), (0.15, B.WORDNAME, 1, 2),
                 (0.1, B.ORGS, 1, 1)),
    "family_meeting": ((0.5, B.WORDNAME, 1, 2), (0.3, B.ORGS, 1, 2)),
    "discharge": ((0.1, B.SHORTDATE, 1, 2), (0.1, B.WORDNAME, 1, 1),
                  (0.08, B.LICENCE, 1, 1), (0.12, B.ORGS, 1, 2)),
    "consult": ((0.15, B.SHORTDATE, 1, 2), (0.1, B.WORDNAME, 1, 1),
                (0.1, B.ORGS, 1, 1)),
    "transfer_form": ((0.4, B.LICENCE, 1, 3), (0.3, B.ORGS, 1, 1)),
    "ed_triage": ((0.3, B.LICENCE, 1, 2), (0.2, B.ORGS, 1, 1)),
    "outside_record": ((0.4, B.LICENCE, 1, 2), (0.2, B.ORGS, 1, 1)),
    "field_record": ((0.3, B.LICENCE, 1, 2), (0.3, B.ORGS, 1, 2)),
    "referral": ((0.2, B.LICENCE, 1, 2),),
    "psych": ((0.3, B.ORGS, 1, 2), (0.2, B.WORDNAME, 1, 2)),
    "clinic_comment": ((0.2, B.ORGS, 1, 1), (0.15, B.WORDNAME, 1, 1)),
}  # fmt: skip


# Blocks appended to every prose kind below, each with its own chance.
PROSE_KINDS = ("discharge", "psych", "progress", "consult", "nursing_handoff",
               "signout", "family_meeting", "clinic_comment", "ed_triage",
               "icu_nursing", "transfer_form", "outside_record", "field_record",
               "referral")  # fmt: skip
COMMON_EXTRA = ((0.12, B.OBSERV, 1, 1), (0.08, B.LROOM, 1, 1), (0.1, B.PROF, 1, 1),
                (0.12, B.ORG2, 1, 1), (0.08, B.HNICK, 1, 1),
                (0.04, B.WORDNAME, 1, 1))  # fmt: skip


def with_blocks(name: str, build: Builder) -> Builder:
    """`build`, then the kind's shared blocks (`EXTRA`, `COMMON_EXTRA`)."""
    extra = EXTRA.get(name, ()) + (COMMON_EXTRA if name in PROSE_KINDS else ())

    def run(ctx: NoteContext) -> None:
        build(ctx)
        for p, fams, lo, hi in extra:
            B.maybe(ctx, p, fams, lo, hi)

    run.__doc__ = build.__doc__
    return run


KINDS: Dict[str, KindSpec] = {
    spec.name: KindSpec(
        spec.name, with_blocks(spec.name, spec.build), spec.weight,
        spec.informal, spec.dev,
    )  # fmt: skip
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
        KindSpec("signout", signout.build, 1.4, informal=True),
        KindSpec("family_meeting", family_meeting.build, 0.8),
        KindSpec("portal_message", portal.build, 0.8, informal=True),
        KindSpec("chart_access", chart_access.build, 0.5),
        KindSpec("outside_record", outside.build, 1.0),
        KindSpec("field_record", field.build, 0.8),
    )
}

DEV_KINDS: List[str] = [name for name, spec in KINDS.items() if spec.dev]
TRAIN_KINDS: List[str] = [name for name, spec in KINDS.items() if not spec.dev]
