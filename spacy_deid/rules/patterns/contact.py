"""Contact patterns: PHONE, FAX, EMAIL, URL, IPADDR, and the hardware (MAC)
address of a network device (DEVICE)."""

from typing import List

from ._common import (
    CUE_SEP,
    NL,
    PRIO_CONTACT_STRONG,
    PRIO_CUED,
    PRIO_CUED_WEAK,
    PRIO_SHAPE,
    PRIO_SHAPE_WEAK,
    make_pattern,
)

# Optional extension: " x1234", " ext. 1234", " extension 1234".
_EXT = r"(?:[ \t]*(?:(?i:x|ext\.?|extension)[ \t]*\d{1,5}))?"
# Optional country code: "+1 ", "1-", "1.", "+1-".
_CC = r"(?:\+?1[-. \t]?)?"
# Numbers must not continue into more digits or be glued to a longer number.
# Letters may touch a number ("Tel617-555-1212Fax") until the tokenizer splits.
_LEFT = r"(?<![\d+.\-/])"
_RIGHT = r"(?![\d\-/]|\.\d)"

# (416) 943-8331, (416)943-8331, +1 (416) 943 8331
_PAREN = _CC + r"\(\d{3}\)[ \t]?\d{3}[-. \t]\d{4}" + _EXT
# 416-943-8331, 416.943.8331, 1-800-555-1212 (same separator both times). Two
# branches, not a group and a backreference: a pattern with a backreference gets
# no scout (`scout.py`), and this one would then be tried at every character.
_SEP = _CC + r"\d{3}(?:-\d{3}-|\.\d{3}\.)\d{4}" + _EXT
# 416 943 8331: only North American area code / exchange ([2-9]xx), since
# runs of spaced numbers are common in lab tables.
_SPACE = _CC + r"[2-9]\d{2}[ \t][2-9]\d{2}[ \t]\d{4}" + _EXT
# Any of the shapes, plus shapes that need a cue: 7-digit 943-8331, 10 bare
# digits, 713-5896872, 401/345-9475 and internal 8-6736.
_ANY_PHONE = (
    r"(?:"
    + _CC
    + r"\(\d{3}\)[ \t]?\d{3}[-. \t]\d{4}|"
    + _CC
    + r"\d{3}[-. \t/]\d{3}[-. \t]\d{4}|\d{10}|\d{3}-\d{7}|\d{3}[-.]\d{4}|\d-\d{4})"
    + _EXT
)

_PHONE_CUE = (
    r"(?i:\b(?:tel|telephone|phone|ph|cell|cellphone|mobile|home|work|pager|pgr|"
    r"beeper|call|contact)\b\.?)"
)
# "page" only as a request ("please page 16641"), not "page 2 of 3".
_PAGER_CUE = r"(?i:\b(?:pager|pgr|beeper|beep|(?:please[ \t]+)page)\b\.?)"
# "fax", "faxed", "facsimile", "F:" (capital F with a colon only). The cue may
# be glued to a preceding number: "781-979-2836FAX 713 343 7644".
_FAX_CUE = r"(?:(?<![A-Za-z])(?i:fax(?:ed)?|facsimile|telefax)\b\.?|\bF[ \t]*:)"
# Filler between a fax cue and the number: "fax number is", "fax results to",
# "FAX failed to", "faxed to Weber, Anita @", "fax to Lincoln pharmacy,", or a
# line break after "Fax:". A recipient must not contain a phone word.
_FAX_FILL = (
    CUE_SEP
    + r"(?:"
    + NL
    + r"[ \t]*)?"
    + r"(?:(?i:results|records|report|notes?|failed|queued|sent|over)[ \t]+){0,2}"
    + r"(?:(?i:to|at|is|line)\b[ \t:]*)?"
    + r"(?:(?:(?!(?i:phone|tel|cell|pager|call|ph)\b)[^\r\n@:]){1,40}?[@,][ \t]*)?"
)
# Filler between a phone cue and the number: "call me at", "reach him on".
_PHONE_FILL = CUE_SEP + r"(?:(?i:me|us|him|her|them|at|on|to|is)\b[ \t:]*){0,2}"

# An IPv6 zone id: "%eth0", "%25" (URL-escaped), "%3".
_ZONE = r"(?:%[A-Za-z0-9_.\-]{1,16})?"

# Common TLDs only: "Pt.care" or "self.help" are no URLs.
_TLDS = r"(?i:com|org|net|edu|gov|io|info|biz|us)"
# Trailing punctuation is not part of a URL.
_URL_TAIL = r"(?:/[^\s<>\"'()\[\]]*[^\s<>\"'()\[\].,;:!?])?/?"

PATTERNS: List[dict] = [
    make_pattern(
        "phone.us_paren",
        "PHONE",
        _LEFT + r"(?P<phi>" + _PAREN + r")" + _RIGHT,
        priority=PRIO_SHAPE,
        score=0.95,
    ),
    make_pattern(
        "phone.us_sep",
        "PHONE",
        _LEFT + r"(?P<phi>" + _SEP + r")" + _RIGHT,
        priority=PRIO_SHAPE,
        score=0.9,
    ),
    make_pattern(
        "phone.us_space",
        "PHONE",
        _LEFT + r"(?P<phi>" + _SPACE + r")" + _RIGHT,
        priority=PRIO_SHAPE,
        score=0.8,
    ),
    # A phone cue allows the 7-digit and 10-bare-digit shapes.
    make_pattern(
        "phone.cued",
        "PHONE",
        _PHONE_CUE + _PHONE_FILL + r"(?P<phi>" + _ANY_PHONE + r")" + _RIGHT,
        priority=PRIO_CUED_WEAK,
        score=0.9,
    ),
    # Pager numbers: "pager #12345", "beeper 4-1234".
    make_pattern(
        "phone.pager",
        "PHONE",
        _PAGER_CUE + CUE_SEP + r"(?P<phi>(?i:x)?(?:\d{1,3}-?\d{4,5}|\d{4,6}))" + _RIGHT,
        priority=PRIO_CUED_WEAK,
        score=0.85,
    ),
    # An internal extension alone: "ext. 4-5678", "extension 45678".
    make_pattern(
        "phone.extension",
        "PHONE",
        r"\b(?i:ext|extension)\b\.?[ \t]*#?[ \t]*(?P<phi>\d-?\d{3,5}|\d{3,6})" + _RIGHT,
        priority=PRIO_SHAPE_WEAK,  # never beat the full number it belongs to
        score=0.8,
    ),
    # A fax cue close before any phone shape: FAX beats PHONE on the same span.
    make_pattern(
        "fax.cued",
        "FAX",
        _FAX_CUE + _FAX_FILL + r"(?P<phi>" + _ANY_PHONE + r")" + _RIGHT,
        priority=PRIO_CUED,
        score=0.95,
    ),
    make_pattern(
        "email.address",
        "EMAIL",
        r"(?<![\w.+\-])(?P<phi>[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9\-]+"
        r"(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,})(?![\w@])",
        priority=PRIO_CONTACT_STRONG,
        score=0.99,
    ),
    make_pattern(
        "url.scheme",
        "URL",
        r"(?P<phi>\b(?i:https?|ftp|sftp)://[^\s<>\"'()\[\]]*[^\s<>\"'()\[\].,;:!?])",
        priority=PRIO_CONTACT_STRONG,
        score=0.99,
    ),
    make_pattern(
        "url.www",
        "URL",
        r"(?<![\w.@/])(?P<phi>(?i:www)\.[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+"
        + _URL_TAIL
        + r")(?![\w@])",
        priority=PRIO_CONTACT_STRONG,
        score=0.95,
    ),
    # A bare domain with a common TLD: "partners.org", "mgh.harvard.edu/x".
    make_pattern(
        "url.domain",
        "URL",
        r"(?<![\w.@/\-])(?P<phi>[A-Za-z0-9][A-Za-z0-9\-]*(?:\.[A-Za-z0-9\-]+)*\."
        + _TLDS
        + _URL_TAIL
        + r")(?![\w@\-]|\.\w)",
        priority=PRIO_SHAPE_WEAK,
        score=0.85,
    ),
    make_pattern(
        "ip.v4",
        "IPADDR",
        r"(?<![\w.])(?P<phi>\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(?![\w]|\.\d)",
        priority=PRIO_SHAPE_WEAK,
        validator="ipv4",
        score=0.9,
    ),
    # Candidate IPv6 (full or compressed with "::", with an optional zone id
    # "%eth0"); the validator parses it.
    make_pattern(
        "ip.v6",
        "IPADDR",
        r"(?<![\w:.])(?P<phi>(?:[0-9A-Fa-f]{1,4}:|:){2,7}(?::|[0-9A-Fa-f]{1,4})"
        + _ZONE
        + r")(?![\w:%]|\.\w)",
        priority=PRIO_SHAPE_WEAK,
        validator="ipv6",
        score=0.9,
    ),
    # IPv6 with an embedded IPv4 address: "::ffff:192.0.2.128" (IPv4-mapped).
    make_pattern(
        "ip.v6_v4",
        "IPADDR",
        r"(?<![\w:.])(?P<phi>(?:[0-9A-Fa-f]{1,4}:|:){2,6}"
        r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}"
        + _ZONE
        + r")(?![\w:%]|\.\d)",
        priority=PRIO_SHAPE,
        validator="ipv6",
        score=0.9,
    ),
    # A MAC address (a network device's hardware address): six hex pairs
    # joined by ":" or "-", or three groups of four joined by "." (Cisco).
    make_pattern(
        "device.mac",
        "DEVICE",
        r"(?<![\w:.\-])(?P<phi>[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}"
        r"|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}"
        r"|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:\-]|\.\w)",
        priority=PRIO_SHAPE_WEAK,
        validator="mac",
        score=0.9,
    ),
]
