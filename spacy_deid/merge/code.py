"""Lines of source code in a note: a pasted script or query.

A tagger trained on clinical notes reads identifiers in code as names and
places ("values[i" as a patient, "DECIMAL" as a hospital); `phi_relabel`
drops what it alone found on such lines (`code_line_labels`).

A line is code when it has a mark that only programs have (an operator such as
"=>", "+=", "==", "&&" or "::", a camel- or snake-case member after "::", a
call of a dotted name, an empty call "()",
a statement keyword at its start, an SQL statement) and at least one more mark
of either kind (braces, a closing semicolon). One mark alone is not enough:
clinical notes have semicolons, braces around template fields and the odd
"::", and a line such as "{Patient}: Ann Lee;" must keep its name.
"""

import re
from typing import List, Tuple

# Statement keywords, lower case and followed by what a statement continues
# with: "Return to clinic" is prose, "return this.name" is code.
_KEYWORD = (
    r"[ \t]*(?:import|from[ \t]+[\w.]+[ \t]+import|def|class|return|public"
    r"|private|protected|static|const|let|var|func|fn|catch|try|except|elif"
    r"|#include|using|package)\b(?=[ \t]+[\w({\"'])"
)
# Marks that prose and clinical notes do not have. Each starts with a literal
# character ("=" rather than "-" of "-="), so that `re` skips to candidates
# fast: notes are full of "-" and ":", and this runs on every note.
_STRONG = (
    re.compile(r"=[>=]|=(?<=[-+*!]=)|&&|\|\||\+\+|::"),  # "=>", "+=", "==", "&&"
    # A member after a scope ("MyClass::toString", "self::max_size"): the
    # name is camel case or snake case, which notes' "Plan::Continue" is not.
    re.compile(r"::(?<=\w::)(?:[a-z]+[A-Z]|[A-Za-z]*_[A-Za-z])"),
    re.compile(r"\.(?<=\w\.)[A-Za-z_]\w*\("),  # a call of a dotted name
    re.compile(r"\(\)(?<=\w\(\))"),  # an empty call
    re.compile(r"(?:SELECT\b.*\bFROM|INSERT INTO|CREATE TABLE|UPDATE\b.*\bSET)\b"),
    re.compile("^" + _KEYWORD),
)
# Marks that notes have too ("{Patient}", "BP 120/80; HR 88;").
_WEAK = (re.compile(r"[{}]"), re.compile(r";\s*$"))
# The strong marks searched for in a whole text: the keywords after a newline
# (the first line is matched apart). One search each is about three times
# faster than one search for their alternation.
_SEARCHED = (*_STRONG[:-1], re.compile("\n" + _KEYWORD))


def is_code_line(line: str) -> bool:
    """Whether a line of text is source code.

    line (str): One line, without its newline.
    RETURNS (bool): True where it has a strong mark of code and one more mark.
    """
    strong = sum(1 for mark in _STRONG if mark.search(line))
    if not strong:
        return False
    return strong + sum(1 for mark in _WEAK if mark.search(line)) >= 2


def code_lines(text: str) -> List[Tuple[int, int]]:
    """The character ranges (start, end) of the lines of code in a text.

    text (str): The text.
    RETURNS (List[Tuple[int, int]]): The ranges, newlines excluded, in order.
    """
    # Only a line with a strong mark can be code: look at those alone.
    starts = {
        text.rfind("\n", 0, match.start() + 1) + 1
        for mark in _SEARCHED
        for match in mark.finditer(text)
    }
    if _STRONG[-1].match(text):
        starts.add(0)
    ranges = []
    for start in sorted(starts):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if is_code_line(text[start:end]):
            ranges.append((start, end))
    return ranges
