"""Professional credentials written after a clinician's name ("Ana Ruiz, RD").

A lexicon, not a data table: no package lists them. It holds the US clinical
and allied-health credentials seen in signatures (licences, degrees, board
certifications), in the case they are written in.
"""

import re
from typing import FrozenSet

CREDENTIALS: FrozenSet[str] = frozenset(
    """
    MD DO MBBS PhD PharmD PsyD DDS DMD DPM DC OD DPT DNP MPH MSc MS MA BA BS
    RN BSN MSN LPN LVN CNA APRN NP FNP ANP NP-C FNP-BC PA PA-C CNM CRNA CNS
    RD RDN LD CDE CDCES IBCLC CCRC CCM CMA RMA MLS MLT MT CLS RPh CPhT
    LCSW LICSW LMSW MSW LPC LMFT LMHC CADC RRT CRT OTR OTR/L COTA PT PTA
    SLP CCC-SLP ATC EMT EMT-B EMT-P NRP FACP FACC FACS FAAP FACOG ABPP CCRN
    NCSN AGACNP AGPCNP PMHNP PNP NNP WHNP AuD
    MDiv OCN CHPN RHIA RHIT LSW CCS RPSGT
    """.split()
)


# The certifying body some write after a credential: "MLS(ASCP)".
_BODY = re.compile(r"\([A-Z]{2,6}\)?$")
# A board certification written onto a credential: "FNP-C", "AGACNP-BC".
_CERTIFIED = re.compile(r"-(?:C|BC)$")


def is_credential(text: str) -> bool:
    """Whether a token (or "PA-C"-like run) is a credential.

    text (str): The text, without spaces.
    RETURNS (bool): True if it is in `CREDENTIALS` (dots, a certifying body
        and a board certification ignored: "M.D.", "MLS(ASCP)", "FNP-C").
    """
    bare = _BODY.sub("", text.replace(".", ""))
    return bare in CREDENTIALS or _CERTIFIED.sub("", bare) in CREDENTIALS
