"""Date slots: note dates, years, seasons, holidays, months, ranges, times."""

from ..context import NoteContext, slot
from ..data import clinical


def _emit_date(ctx: NoteContext, text: str) -> None:
    """A DATE span; a leading `the` stays outside (`the [14th]`)."""
    if text.startswith("the "):
        ctx.add("the ")
        text = text[4:]
    ctx.phi(text, "DATE")


@slot("date")
def s_date(ctx: NoteContext, arg: str) -> None:
    """A full date (`arg` names which: note, adm, dc, dob, fu, past)."""
    _emit_date(ctx, ctx.v.date(ctx.when(arg or "note")))


@slot("pdate")
def s_pdate(ctx: NoteContext, arg: str) -> None:
    """A partial/relative date expression."""
    _emit_date(ctx, ctx.v.partial_date(ctx.when(arg or "past")))


@slot("anydate")
def s_anydate(ctx: NoteContext, arg: str) -> None:
    """Full or partial date."""
    if ctx.chance(0.6):
        s_date(ctx, arg)
    else:
        s_pdate(ctx, arg)


@slot("season")
def s_season(ctx: NoteContext, arg: str) -> None:
    """`last spring` / `this past winter` (span = season word)."""
    ctx.add(ctx.choice(("last ", "this past ", "early ", "late ", "over the ")))
    ctx.phi(ctx.v.partial_date(ctx.when("past"), "season"), "DATE")


@slot("year")
def s_year(ctx: NoteContext, arg: str) -> None:
    """A year (`2067` or `'67`)."""
    style = "year" if ctx.chance(0.8) else "year_short"
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "past"), style), "DATE")


@slot("holiday")
def s_holiday(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when("past"), "holiday"), "DATE")


@slot("month")
def s_month(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "past"), "month"), "DATE")


@slot("weekday")
def s_weekday(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "onset"), "weekday"), "DATE")


RANGE_STYLES = (
    "md",
    "md",
    "md0",
    "Month_d",
    "my",
    "my_short",
    "month_year",
    "mdY",
    "mdY_short",
)
_WITH_YEAR = frozenset(("my", "my_short", "month_year", "mdY", "mdY_short"))


@slot("drange")
def s_drange(ctx: NoteContext, arg: str) -> None:
    """An ordered date range in one format family (`06/12-06/19`, `June
    2067 to March 2068`); `arg` `start-end` names the dates (default
    `past-note`)."""
    first, _, last = (arg or "past-note").partition("-")
    a, b = ctx.when(first), ctx.when(last or "note")
    if a > b:
        a, b = b, a
    style = ctx.choice(RANGE_STYLES)
    if a.year != b.year and style not in _WITH_YEAR:
        style = ctx.choice(("my", "month_year", "mdY", "mdY_short"))
    same_month = (a.year, a.month) == (b.year, b.month)
    if same_month and style in ("my", "my_short", "month_year"):
        style = "md"
    if style in ("mdY", "mdY_short"):
        sa, sb = ctx.v.date(a, style), ctx.v.date(b, style)
    else:
        sa, sb = ctx.v.partial_date(a, style), ctx.v.partial_date(b, style)
    if ctx.chance(0.4):
        ctx.add("from ")
        sep = ctx.choice((" to ", " - ", " until "))
    else:
        sep = ctx.choice(("-", " - ", " to "))
    ctx.phi(sa, "DATE")
    ctx.add(sep)
    ctx.phi(sb, "DATE")


@slot("time")
def s_time(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(clinical("times")))
