"""Numbered circles: ① … ㊿, then (51), (52), …"""

from __future__ import annotations


def circle(number: int) -> str:
    """The circled digit for `number` (1-based); plain "(n)" past 50."""
    if 1 <= number <= 20:
        return chr(0x2460 + number - 1)
    if 21 <= number <= 35:
        return chr(0x3251 + number - 21)
    if 36 <= number <= 50:
        return chr(0x32B1 + number - 36)
    return f"({number})"
