"""Identifier formats and non-clinical text: what a pipeline finds and what it
leaves alone, on short cases.

    python benchmarks/short_cases.py [--model en] [--source FILE] [--show]

`data/short_cases_en.txt` holds one case per line, in groups ("## KIND"):
identifier formats that other de-identification tools test (IPv4, IPv6 in
compressed, IPv4-mapped and zone-id forms, MAC addresses, Medicare
Beneficiary Identifiers, date-times with offsets, ...) with their expected
spans marked [[LABEL|text]], and prose, source code and technical text with
no PHI at all. Prints, per group:

- identifier groups: the expected spans that some predicted span overlaps
  (binary, as a leak would be judged);
- groups without PHI: the cases left alone (no span predicted), and the
  labels that were invented.

`--show` prints the failing cases' text (all invented for this file).
"""

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from handwritten import parse_note  # noqa: E402

SOURCE = HERE / "data" / "short_cases_en.txt"
GROUP_START = "## "


def read_cases(source: str) -> List[Tuple[str, object]]:
    """(group, Note) for every case line of a cases file, in order."""
    cases = []
    group = ""
    for n, line in enumerate(source.splitlines(), start=1):
        if line.startswith(GROUP_START):
            group = line[len(GROUP_START) :].strip()
        elif line.strip() and not line.startswith("#"):
            if not group:
                raise ValueError(f"line {n}: a case before the first '## KIND'")
            cases.append((group, parse_note(f"line-{n}", line)))
    return cases


def score(cases, predicted: List[List[Tuple[int, int, str]]]) -> Dict[str, dict]:
    """Per group: expected spans found (binary overlap) or cases left alone.

    cases: (group, Note) pairs.
    predicted: each case's predicted (start, end, label) spans.
    RETURNS (Dict[str, dict]): group -> {"cases", "expected", "found",
        "left_alone", "invented" (Counter of labels), "failing" (case ids)}.
    """
    groups: Dict[str, dict] = defaultdict(
        lambda: {
            "cases": 0,
            "expected": 0,
            "found": 0,
            "left_alone": 0,
            "invented": Counter(),
            "failing": [],
        }
    )
    for (group, note), spans in zip(cases, predicted, strict=True):
        row = groups[group]
        row["cases"] += 1
        if note.spans:
            found = [
                any(s < g.end and g.start < e for s, e, _ in spans) for g in note.spans
            ]
            row["expected"] += len(found)
            row["found"] += sum(found)
            if not all(found):
                row["failing"].append(note.id)
        elif spans:
            row["invented"].update(label for _, _, label in spans)
            row["failing"].append(note.id)
        else:
            row["left_alone"] += 1
    return dict(groups)


def report(groups: Dict[str, dict]) -> str:
    """The table the script prints."""
    lines = [f"{'group':10} {'cases':>5}  result"]
    found = expected = alone = clean_cases = 0
    for group, row in groups.items():
        if row["expected"]:
            found, expected = found + row["found"], expected + row["expected"]
            result = f"found {row['found']}/{row['expected']} expected spans"
        else:
            alone, clean_cases = alone + row["left_alone"], clean_cases + row["cases"]
            invented = ", ".join(f"{k} {v}" for k, v in row["invented"].most_common())
            result = f"left alone {row['left_alone']}/{row['cases']}"
            result += f" (invented: {invented})" if invented else ""
        lines.append(f"{group:10} {row['cases']:>5}  {result}")
    if expected:
        lines.append(f"identifiers found: {found}/{expected} ({found / expected:.3f})")
    if clean_cases:
        lines.append(
            f"cases without PHI left alone: {alone}/{clean_cases} "
            f"({alone / clean_cases:.3f})"
        )
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="en")
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args(argv)
    import spacy_deid

    cases = read_cases(args.source.read_text(encoding="utf-8"))
    nlp = spacy_deid.load(args.model)
    docs = list(nlp.pipe(note.text for _, note in cases))
    predicted = [[(e.start_char, e.end_char, e.label_) for e in d.ents] for d in docs]
    groups = score(cases, predicted)
    print(report(groups))
    if args.show:
        texts = {note.id: note.text for _, note in cases}
        for group, row in groups.items():
            for case_id in row["failing"]:
                print(f"{group}: {texts[case_id]}")


if __name__ == "__main__":
    main(sys.argv[1:])
