"""USERNAME patterns: logins after a cue, and bracketed logins in audit lines.

`user jsmith2`, `Username: jdoe`, `login id = kp85`, `Signed by: [jsmith2]`,
sshd log lines (`Accepted password for jdoe from ...`), audit-trail rows that
start with a login and a date, call-back rows with a login and a time, JSON logs (`"user":
"jdoe7"`), login shapes after "by" or in parentheses (`by marma52`,
`(pagjo46)`), logins after an e-signature (`e-signed jdoe4`), and access-log
rows where a login precedes an IP address.
The `username` validator requires a letter, rejects clinical tokens ("spo2",
"q6h"), and requires a digit unless a separator or bracket introduced the
value, so "user friendly" or "IV drug user since" do not fire.
"""

from typing import List

from ._common import BOL, PRIO_CUED, make_pattern

_VALUE = r"[A-Za-z][A-Za-z0-9._\-]{1,30}[A-Za-z0-9]"
# Not followed by "@" (an e-mail) or more word characters.
_END = r"(?![\w@.\-]*[\w@])"
# Cues that name a login outright (group `strong`), and the weak bare "user"
# or "login" ("IV drug user", "login failed"), which need a digit.
_USER_CUE = (
    r"(?<![\w\-])(?:(?P<strong>(?i:user[ \t]*name|userid|user[ \t]*id|login[ \t]*"
    r"(?:name|id)|ntid|network[ \t]+id|account[ \t]+name|(?:password|publickey)"
    r"[ \t]+for(?:[ \t]+invalid[ \t]+user)?))|(?i:user|login|log-in|logon))"
)
# `"user": "jdoe"` (JSON), `user=jdoe`, `Username: jdoe`, `user [jdoe]`.
_SEP = r"[\"']?[ \t]*(?P<sep>[:=#]|is\b)?[ \t]*(?P<open>[\[(\"'])?"
# The usual login shapes: letters then 2-4 digits ("marma52"), or first.last.
_LOGIN = r"(?:[a-z]{3,}\d{2,4}|[a-z]{2,}[._][a-z]{2,}\d{0,4})"
_IPV4 = r"\d{1,3}(?:\.\d{1,3}){3}(?!\d)"
_AUDIT_CUE = (
    r"(?<![\w\-])(?i:(?:entered|signed|edited|modified|updated|created|reviewed"
    r"|authored|written|documented|cosigned|verified|completed)[ \t]+by|by"
    r"|author|editor|signer)"
)


def _user(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_CUED)
    kwargs.setdefault("validator", "username")
    return make_pattern(id, "USERNAME", regex, **kwargs)


PATTERNS: List[dict] = [
    # user jsmith2 / Username: jdoe / login id = kp85 / userid 'mlee7' /
    # Failed password for jdoe from 10.0.0.1
    _user(
        "username.cued",
        _USER_CUE + _SEP + r"(?P<phi>" + _VALUE + r")" + _END,
        score=0.85,
    ),
    # Signed by: [jsmith2] / entered by (kp85): a bracket marks a login.
    _user(
        "username.audit",
        _AUDIT_CUE + r"[ \t]*:?[ \t]*(?P<sep>[\[(])(?P<phi>" + _VALUE + r")[\])]",
        score=0.85,
    ),
    # access by marma52 / routed to ozunag.k (a login shape after "by")
    _user(
        "username.by",
        r"(?<![\w\-])(?i:by)[ \t]+(?P<phi>" + _LOGIN + r")" + _END,
        score=0.75,
    ),
    # Signed: Jose Silva MD (pagjo46) / Sonographer: Pastor (morgan.anderson)
    _user(
        "username.paren",
        r"\((?P<sep>)(?P<phi>" + _LOGIN + r")\)",
        score=0.7,
    ),
    # Audit-trail rows: a login first on the line, then a wide gap and a date
    # ("jball76    2066-08-19 22:41  viewed chart", "kcopeland  08/19/2066").
    _user(
        "username.log_row",
        BOL
        + r"(?P<sep>)(?P<phi>[a-z][a-z0-9._\-]{2,30}|[A-Z]{1,4}\d{2,6})"
        + r"(?:[ \t]{2,}|\t)"
        + r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b",
        flags="m",
        score=0.75,
    ),
    # Result call-back rows: a login alone at the start of a table cell, or
    # after "verified by", then a clock time ("| jdoe4 18:44 |",
    # "verified by kmarsh 07:12"); ordinary words are rejected by the validator.
    _user(
        "username.then_time",
        r"(?:\|[ \t]*|(?<![\w\-])(?i:verified|acknowledged|ack)[ \t]+(?i:by[ \t]+)?)"
        + r"(?P<sep>)(?P<phi>[a-z][a-z0-9._\-]{2,30})[ \t]+\d{1,2}:\d{2}\b",
        flags="m",
        score=0.75,
    ),
    # E-signatures: a login after "e-signed"/"e-sig", maybe past the time
    # stamp ("e-signed jdoe4", "e-sig 04/28/2095 10:14  kcopeland").
    _user(
        "username.esign",
        r"(?<![\w\-])(?i:e-?sign(?:ed|ature)?|e-?sig)(?:[ \t]+(?i:by))?[ \t]*:?[ \t]*"
        + r"(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}[ \t]+(?:\d{1,2}:?\d{2}[ \t]+)?)?"
        + r"(?P<sep>)(?P<phi>[a-z][a-z0-9._\-]{2,30})"
        + _END,
        score=0.75,
    ),
    # Access log rows: "| jball76 | 10.1.2.3 |", "0600,kenneth.copeland,10.1.2.3".
    _user(
        "username.before_ip",
        r"(?:"
        + BOL
        + r"|[|,;][ \t]*)(?P<phi>"
        + _VALUE
        + r")[ \t]*[|,;][ \t]*"
        + _IPV4,
        flags="m",
        score=0.7,
    ),
]
