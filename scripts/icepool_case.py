"""Times one notation's exact distribution in icepool (the Python reference), in a process of
its own so that icepool's caches start cold, as dicetable's `bench` does for each case.

Usage: python3 scripts/icepool_case.py NOTATION  ->  prints the seconds it took.
Open-ended dice explode as deep as dicetable's (the depth after which the mass cut off is below
1e-14): icepool's `explode(depth=D - 1)`; icepool keeps the last copy's top face instead of
cutting it, which changes no timing that matters.
"""

import math
import re
import sys
import time

import icepool


def depth(sides: int) -> int:
    """dicetable's open-ended depth: copies thrown at most."""
    return max(1, math.ceil(math.log(1e-14) / math.log(1 / sides)))


def die(sides: int, open_ended: bool):
    d = icepool.d(sides)
    return d.explode(depth=depth(sides) - 1) if open_ended else d


def term(text: str):
    """One term: `NdS`, `NdS!`, either with `khK` / `klK`, or a constant."""
    m = re.fullmatch(r"(\d*)d(\d+)(!?)(?:(kh|kl)(\d+))?", text)
    if not m:
        return int(text)
    count = int(m.group(1) or 1)
    d = die(int(m.group(2)), m.group(3) == "!")
    if m.group(4) == "kh":
        return d.pool(count).highest(int(m.group(5))).sum()
    if m.group(4) == "kl":
        return d.pool(count).lowest(int(m.group(5))).sum()
    return count @ d


def distribution(notation: str):
    """A sum of terms, as `dicetable bench` times them (no groups, no comparison)."""
    parts = re.split(r"([+-])", notation.replace(" ", ""))
    total = term(parts[0])
    for sign, text in zip(parts[1::2], parts[2::2]):
        total = total + term(text) if sign == "+" else total - term(text)
    return total


if __name__ == "__main__":
    start = time.perf_counter()
    result = distribution(sys.argv[1])
    # Force the whole distribution (icepool computes lazily in places).
    _ = result.quantities()
    print(f"{time.perf_counter() - start:.6f}")
