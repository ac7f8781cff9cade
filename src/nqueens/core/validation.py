"""Checks of the API's arguments: whatever a caller passes, a clear InputError, never a raw one.

The command line parses text into these types first; Python callers can pass anything, so each
check names the argument and what it got, and keeps huge numbers short in its message.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from nqueens.core.errors import InputError, Square

NO_TIME_LIMIT_BEYOND = 1e9
"""Seconds (about 32 years) beyond which a time limit means no limit: solvers take milliseconds
as 32-bit numbers, and no search here runs that long."""


MAX_DIGITS = 30
"""Longer numbers are read by their length alone: Python refuses to read thousands of digits,
and nothing nqueens takes is that large."""


def read_whole(text: str) -> int:
    """A whole number from ASCII digits; one of more than MAX_DIGITS digits is a
    ``HugeNumber``, past every bound, said by its length, and read in time in proportion
    to its digits (Python's own reading and printing of such a number take quadratic time, and
    refuse beyond 4,300 digits)."""
    if len(text) <= MAX_DIGITS:  # no more digits than that: nothing to shorten
        return int(text)
    digits = len(text.lstrip("+-").lstrip("0"))
    if digits > MAX_DIGITS:
        return HugeNumber(digits, negative=text.startswith("-"))
    return int(text)


class HugeNumber(int):
    """A whole number written with more than MAX_DIGITS digits: its value is 10 ** MAX_DIGITS
    (or its negative), beyond anything nqueens takes, so that every bound refuses it; printed,
    in any format, it is "a number of 5,000 digits", so that every message can name it."""

    digits: int

    def __new__(cls, digits: int, *, negative: bool = False) -> HugeNumber:
        number = super().__new__(cls, -(10**MAX_DIGITS) if negative else 10**MAX_DIGITS)
        number.digits = digits
        return number

    def __str__(self) -> str:
        return f"{'minus ' if self < 0 else ''}a number of {self.digits:,} digits"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return str(self)

    def __add__(self, other: int) -> int:
        """Moved by a small amount (a 1-based square made 0-based), it stays itself."""
        if isinstance(other, int) and other.bit_length() <= 64:
            return self
        return int(self) + other

    __radd__ = __add__

    def __sub__(self, other: int) -> int:
        return self + (-other)


def shown(value: object) -> str:
    """``value`` for a message, with a huge number said by its size instead of in full."""
    if isinstance(value, HugeNumber):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        try:
            return f"a number of {len(str(abs(value))):,} digits"
        except ValueError:  # too long for str() (Python 3.11 refuses beyond 4,300 digits)
            return f"a number of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def flag(value: object, what: str) -> bool:
    """``value`` as True or False, and nothing else: a string such as ``"False"`` is truthy,
    and would turn on what it meant to turn off."""
    if not isinstance(value, bool):
        raise InputError(f"{what} must be True or False, not {shown(value)}")
    return value


def whole_number(value: object, what: str, *, minimum: int, maximum: int | None = None) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum`` (True and 2.0 are not whole
    numbers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {shown(value)}")
    if value < minimum:
        raise InputError(f"{what} must be at least {minimum}, not {shown(value)}")
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {maximum:,}, not {shown(value)}")
    return value


def seconds(value: object, what: str = "the time limit") -> float | None:
    """A time limit in seconds: positive, not NaN; infinite or beyond a billion seconds is none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{what} must be a number of seconds, not {shown(value)}")
    if (isinstance(value, float) and math.isnan(value)) or value <= 0:  # an int may pass 1e308
        raise InputError(f"{what} must be a positive number of seconds, not {shown(value)}")
    return None if value > NO_TIME_LIMIT_BEYOND else float(value)


def tuples_of(value: object, not_a_list: str) -> Iterator[tuple[object, tuple[Any, ...]]]:
    """Each item of the iterable ``value`` with its items as a tuple (empty for an item that is
    not iterable), one at a time; InputError ``not_a_list`` when ``value`` is not iterable."""
    try:
        items = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise InputError(f"{not_a_list}, not {shown(value)}") from None
    for item in items:
        try:
            yield item, tuple(item)
        except TypeError:
            yield item, ()


def squares(value: object, what: str) -> tuple[Square, ...]:
    """``value`` as 0-based ``(row, col)`` squares: any iterable of pairs of whole numbers."""
    result = []
    for item, pair in tuples_of(value, f"{what} must be (row, col) pairs"):
        if len(pair) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in pair):
            raise InputError(f"{what} must be (row, col) pairs of whole numbers, not {shown(item)}")
        result.append((pair[0], pair[1]))
    return tuple(result)


def text(value: object, what: str) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string, not {shown(value)}")
    return value


def path(value: object, what: str) -> Path:
    """``value`` as a path, if it is a string or an ``os.PathLike`` of one."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InputError(f"{what} must be a path (a string or a pathlib.Path), not {shown(value)}")
    if not value.strip():
        raise InputError(f"{what} must name a file, not {shown(value)}")
    return Path(value)


def callback(value: object, name: str) -> Callable[..., Any] | None:
    """A callback argument (``on_plan``, ``on_progress``, ``on_estimate``): None or something
    to call."""
    if value is not None and not callable(value):
        raise InputError(f"{name} must be a function or None, not {shown(value)}")
    return value
