"""PHONE, FAX, EMAIL, URL and IPADDR patterns."""

import pytest

from spacy_deid.rules.patterns import family_patterns

CONTACT_LABELS = {"PHONE", "FAX", "EMAIL", "URL", "IPADDR"}

# (pattern id, text, expected span, label)
POSITIVES = [
    ("phone.us_paren", "Call her at (416) 943-8331 today.", "(416) 943-8331", "PHONE"),
    ("phone.us_paren", "(416)943-8331", "(416)943-8331", "PHONE"),
    ("phone.us_paren", "+1 (617) 555-1212 x1234", "+1 (617) 555-1212 x1234", "PHONE"),
    ("phone.us_sep", "reached at 416-943-8331.", "416-943-8331", "PHONE"),
    ("phone.us_sep", "416.943.8331", "416.943.8331", "PHONE"),
    ("phone.us_sep", "1-800-555-1212", "1-800-555-1212", "PHONE"),
    ("phone.us_sep", "617-555-1212 ext. 1234", "617-555-1212 ext. 1234", "PHONE"),
    ("phone.us_sep", "Tel617-555-1212Fax", "Tel617-555-1212Fax", "PHONE"),
    ("phone.us_space", "number 416 943 8331 in chart", "416 943 8331", "PHONE"),
    ("phone.us_space", "+1 416 943 8331", "+1 416 943 8331", "PHONE"),
    ("phone.cued", "Phone: 943-8331", "943-8331", "PHONE"),
    ("phone.cued", "tel 4169438331", "4169438331", "PHONE"),
    ("phone.cued", "cell 943.8331", "943.8331", "PHONE"),
    ("phone.cued", "Please call 555-1212 x22 with questions", "555-1212 x22", "PHONE"),
    ("phone.cued", "contact #: 943-8331", "943-8331", "PHONE"),
    ("phone.cued", "Call me at 555-0134", "555-0134", "PHONE"),
    ("phone.pager", "paged at pager #12345", "12345", "PHONE"),
    ("phone.pager", "Beeper 4-1234", "4-1234", "PHONE"),
    ("phone.extension", "call ext. 4-5678", "4-5678", "PHONE"),
    ("phone.extension", "extension 45678", "45678", "PHONE"),
    ("fax.cued", "Fax: (416) 943-8331", "(416) 943-8331", "FAX"),
    ("fax.cued", "faxed to Weber, Anita @ 215.812.8471", "215.812.8471", "FAX"),
    ("fax.cued", "FAX RESULTS TO 1-800-743-5981", "1-800-743-5981", "FAX"),
    ("fax.cued", "Fax failed to 404 804 4626 by", "404 804 4626", "FAX"),
    ("fax.cued", "fax to Good Sam pharmacy, (207) 833-1785", "(207) 833-1785", "FAX"),
    ("fax.cued", "Fax:\n351-839-4106 Provider", "351-839-4106", "FAX"),
    ("fax.cued", "Fax:\r\n351-839-4106 Provider", "351-839-4106", "FAX"),
    ("fax.cued", "Fax:\r351-839-4106 Provider", "351-839-4106", "FAX"),
    ("phone.us_sep", "617-555-0142x12", "617-555-0142x12", "PHONE"),
    ("phone.us_sep", "call 617-555-0142X12.", "617-555-0142X12", "PHONE"),
    ("fax.cued", "Phone 781-979-2836FAX 713 343 7644", "713 343 7644", "FAX"),
    ("phone.cued", "phone 713-5896872 PCP", "713-5896872", "PHONE"),
    ("phone.cued", "Phone 401/345-9475", "401/345-9475", "PHONE"),
    ("phone.cued", "call 8-6736 with questions", "8-6736", "PHONE"),
    ("phone.pager", "Pager x07118", "x07118", "PHONE"),
    ("phone.pager", "PLEASE PAGE 16641 WITH QUESTIONS", "16641", "PHONE"),
    ("fax.cued", "F: 416-943-8331", "416-943-8331", "FAX"),
    ("fax.cued", "fax 617 555 1212", "617 555 1212", "FAX"),
    ("fax.cued", "fax number is 555-1212", "555-1212", "FAX"),
    ("fax.cued", "Please fax to (617) 555-1212.", "(617) 555-1212", "FAX"),
    ("email.address", "email john.doe@partners.org.", "john.doe@partners.org", "EMAIL"),
    (
        "email.address",
        "<J_Smith+x@mail.mgh.harvard.edu>",
        "J_Smith+x@mail.mgh.harvard.edu",
        "EMAIL",
    ),
    (
        "url.scheme",
        "see https://www.example.com/a?b=1.",
        "https://www.example.com/a?b=1",
        "URL",
    ),
    ("url.scheme", "(http://intranet/page)", "http://intranet/page", "URL"),
    (
        "url.www",
        "visit www.mgh.harvard.edu/cardio, thanks",
        "www.mgh.harvard.edu/cardio",
        "URL",
    ),
    ("url.domain", "portal at partners.org", "partners.org", "URL"),
    ("url.domain", "mychart.example.com/login.", "mychart.example.com/login", "URL"),
    ("ip.v4", "from 192.168.1.10.", "192.168.1.10", "IPADDR"),
    ("ip.v6", "host fe80::1.", "fe80::1", "IPADDR"),
    (
        "ip.v6",
        "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
        "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
        "IPADDR",
    ),
    ("ip.v6", "addr 2001:db8::ff00:42:8329", "2001:db8::ff00:42:8329", "IPADDR"),
    # Zone id, short forms after an IP cue, embedded IPv4 (IPv4-mapped).
    ("ip.v6", "via fe80::9c1:44ff:fe02:7b%wlan0 now", "fe80::9c1:44ff:fe02:7b%wlan0", "IPADDR"),
    ("ip.v6", "bound to IPv6 ::1 only", "::1", "IPADDR"),
    ("ip.v6", "loopback ::1", "::1", "IPADDR"),
    ("ip.v6_v4", "peer ::ffff:198.51.100.23 joined", "::ffff:198.51.100.23", "IPADDR"),
    ("ip.v6_v4", "2001:db8::203.0.113.9.", "2001:db8::203.0.113.9", "IPADDR"),
    ("device.mac", "MAC 3C:22:FB:91:0A:7E logged", "3C:22:FB:91:0A:7E", "DEVICE"),
    ("device.mac", "pump mac 3c-22-fb-91-0a-7e paired", "3c-22-fb-91-0a-7e", "DEVICE"),
    ("device.mac", "switch port 3c22.fb91.0a7e", "3c22.fb91.0a7e", "DEVICE"),
    ("device.mac", "Bluetooth 10:20:30:40:50:61", "10:20:30:40:50:61", "DEVICE"),
]

NEGATIVES = [
    "BP 120/80",
    "at 0800",
    "14:30",
    "10:30:00",
    "pH 7.35",
    "Na 140 K 4.2 Cl 103 HCO3 24 BUN 12",
    "WBC 10.5 Hgb 12.1 Plt 250",
    "943-8331",  # 7 digits without a phone cue
    "1234567890",  # 10 bare digits without a cue
    "ICD-10 E11.9",
    "the 3.5.2 release",
    "256.1.1.1",
    "999.999.999.999",
    "version 1.2.3",
    "12::30",
    "Dr.Smith",
    "e.g. i.e.",
    "Pt took 1.5 mg",
    "155 160 1700",  # spaced numbers not NANP-shaped
    "F: 98.6",
    "extensive 12345",
    "extension of 3 cm",
    "see page 1234",
    "call 2-3 times",
    "BP 120/80, call 911",
    "617-555.1212",  # two different separators
    "617.555-1212",
    "Version 10.2.0.14 installed",  # a version, not an address
    "v 4.3.2.1",
    "12::45",  # no hex letter, no IP cue
    "at ::5 o'clock",
    "10:20:30:40:50:61",  # digits alone need a hardware-address cue
    "00:00:00:00:00:00",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_contact_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_contact_negative(find, text):
    assert [e for e in find(text) if e[1] in CONTACT_LABELS] == []


def test_fax_beats_phone(find_doc):
    doc = find_doc("Tel: 617-555-1212 Fax: (617) 555-1213")
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("617-555-1212", "PHONE"),
        ("(617) 555-1213", "FAX"),
    ]
    # The losing PHONE candidate is still in the span group.
    labels = {(s.text, s.label_) for s in doc.spans["phi_rules"]}
    assert ("(617) 555-1213", "PHONE") in labels


def test_fax_recipient_is_no_phone_cue(find):
    text = "Fax: none, phone 617-555-1212"
    assert find(text) == [("617-555-1212", "PHONE")]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_fax_line_any_line_ending(find, newline):
    text = f"Tel: 617-555-1212{newline}Fax:{newline}617-555-0199{newline}"
    assert find(text) == [("617-555-1212", "PHONE"), ("617-555-0199", "FAX")]


def test_glued_extension_is_one_phone(find_doc):
    doc = find_doc("Tel 617-555-0142x12")
    assert [(e.text, e.label_) for e in doc.ents] == [("617-555-0142x12", "PHONE")]


def test_email_not_url(find):
    assert find("j.doe@partners.org") == [("j.doe@partners.org", "EMAIL")]


def test_every_contact_pattern_tested():
    ids = {p["id"] for p in family_patterns("contact")}
    assert ids == {p[0] for p in POSITIVES}
