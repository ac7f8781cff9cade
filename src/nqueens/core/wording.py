"""Counts in words, as every message says them: "1 solution", "2,680 solutions"."""

from __future__ import annotations


def noun_for(number: int, noun: str) -> str:
    """``noun`` as it follows ``number``: in the plural unless the number is one ("branch",
    "branches")."""
    if number == 1:
        return noun
    return f"{noun}es" if noun.endswith(("s", "x", "ch", "sh")) else f"{noun}s"


def counted(number: int, noun: str) -> str:
    """``number`` with thousands separators, and its noun."""
    return f"{number:,} {noun_for(number, noun)}"


def either(words: list[str]) -> str:
    """Words as alternatives in a sentence: ``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def duration(seconds: float) -> str:
    """A rough duration for people: '40 s', '12 min', '3.5 h', '2.7 days', '46 days',
    '2.1 years', '930,473 years'."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 10 * 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    years = seconds / (365.25 * 86400)
    return f"{years:.1f} years" if years < 10 else f"{years:,.0f} years"
