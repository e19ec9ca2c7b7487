"""Per-note rendering context: grammar expansion, slot filling, family choice."""

import datetime as dt
from random import Random
from typing import Callable, Dict, List, Optional, Sequence

from . import data
from .builder import NoteBuilder
from .families import Family
from .grammar import Seq, parse
from .patients import CHILD_ROLES, Profile, Relative, StaffPool, add_relative
from .values import Address, Hospital, Person, Values

SlotFn = Callable[["NoteContext", str], None]
# Family groups used by several kinds: in the dev split even the withheld kinds
# take their withheld families, so dev prose is unseen in train.
SHARED_PREFIXES = frozenset(("prose", "common"))
SLOTS: Dict[str, SlotFn] = {}
STARRABLE = frozenset(
    (
        "PHONE",
        "FAX",
        "DOCTOR",
        "DATE",
        "HOSPITAL",
        "DEPARTMENT",
        "ROOM",
        "EMAIL",
        "ACCOUNT",
        "HEALTHPLAN",
    )
)


def slot(name: str) -> Callable[[SlotFn], SlotFn]:
    """Register a slot filler for `{name}` / `{name:arg}`."""

    def deco(fn: SlotFn) -> SlotFn:
        SLOTS[name] = fn
        return fn

    return deco


class NoteContext:
    """State for rendering one note."""

    def __init__(
        self,
        kind: str,
        rng: Random,
        values: Values,
        staff: StaffPool,
        profile: Profile,
        date: dt.date,
        split: str,
        dev_kind: bool,
    ) -> None:
        self.kind = kind
        self.rng = rng
        self.v = values
        self.staff = staff
        self.p = profile
        self.date = date
        self.split = split
        self.dev_kind = dev_kind
        self.b = NoteBuilder()
        self.families: List[str] = []
        self.rel: Optional[Relative] = None
        self.doc: Optional[Person] = None
        self.author = staff.pick()
        self.dates: Dict[str, dt.date] = {"note": date}
        self.hstyle = rng.randrange(9)
        self.last_hosp: Optional[Hospital] = None
        self.other_addr: Optional[Address] = None
        self.consultant: Optional[Person] = None
        self.star_rate = 0.15 if rng.random() < 0.07 else 0.0
        self._vent: Optional[bool] = None

    # -- families ---------------------------------------------------------
    def options(self, fams: Sequence[Family]) -> List[Family]:
        """Families allowed in this split.

        train: no withheld family. dev and test: their own withheld families
        at every choice point that has one (in the dev split, the withheld
        kinds' own groups take any family but test's), else train's.
        """
        train = [f for f in fams if f.train]
        if self.split == "train":
            return train
        if self.split == "test":
            return [f for f in fams if f.test] or train
        shared = fams[0].id.split(".")[0] in SHARED_PREFIXES
        if self.split == "dev" and (shared or not self.dev_kind):
            return [f for f in fams if f.dev] or train
        if self.split == "dev":
            return [f for f in fams if not f.test]
        return list(fams)

    def pick(self, fams: Sequence[Family]) -> Family:
        """Choose a family and record its id."""
        fam = self.rng.choice(self.options(fams))
        if fam.id not in self.families:
            self.families.append(fam.id)
        return fam

    def use(self, fams: Sequence[Family], k: int = 1, sep: str = " ") -> None:
        """Pick a family and render `k` of its frames (in order)."""
        fam = self.pick(fams)
        frames = list(fam.frames)
        if k >= len(frames):
            chosen = frames
        else:
            idx = sorted(self.rng.sample(range(len(frames)), k))
            chosen = [frames[i] for i in idx]
        for i, frame in enumerate(chosen):
            if i:
                self.add(sep)
            self.rel = None  # a frame's relative slots refer to one person
            self.t(frame)

    # -- text -----------------------------------------------------------
    def add(self, text: str) -> None:
        """Plain text."""
        self.b.add(text)

    def phi(self, text: str, label: str) -> None:
        """A PHI span (or, in templated notes, an unfilled `***` field)."""
        if self.star_rate and label in STARRABLE and self.rng.random() < self.star_rate:
            self.b.add(self.rng.choice(("***", "***", "[***]", "**")))
            return
        self.b.phi(text, label)

    def nl(self, n: int = 1) -> None:
        """Line break(s)."""
        self.b.newline(n)

    def t(self, template: str) -> None:
        """Render a grammar template."""
        self._seq(parse(template))

    def _seq(self, seq: Seq) -> None:
        r = self.rng
        for kind, val in seq:
            if kind == "t":
                self.b.add(val)  # type: ignore[arg-type]
            elif kind == "s":
                name, _, arg = str(val).partition(":")
                SLOTS[name](self, arg)
            elif kind == "a":
                self._seq(r.choice(val))  # type: ignore[arg-type]
            elif r.random() < 0.5:
                self._seq(val)  # type: ignore[arg-type]

    def chance(self, p: float) -> bool:
        """True with probability p."""
        return self.rng.random() < p

    def choice(self, items: Sequence):  # type: ignore[no-untyped-def]
        """A random element."""
        return self.rng.choice(items)

    # -- dates ----------------------------------------------------------
    def when(self, which: str) -> dt.date:
        """A named date of this note (admission, discharge, follow-up, ...)."""
        if which not in self.dates:
            r, d = self.rng, self.date
            if which == "adm":
                val = d - dt.timedelta(days=r.randint(1, 14))
            elif which == "dc":
                val = d
            elif which == "dob":
                val = self.p.dob
            elif which in ("fu", "next"):
                val = d + dt.timedelta(days=r.choice((3, 7, 10, 14, 21, 28, 42, 90)))
            elif which == "onset":
                val = d - dt.timedelta(days=r.randint(1, 10))
            else:
                val = d - dt.timedelta(days=r.randint(15, 3000))
            self.dates[which] = val
        return self.dates[which]

    # -- people -------------------------------------------------------------
    def doctor(self, role: str) -> Person:
        """The clinician filling a role in this note."""
        p = self.p
        if role == "pcp":
            return p.pcp
        if role == "attending":
            return p.attending
        if role == "consult":
            if self.consultant is None or self.chance(0.15):
                self.consultant = self.choice(p.consultants)
            return self.consultant
        if role == "author":
            return self.author
        if role == "same" and self.doc is not None:
            return self.doc
        return self.staff.pick()

    def relative(self, kind: str = "") -> Relative:
        """A (new) current relative; `kind` `young`: a child or grandchild."""
        rels = self.p.relatives
        if kind == "young":
            young = [r for r in rels if r.role in CHILD_ROLES and r.age < 30]
            if not young:
                age = self.p.age_at(self.p.start)
                roles = (
                    ("son", "daughter", "grandson", "granddaughter")
                    if age >= 45
                    else ("niece", "nephew", "son", "daughter", "brother", "sister")
                )
                new = add_relative(self.p, self.v, self.rng, roles)
                young = [new] if new is not None else []
            if young:
                self.rel = self.choice(young)
                return self.rel
        self.rel = self.choice(rels)
        return self.rel

    def rel_age(self, rel: Relative) -> int:
        """A relative's age on the note date."""
        return rel.age + max((self.date - self.p.start).days, 0) // 365

    def age(self) -> int:
        """The patient's age on the note date."""
        return self.p.age_at(self.date)

    def vented(self) -> bool:
        """Whether the patient is on a ventilator in this note (ICU notes)."""
        if self._vent is None:
            self._vent = self.kind == "icu_nursing" and self.chance(0.5)
        return self._vent


def poss(ctx: NoteContext) -> str:
    """His/her."""
    return "his" if ctx.p.person.sex == "M" else "her"


def article(ctx: NoteContext, word: str) -> None:
    """Add the indefinite article for `word` ("a " or "an ")."""
    ctx.add("an " if word[:1].lower() in "aeiou" else "a ")


def lst(name: str) -> Sequence[str]:
    """A curated list."""
    return data.lines(name)
