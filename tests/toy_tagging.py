"""Tiny fictional training data for the trained taggers' tests (`phi_crf`,
`phi_hmm`): doctors after "Dr.", patients by full name, dates."""

from typing import List, Sequence, Tuple

from spacy.training import Example

TEMPLATES = [
    "Seen by Dr. {last} today .",
    "Dr. {last} called back about the results .",
    "Patient {first} {last} was admitted overnight .",
    "Follow up on {date} in clinic .",
    "No new complaints and vitals are stable .",
]
Data = List[Tuple[str, List[Tuple[int, int, str]]]]


def _date(i: int) -> str:
    return f"{i % 12 + 1:02d}/{i % 28 + 1:02d}/20{10 + i % 15}"


def toy_data(n: int, surnames: Sequence[str], first_names: Sequence[str]) -> Data:
    """`n` notes: (text, [(start, end, label)])."""
    data = []
    for i in range(n):
        template = TEMPLATES[i % len(TEMPLATES)]
        values = {
            "last": surnames[i % len(surnames)],
            "first": first_names[i % len(first_names)],
            "date": _date(i),
        }
        text = template.format(**values)
        ents = []
        if "{first} {last}" in template:
            name = f"{values['first']} {values['last']}"
            start = text.index(name)
            ents.append((start, start + len(name), "PATIENT"))
        elif "{last}" in template:
            start = text.index(values["last"])
            ents.append((start, start + len(values["last"]), "DOCTOR"))
        if "{date}" in template:
            start = text.index(values["date"])
            ents.append((start, start + len(values["date"]), "DATE"))
        data.append((text, ents))
    return data


def make_examples(nlp, data: Data) -> List[Example]:
    return [
        Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in data
    ]
