"""English month and weekday names and abbreviations, shared by the rules,
surrogates, generator and `phi_relabel`."""

from typing import Tuple

MONTHS: Tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS: Tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
MONTH_ABBRS: Tuple[str, ...] = (
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov",
    "Dec",
)  # fmt: skip
WEEKDAY_ABBRS: Tuple[str, ...] = (
    "Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun",
)  # fmt: skip
