"""Segment builder: text is assembled from pieces and PHI offsets are kept."""

from dataclasses import dataclass
from typing import List, Optional, Tuple

from ..core.types import PhiSpan


@dataclass
class Segment:
    """One piece of note text; `label` is set for a PHI span."""

    text: str
    label: Optional[str] = None


class NoteBuilder:
    """Collects text and PHI segments in order.

    PHI offsets are computed while the final string is assembled in `build`,
    after segment-level noise, so spans are exact by construction.
    """

    def __init__(self) -> None:
        self.segments: List[Segment] = []

    def add(self, text: str) -> None:
        """Append plain (non-PHI) text."""
        if text:
            if self.segments and self.segments[-1].label is None:
                self.segments[-1].text += text
            else:
                self.segments.append(Segment(text))

    def phi(self, text: str, label: str) -> None:
        """Append one PHI span."""
        if text:
            self.segments.append(Segment(text, label))

    def newline(self, n: int = 1) -> None:
        """End the current line (without trailing spaces)."""
        if self.segments and self.segments[-1].label is None:
            self.segments[-1].text = self.segments[-1].text.rstrip(" ")
        self.add("\n" * n)

    def tail(self) -> str:
        """The last few characters so far."""
        return "".join(s.text for s in self.segments[-3:])[-40:]

    def build(self) -> Tuple[str, List[PhiSpan]]:
        """Concatenate segments and record span offsets."""
        parts: List[str] = []
        spans: List[PhiSpan] = []
        pos = 0
        for seg in self.segments:
            if seg.label is not None:
                spans.append(PhiSpan(pos, pos + len(seg.text), seg.label))
            parts.append(seg.text)
            pos += len(seg.text)
        return "".join(parts), spans
