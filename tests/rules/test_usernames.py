"""USERNAME patterns: logins after a cue and in audit lines."""

import pytest

from spacy_deid.rules.patterns import family_patterns

# (pattern id, text, expected span, label)
POSITIVES = [
    ("username.cued", "password reset for user jsmith2", "jsmith2", "USERNAME"),
    ("username.cued", "Username: jdoe\n", "jdoe", "USERNAME"),
    ("username.cued", "login id = kp85", "kp85", "USERNAME"),
    ("username.cued", "userid 'mlee7'", "mlee7", "USERNAME"),
    ("username.cued", "(username shunt)", "shunt", "USERNAME"),
    (
        "username.cued",
        "sshd: Failed password for carol.madden from 10.1.2.3",
        "carol.madden",
        "USERNAME",
    ),
    ("username.audit", "Signed by: [jsmith2]", "jsmith2", "USERNAME"),
    ("username.audit", "Entered by (mlee) 12:00", "mlee", "USERNAME"),
    ("username.cued", '{"user": "brokr49", "ip": "10.2.3.4"}', "brokr49", "USERNAME"),
    ("username.cued", "Portal user kayla.cooley logged in", "kayla.cooley", "USERNAME"),
    ("username.cued", "User jr344 accessed the chart", "jr344", "USERNAME"),
    ("username.cued", "password reset for user kp85", "kp85", "USERNAME"),
    ("username.by", "Emergency access by durvi82 on 1/2", "durvi82", "USERNAME"),
    ("username.paren", "Signed: Jose Silva MD (pagjo46)", "pagjo46", "USERNAME"),
    (
        "username.paren",
        "Sonographer: Pastor (morgan.anderson).",
        "morgan.anderson",
        "USERNAME",
    ),
    ("username.before_ip", "| jball76 | 192.194.109.80 |", "jball76", "USERNAME"),
    (
        "username.log_row",
        "qbrandvold  2071-02-11 22:41:07  viewed chart",
        "qbrandvold",
        "USERNAME",
    ),
    ("username.log_row", "audit\nrx7741\t02/11/2071 printed", "rx7741", "USERNAME"),
    ("username.then_time", "| K 6.8 | Y | hquarles2 18:44 |", "hquarles2", "USERNAME"),
    ("username.then_time", "Result verified by tpellow 07:12", "tpellow", "USERNAME"),
    ("username.esign", "reviewed labs   e-signed mquillvane", "mquillvane", "USERNAME"),
    ("username.esign", "e-sig 04/28/2095 10:14  qorvell", "qorvell", "USERNAME"),
    ("username.esign", "E-signed by: tvardan2 09/02/2081", "tvardan2", "USERNAME"),
    (
        "username.before_ip",
        "0600, kenneth.copeland, 172.103.174.10, VIEW",
        "kenneth.copeland",
        "USERNAME",
    ),
]

NEGATIVES = [
    "user friendly",
    "IV drug user since 2060",
    "cocaine user",
    "user: Smith",
    "login failed",
    "user spo2",
    "by q6h",
    "decreased by x3",
    "user x3",  # a short clinical token after a weak cue
    "reviewed by attending",
    "username: jdoe@example.org",
    "by: Smith",
    "by day3",
    "CA-125 (ca125) elevated",
    "CD20 (cd20) positive",
    "(covid19) negative",
    "| view | 10.1.2.3 |",
    "| READ | 10.1.2.3 |",
    "i.e. user e.g. login",
    "seen  3/4/2070 in clinic",  # a word, not a login, before a date
    "Seen on  3/4/2070",
    "| dose 08:00 | given 09:30 |",  # words, not logins, before a time
    "verified by pharmacy 14:10",
    "e-signed the consent form",  # a word, not a login
    "E-signed: Dr. Ruiz",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_usernames_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_usernames_negative(find, text):
    assert [e for e in find(text) if e[1] == "USERNAME"] == []


def test_every_username_pattern_tested():
    ids = {p["id"] for p in family_patterns("usernames")}
    assert ids == {p[0] for p in POSITIVES}
