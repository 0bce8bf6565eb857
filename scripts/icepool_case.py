"""Times one notation's exact distribution in icepool (the Python reference), in a process of
its own so that icepool's caches start cold, as dicetable's `bench` does for each case.

Usage: python3 scripts/icepool_case.py NOTATION  ->  prints the seconds it took, or exits 3
when icepool has no way to write the notation (a keep among exploding dice, each explosion a
die of its own: a pool whose size the dice decide).
Roll20's forms come from `icepool_notation.py`; other notations are sums of `NdS`, `NdS!`
(summed, so each explosion adds), `NdS!!`, keeps (`khK`, `klK`) and constants. Open-ended dice are
followed as deep as dicetable's (the depth after which the mass cut off is below 1e-14).
"""

import re
import sys
import time
from fractions import Fraction

import icepool

import icepool_notation

icepool_notation.CUT_OFF = 1e-14


class NoWay(Exception):
    """icepool cannot write this notation."""


def term(text: str):
    """One term: `NdS`, `NdS!` (summed), `NdS!!` (compounding), either with `khK` / `klK`
    (not `!`: its explosions are dice of their own), or a constant."""
    m = re.fullmatch(r"(\d*)d(\d+)(!{0,2})(?:(kh|kl)(\d+))?", text)
    if not m:
        if not re.fullmatch(r"\d+", text):
            raise NoWay(text)
        return int(text)
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    d = icepool.d(sides)
    if m.group(3):
        if m.group(3) == "!" and m.group(4):
            raise NoWay(text)
        d = d.explode(depth=icepool_notation.deep(Fraction(1, sides)))
    if m.group(4) == "kh":
        return d.pool(count).highest(int(m.group(5))).sum()
    if m.group(4) == "kl":
        return d.pool(count).lowest(int(m.group(5))).sum()
    return count @ d


def distribution(notation: str):
    """The notation's distribution: a case of `icepool_notation`, or a sum of terms."""
    build = icepool_notation.case(notation)
    if build is not None:
        return build()
    parts = re.split(r"([+-])", notation.replace(" ", ""))
    total = term(parts[0])
    for sign, text in zip(parts[1::2], parts[2::2]):
        total = total + term(text) if sign == "+" else total - term(text)
    return total


if __name__ == "__main__":
    start = time.perf_counter()
    try:
        result = distribution(sys.argv[1])
    except NoWay:
        sys.exit(3)
    # Force the whole distribution (icepool computes lazily in places).
    _ = result.quantities()
    print(f"{time.perf_counter() - start:.6f}")
