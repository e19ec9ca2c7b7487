"""Segment-level noise: typos, glued tokens, hard wraps, case and spacing.

Noise is applied to builder segments before offsets are computed, so gold
spans stay exact: PHI segments keep their (possibly re-cased) surface.
"""

import re
from dataclasses import dataclass
from random import Random
from typing import List

from .builder import Segment

_WORD = re.compile(r"[A-Za-z]{4,}")
MISSPELLINGS = {
    "patient": "pateint",
    "received": "recieved",
    "tomorrow": "tommorow",
    "definitely": "definately",
    "pneumonia": "pnuemonia",
    "diarrhea": "diarhea",
    "hypertension": "hypertention",
    "nausea": "naseau",
    "abdominal": "abdomnial",
    "because": "becuase",
    "their": "thier",
    "until": "untill",
    "which": "wich",
    "separate": "seperate",
    "occurred": "occured",
    "continue": "contniue",
    "medications": "medicaitons",
    "weakness": "weakeness",
    "breath": "breathe",
    "swelling": "sweling",
    "discharge": "dischage",
    "appointment": "appointmnet",
    "called": "caled",
    "worried": "woried",
    "labs": "lbas",
}
_MISSPELL = re.compile(r"\b(" + "|".join(MISSPELLINGS) + r")\b")


@dataclass
class NoiseProfile:
    """Per-note noise settings."""

    typo_rate: float = 0.0
    glue_rate: float = 0.0
    wrap_width: int = 0
    caps: bool = False
    lower: bool = False
    double_space: float = 0.0
    tabs: float = 0.0
    misspell: float = 0.0

    def features(self) -> List[str]:
        """Names of the active noise features (for note meta)."""
        names = []
        for name in (
            "typo_rate",
            "glue_rate",
            "wrap_width",
            "double_space",
            "tabs",
            "misspell",
        ):
            if getattr(self, name):
                names.append(name.split("_")[0])
        if self.caps:
            names.append("caps")
        if self.lower:
            names.append("lower")
        return names


def sample_profile(rng: Random, informal: bool = False) -> NoiseProfile:
    """Draw a noise profile; informal notes are noisier."""
    p = NoiseProfile()
    if rng.random() < (0.6 if informal else 0.3):
        p.typo_rate = rng.choice([0.01, 0.02, 0.04, 0.07])
    if rng.random() < 0.25:
        p.glue_rate = rng.choice([0.03, 0.08, 0.15])
    if rng.random() < 0.3:
        p.wrap_width = rng.randint(58, 82)
    r = rng.random()
    if r < 0.06:
        p.caps = True
    elif informal and r < 0.2:
        p.lower = True
    if rng.random() < 0.15:
        p.double_space = rng.choice([0.05, 0.15])
    if rng.random() < 0.1:
        p.tabs = 0.5
    if rng.random() < (0.5 if informal else 0.1):
        p.misspell = 0.5
    return p


def typo(word: str, rng: Random) -> str:
    """One character-level typo: swap, drop or double."""
    if len(word) < 3:
        return word
    i = rng.randrange(1, len(word) - 1)
    op = rng.randrange(3)
    if op == 0:
        return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]
    if op == 1:
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]


def _typos(text: str, rate: float, rng: Random) -> str:
    return _WORD.sub(
        lambda m: typo(m.group(0), rng) if rng.random() < rate else m.group(0), text
    )


def _spacing(text: str, p: NoiseProfile, rng: Random) -> str:
    if p.tabs:
        text = re.sub(
            r":[ ]", lambda m: ":\t" if rng.random() < p.tabs else m.group(0), text
        )
    if p.double_space:
        text = re.sub(
            r"(?<=\S) (?=\S)",
            lambda m: "  " if rng.random() < p.double_space else " ",
            text,
        )
    return text


def _glue(segs: List[Segment], rate: float, rng: Random) -> None:
    for i, seg in enumerate(segs):
        if seg.label is None or rng.random() >= rate:
            continue
        after = rng.random() < 0.6
        if after and i + 1 < len(segs) and segs[i + 1].label is None:
            nxt = segs[i + 1].text
            rest = nxt.lstrip(" \n")
            if rest and rest[0].isalnum() and len(nxt) - len(rest) <= 2:
                segs[i + 1].text = rest
        elif not after and i > 0 and segs[i - 1].label is None:
            prev = segs[i - 1].text
            if prev.endswith(" ") and len(prev) > 1 and prev[-2].isalpha():
                segs[i - 1].text = prev[:-1]


def _wrap(segs: List[Segment], width: int) -> None:
    col = 0
    for seg in segs:
        if seg.label is not None:
            col += len(seg.text)
            continue
        out = []
        for ch in seg.text:
            if ch == "\n":
                col = 0
            elif ch == " " and col >= width:
                ch = "\n"
                col = 0
            else:
                col += 1
            out.append(ch)
        seg.text = "".join(out)


def apply_noise(segs: List[Segment], p: NoiseProfile, rng: Random) -> List[Segment]:
    """Return noised copies of `segs`."""
    out = [Segment(s.text, s.label) for s in segs]
    for seg in out:
        if seg.label is None:
            if p.typo_rate:
                seg.text = _typos(seg.text, p.typo_rate, rng)
            if p.misspell:
                seg.text = _MISSPELL.sub(
                    lambda m: (
                        MISSPELLINGS[m.group(0)]
                        if rng.random() < p.misspell
                        else m.group(0)
                    ),
                    seg.text,
                )
            seg.text = _spacing(seg.text, p, rng)
        if p.caps:
            seg.text = seg.text.upper()
        elif p.lower and (seg.label is None or rng.random() < 0.5):
            seg.text = seg.text.lower()
    if p.glue_rate:
        _glue(out, p.glue_rate, rng)
    if p.wrap_width:
        _wrap(out, p.wrap_width)
    return [s for s in out if s.text]
