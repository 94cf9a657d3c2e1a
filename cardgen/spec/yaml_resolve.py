"""The YAML 1.2 core schema as cardgen reads it: which tag a plain scalar resolves to, and its value.

These are the rules cardgen has always used (those of ruamel.yaml's round-trip
loader, which read specs before): ``yes``/``on`` and ``1:20`` are text, ``010``
is ten, ``0o17``, ``0x1F``, ``0b101`` and ``1_000`` are numbers.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any, Callable



CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP = (CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp"))
MAP, SEQ, MERGE = CORE + "map", CORE + "seq", CORE + "merge"
SCALAR_ONLY = frozenset({INT, FLOAT, BOOL, NULL, TIMESTAMP, CORE + "binary"})
"""Tags that read a single value: on a list or a mapping they are an error."""
COLLECTION_ONLY = {MAP: "mapping", CORE + "set": "mapping", SEQ: "sequence", CORE + "omap": "sequence", CORE + "pairs": "sequence"}
"""Tags that read a collection, and the kind they need: on a single value they are an error."""

_PLAIN_RULES: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _tag, _pattern, _first in (
    (BOOL, r"true|True|TRUE|false|False|FALSE", "tTfF"),
    (
        FLOAT,
        (
            r"[-+]?(?:[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+|\.[0-9_]+(?:[eE][-+][0-9]+)?|\.(?:inf|Inf|INF))"
            r"|\.(?:nan|NaN|NAN)"
        ),
        "-+0123456789.",
    ),
    (INT, r"[-+]?(?:0b[01_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)", "-+0123456789"),
    (MERGE, r"<<", "<"),
    (NULL, r"~|null|Null|NULL|", "~nN"),
    (
        TIMESTAMP,
        (
            r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
        ),
        "0123456789",
    ),
):
    for _char in [*_first, ""] if _tag == NULL else _first:
        _PLAIN_RULES.setdefault(_char, []).append((_tag, re.compile(_pattern)))

_TIMESTAMP_PARTS = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})"
    r"(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]*))?"
    r"(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9]{1,2})(?::(?P<tz_minute>[0-9]{2}))?))?)?"
)
_BOOL_WORDS = {"true": True, "false": False, "yes": True, "no": False, "y": True, "n": False, "on": True, "off": False}
"""The words an explicit ``!!bool`` accepts (any case); untagged, only true and false are booleans."""


def plain_tag(value: str) -> str:
    """The YAML 1.2 tag of an untagged plain scalar."""
    for tag, pattern in _PLAIN_RULES.get(value[:1], ()):
        if pattern.fullmatch(value):
            return tag
    return STR


def _to_int(text: str) -> int:
    """A whole number: decimal (leading zeros allowed), ``0b``, ``0o`` or ``0x``, with an optional sign and underscores."""
    digits = text.replace("_", "")
    sign = -1 if digits[:1] == "-" else 1
    if digits[:1] in ("+", "-"):
        digits = digits[1:]
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if digits.startswith(prefix):
            if len(digits) == 2:
                raise ValueError(f"{text!r} has no digits after {prefix}")
            return sign * int(digits[2:], base)
    if not digits:
        raise ValueError(f"{text!r} has no digits")
    return sign * int(digits)


def _to_float(text: str) -> float:
    """A decimal number, or ``.inf`` / ``.nan`` (any case), with an optional sign and underscores."""
    digits = text.replace("_", "").lower()
    sign = -1.0 if digits[:1] == "-" else 1.0
    if digits[:1] in ("+", "-"):
        digits = digits[1:]
    if digits == ".inf":
        return sign * math.inf
    if digits == ".nan":
        return math.nan
    if not digits:
        raise ValueError(f"{text!r} has no digits")
    return sign * float(digits)


def _to_bool(text: str) -> bool:
    """A boolean from one of :data:`_BOOL_WORDS`."""
    try:
        return _BOOL_WORDS[text.lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not true or false") from None


def _to_timestamp(text: str) -> _dt.date:
    """A date, or a date and time (with its zone when one is written); fractions beyond microseconds are rounded."""
    match = _TIMESTAMP_PARTS.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD) or a date and time")
    part = match.groupdict()
    day = _dt.date(int(part["year"]), int(part["month"]), int(part["day"]))
    if part["hour"] is None:
        return day
    fraction = part["fraction"] or ""
    micro = int(fraction[:6].ljust(6, "0"))
    if len(fraction) > 6 and fraction[6] >= "5":
        micro += 1
    zone: _dt.tzinfo | None = None
    if part["tz_sign"]:
        offset = _dt.timedelta(hours=int(part["tz_hour"]), minutes=int(part["tz_minute"] or 0))
        zone = _dt.timezone(-offset if part["tz_sign"] == "-" else offset)
    elif part["tz"] == "Z":
        zone = _dt.UTC
    moment = _dt.datetime(day.year, day.month, day.day, int(part["hour"]), int(part["minute"]), int(part["second"]), micro % 1_000_000, zone)
    return moment + _dt.timedelta(seconds=1) if micro == 1_000_000 else moment


SCALAR_READERS: dict[str, Callable[[str], Any]] = {
    INT: _to_int,
    FLOAT: _to_float,
    BOOL: _to_bool,
    NULL: lambda text: None,
    TIMESTAMP: _to_timestamp,
}
