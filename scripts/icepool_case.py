"""Times one notation's exact distribution in icepool (the Python reference), in a process of
its own so that icepool's caches start cold, as dicetable's `bench` does for each case.

Usage: python3 scripts/icepool_case.py NOTATION  ->  prints the seconds it took.
Open-ended dice explode as deep as dicetable's (the depth after which the mass cut off is below
1e-14): icepool's `explode(depth=D - 1)`; icepool keeps the last copy's top face instead of
cutting it, which changes no timing that matters.
"""

import math
import sys
import time

import icepool


def depth(sides: int) -> int:
    """dicetable's open-ended depth: copies thrown at most."""
    return max(1, math.ceil(math.log(1e-14) / math.log(1 / sides)))


def die(sides: int, open_ended: bool):
    d = icepool.d(sides)
    return d.explode(depth=depth(sides) - 1) if open_ended else d


CASES = {
    "12d6": lambda: 12 @ die(6, False),
    "5d10!kh3": lambda: die(10, True).pool(5).highest(3).sum(),
    "10d6kh5": lambda: die(6, False).pool(10).highest(5).sum(),
    "10d6-10d6": lambda: 10 @ die(6, False) - 10 @ die(6, False),
    "100d100": lambda: 100 @ die(100, False),
    "50d10!": lambda: 50 @ die(10, True),
    "10d100!": lambda: 10 @ die(100, True),
    "100d20!": lambda: 100 @ die(20, True),
    "50d100+50d10": lambda: 50 @ die(100, False) + 50 @ die(10, False),
    "20d20!kh10": lambda: die(20, True).pool(20).highest(10).sum(),
}

if __name__ == "__main__":
    case = CASES[sys.argv[1]]
    start = time.perf_counter()
    result = case()
    # Force the whole distribution (icepool computes lazily in places).
    _ = result.quantities()
    print(f"{time.perf_counter() - start:.6f}")
