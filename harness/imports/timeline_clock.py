"""The times an operator writes in a timeline, as logs and people write them:
  ISO 8601 / RFC 3339, with a date, with or without a zone   2026-03-12T03:12:04Z, 2026-03-12 03:12:04.250+01:00
  syslog's, with no year                                       Mar 12 03:12:04
  a time of day, with or without a zone                        03:12, 03:12:04, 03:12:04.250, 03:12:04Z
Each is read into a Moment; `seconds_after` counts from one Moment to another: by the dates where
both have one (a missing zone taken as the other's, a missing year as the other's), else by the
time of day, a time before the death being the next day's."""
import dataclasses
import datetime
import re

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_TIME = r"(\d{1,2}):(\d{2})(?::(\d{2}(?:[.,]\d+)?))?"
_ZONE = r"\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?"
ISO = re.compile(rf"^(\d{{4}})-(\d{{2}})-(\d{{2}})(?:[Tt]|\s+){_TIME}{_ZONE}$", re.IGNORECASE)
SYSLOG = re.compile(rf"^({'|'.join(MONTHS)})[a-z]*\s+(\d{{1,2}})\s+{_TIME}$", re.IGNORECASE)
TIME_OF_DAY = re.compile(rf"^{_TIME}{_ZONE}$", re.IGNORECASE)
FORMATS = "HH:MM[:SS], 2026-03-12T03:12:04Z (ISO 8601) or Mar 12 03:12:04 (syslog)"
YEAR_OF_SYSLOG = 2000            # a leap year: a syslog line of Feb 29 is a date too


@dataclasses.dataclass(frozen=True)
class Moment:
    seconds_of_day: float                  # as written, in its own zone
    date: datetime.date | None = None      # None: a time of day only
    yearless: bool = False                 # syslog's: the year is the other moment's
    utc_offset_s: float | None = None      # None: no zone written


def read(text: object) -> Moment | None:
    """A Moment, or None when the text is none of the FORMATS (or not a real date or time)."""
    text = str(text).strip()
    found = ISO.match(text)
    if found:
        year, month, day = (int(g) for g in found.groups()[:3])
        return _moment(found.groups()[3:6], found.group(7), (year, month, day))
    found = SYSLOG.match(text)
    if found:
        month = MONTHS.index(found.group(1)[:3].lower()) + 1
        return _moment(found.groups()[2:5], None, (YEAR_OF_SYSLOG, month, int(found.group(2))), yearless=True)
    found = TIME_OF_DAY.match(text)
    return _moment(found.groups()[:3], found.group(4), None) if found else None


def _moment(clock: tuple[str, ...], zone: str | None, ymd: tuple[int, int, int] | None,
            yearless: bool = False) -> Moment | None:
    hours, minutes, seconds = int(clock[0]), int(clock[1]), float((clock[2] or "0").replace(",", "."))
    if hours > 23 or minutes > 59 or seconds >= 60:
        return None
    try:
        date = datetime.date(*ymd) if ymd else None
    except ValueError:
        return None
    try:
        offset = _offset_s(zone)
    except ValueError:
        return None
    return Moment(hours * 3600 + minutes * 60 + seconds, date, yearless, offset)


def _offset_s(zone: str | None) -> float | None:
    """The zone's offset from UTC, s (None: no zone written); ValueError for one past 23:59."""
    if zone is None:
        return None
    if zone.upper() in ("Z", "UTC"):
        return 0.0
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(f"not a UTC offset: {zone}")
    return (1 if zone[0] == "+" else -1) * (hours * 3600 + minutes * 60)


def seconds_after(moment: Moment, death: Moment) -> float:
    """Seconds from death to moment (negative when dated before it)."""
    offset = moment.utc_offset_s if moment.utc_offset_s is not None else death.utc_offset_s
    death_offset = death.utc_offset_s if death.utc_offset_s is not None else offset
    zones = (offset or 0.0) - (death_offset or 0.0)
    if moment.date is None or death.date is None:
        return (moment.seconds_of_day - death.seconds_of_day - zones) % 86_400
    day, death_day = moment.date, death.date
    if moment.yearless != death.yearless:
        day = _with_year(day, death_day.year) if moment.yearless else day
        death_day = _with_year(death_day, day.year) if death.yearless else death_day
    return ((day - death_day).days * 86_400 + moment.seconds_of_day - death.seconds_of_day - zones)


def _with_year(day: datetime.date, year: int) -> datetime.date:
    try:
        return day.replace(year=year)
    except ValueError:                     # Feb 29 in a common year
        return day.replace(year=year, day=28)
