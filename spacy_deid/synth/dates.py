"""Date rendering: full dates in many styles, partial and relative dates.

Dates are no partitioned value: calendar dates are shared by every split.
"""

import datetime as dt
from random import Random
from typing import Optional

from ..text.datenames import MONTHS, WEEKDAYS
from .tables import (
    FULL_DATE_STYLES,
    HOLIDAYS,
    MON3,
    MON_ALT,
    PARTIAL_DATE_STYLES,
    SEASONS,
)


def render_date(d: dt.date, r: Random, style: Optional[str] = None) -> str:
    """Render a full calendar date."""
    style = style or r.choice(FULL_DATE_STYLES)
    y, m, day = d.year, d.month, d.day
    if style == "mdY":
        return f"{m:02d}/{day:02d}/{y}"
    if style == "mdY_short":
        return f"{m}/{day}/{y}"
    if style == "mdy":
        return f"{m}/{day}/{y % 100:02d}"
    if style == "mdy0":
        return f"{m:02d}/{day:02d}/{y % 100:02d}"
    if style == "iso":
        return f"{y}-{m:02d}-{day:02d}"
    if style == "mdy_dash":
        return f"{m}-{day}-{y % 100:02d}"
    if style == "mdY_dot":
        return f"{m:02d}.{day:02d}.{y}"
    if style == "Mon_d_Y":
        return f"{MON_ALT[m - 1]} {day}, {y}"
    if style == "Month_d_Y":
        return f"{MONTHS[m - 1]} {day}, {y}"
    if style == "d_Month_Y":
        return f"{day} {MONTHS[m - 1]} {y}"
    if style == "d-Mon-Y":
        return f"{day:02d}-{MON3[m - 1]}-{y}"
    if style == "dMONY":
        return f"{day:02d}{MON3[m - 1].upper()}{y}"
    if style == "dmY_eu":
        return f"{day:02d}/{m:02d}/{y}"
    if style == "Ymd_slash":
        return f"{y}/{m:02d}/{day:02d}"
    if style == "mdY_dash":
        return f"{m:02d}-{day:02d}-{y}"
    if style == "Month_dth_Y":
        return f"{MONTHS[m - 1]} {day}{ordinal(day)}, {y}"
    if style == "the_dth_of":
        return f"the {day}{ordinal(day)} of {MONTHS[m - 1]}, {y}"
    if style == "Mon_d_Y_nocomma":
        return f"{MON_ALT[m - 1]} {day} {y}"
    if style == "Mon_dth":
        return f"{MON_ALT[m - 1]}. {day}{ordinal(day)} {y}"
    return f"{y}{m:02d}{day:02d}"


def render_partial(d: dt.date, r: Random, style: Optional[str] = None) -> str:
    """Render a partial or relative date expression (still a DATE span)."""
    style = style or r.choice(PARTIAL_DATE_STYLES)
    if style == "md":
        return f"{d.month}/{d.day}"
    if style == "Month_d":
        return f"{MONTHS[d.month - 1]} {d.day}"
    if style == "Mon_d":
        return f"{MON_ALT[d.month - 1]}{r.choice(('. ', ' '))}{d.day}"
    if style == "md0":
        return f"{d.month:02d}/{d.day:02d}"
    if style == "Month_dth":
        return f"{r.choice((MONTHS, MON_ALT))[d.month - 1]} {d.day}{ordinal(d.day)}"
    if style == "the_dth":
        return f"the {d.day}{ordinal(d.day)}"
    if style == "weekday":
        return WEEKDAYS[d.weekday()]
    if style == "season":
        return SEASONS[(d.month % 12) // 3 if d.month != 12 else 3]
    if style == "year":
        return str(d.year)
    if style == "year_short":
        return f"'{d.year % 100:02d}"
    if style == "month_year":
        return f"{MONTHS[d.month - 1]} {d.year}"
    if style == "my":
        return f"{d.month}/{d.year}"
    if style == "my_short":
        return f"{d.month:02d}/{d.year % 100:02d}"
    if style == "holiday":
        return r.choice(HOLIDAYS)
    return MONTHS[d.month - 1]


def ordinal(n: int) -> str:
    """English ordinal suffix."""
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
