"""Plain data model for annotated notes, independent of spaCy."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(frozen=True, order=True)
class PhiSpan:
    """A labelled character span `text[start:end]`."""

    start: int
    end: int
    label: str

    def to_dict(self) -> Dict[str, Any]:
        return {"start": self.start, "end": self.end, "label": self.label}


@dataclass
class Note:
    """One note with its gold or predicted PHI spans."""

    id: str
    text: str
    spans: List[PhiSpan] = field(default_factory=list)
    patient: Optional[str] = None
    meta: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        record: Dict[str, Any] = {"id": self.id, "text": self.text}
        record["spans"] = [s.to_dict() for s in sorted(self.spans)]
        if self.patient is not None:
            record["patient"] = self.patient
        if self.meta:
            record["meta"] = self.meta
        return record

    @classmethod
    def from_dict(cls, record: Dict[str, Any]) -> "Note":
        spans = [
            PhiSpan(int(s["start"]), int(s["end"]), str(s["label"]))
            for s in record.get("spans", [])
        ]
        patient = record.get("patient")
        return cls(
            id=str(record["id"]),
            text=record["text"],
            spans=spans,
            patient=None if patient is None else str(patient),
            meta=dict(record.get("meta", {})),
        )
