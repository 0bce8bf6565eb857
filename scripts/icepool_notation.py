"""Roll20's dice notation written by hand in icepool (the Python reference), so that dicetable's
exact odds of every form can be checked against an independent implementation.

Each case is a notation and a function building its distribution with icepool's own means
(pools, `reroll`, `explode`, `map`), written from Roll20's Dice Reference, not from dicetable's
code. Used by `scripts/icepool_case.py` (timing) and `scripts/notation-vs-icepool.py` (the
check run by `tests/icepool.rs`).

Open-ended dice (rerolls until, explosions) are followed until the chance of going deeper is
below `CUT_OFF` (`deep`): the mass that leaves out is bounded by `left_out`, so a comparison
allows that much plus the mass dicetable itself reports as cut off.
"""

from fractions import Fraction
import math

import icepool

d = icepool.d

#: The chance of a chain of throws longer than icepool follows (`deep`); `icepool_case.py`
#: sets dicetable's own (1e-14) so that both do the same work when timed.
CUT_OFF = 1e-18


def deep(go_on: Fraction) -> int:
    """Throws after the first an open-ended die is followed: the chance of more is below
    `CUT_OFF`."""
    return max(1, math.ceil(math.log(CUT_OFF) / math.log(go_on)) - 1)


def fate():
    """A Fate die: a d6 marked -, -, blank, blank, +, +."""
    return icepool.Die([-1, -1, 0, 0, 1, 1])


def marked(die, succeed, fail=lambda _: False):
    """A die read as a target number: 1 on a success, -1 on a failure, else 0."""
    return die.map(lambda x: 1 if succeed(x) else (-1 if fail(x) else 0))


def penetrating(sides, depth):
    """Roll20's `!p`: a maximum explodes, and each die after the first counts one less."""
    if depth == 0:
        return d(sides)
    rest = penetrating(sides, depth - 1) - 1
    return d(sides).map(lambda x: x + rest if x == sides else x)


def chain_successes(die, explodes, depth, succeed, fail=lambda _: False):
    """Successes of one exploding die of `{N}dS!…>T`: every die of its chain is read."""
    mark = lambda x: 1 if succeed(x) else (-1 if fail(x) else 0)  # noqa: E731
    if depth == 0:
        return die.map(mark)
    rest = chain_successes(die, explodes, depth - 1, succeed, fail)
    return die.map(lambda x: mark(x) + rest if explodes(x) else mark(x))


def matched_sets(faces, at_least):
    """Roll20's `mt`: how many values at least `at_least` of the dice show."""
    return sum(1 for v in set(faces) if faces.count(v) >= at_least)


def kept(kept_from, read):
    """The dice of a roll, each a die, kept and read by `read(sorted faces)`."""
    return icepool.map(lambda *faces: read(sorted(faces)), *kept_from)


def roll20_round(value: Fraction) -> int:
    """Roll20's `round` (JavaScript's Math.round): halves go up."""
    return math.floor(value + Fraction(1, 2))


#: (notation, builder, chance a die goes on after a throw, or 0 for a closed form).
CASES = [
    # Sums, constants and the shorthand.
    ("2d6+3", lambda: 2 @ d(6) + 3, 0),
    ("d%", lambda: d(100), 0),
    ("2d%-1d10", lambda: 2 @ d(100) - d(10), 0),
    ("2d6[slashing]+1d6[fire]", lambda: 3 @ d(6), 0),
    # Keep and drop.
    ("3d4kh2", lambda: d(4).pool(3).highest(2).sum(), 0),
    ("4d6k3", lambda: d(6).pool(4).highest(3).sum(), 0),
    ("3d4kl1", lambda: d(4).pool(3).lowest(1).sum(), 0),
    ("2d20kl1+5", lambda: d(20).pool(2).lowest(1).sum() + 5, 0),
    ("4d4dl1", lambda: d(4).pool(4).highest(3).sum(), 0),
    ("4d6d1", lambda: d(6).pool(4).highest(3).sum(), 0),
    ("3d4dh1", lambda: d(4).pool(3).lowest(2).sum(), 0),
    # Target numbers: dice counted, failures subtracted.
    ("8d10>7", lambda: 8 @ marked(d(10), lambda x: x >= 7), 0),
    ("5d10<3", lambda: 5 @ marked(d(10), lambda x: x <= 3), 0),
    ("3d6=6", lambda: 3 @ marked(d(6), lambda x: x == 6), 0),
    ("6d6>=5", lambda: 6 @ marked(d(6), lambda x: x >= 5), 0),
    ("20d10>7f1", lambda: 20 @ marked(d(10), lambda x: x >= 7, lambda x: x == 1), 0),
    ("3d6>4f<2", lambda: 3 @ marked(d(6), lambda x: x >= 4, lambda x: x <= 2), 0),
    ("3d4kh2>3", lambda: kept([d(4)] * 3, lambda f: sum(1 for x in f[-2:] if x >= 3)), 0),
    (
        "3d4dl1>2f1",
        lambda: kept([d(4)] * 3, lambda f: sum(1 if x >= 2 else (-1 if x <= 1 else 0) for x in f[1:])),
        0,
    ),
    # Critical marks and sorting change no total.
    ("10d10cs>9", lambda: 10 @ d(10), 0),
    ("3d4cs>3cf2", lambda: 3 @ d(4), 0),
    ("3d4sd", lambda: 3 @ d(4), 0),
    # Rerolls once.
    ("2d4ro1", lambda: 2 @ d(4).reroll([1], depth=1), 0),
    ("3d6ro<2", lambda: 3 @ d(6).reroll([1, 2], depth=1), 0),
    # Fate dice, d3, d2.
    ("4dF", lambda: 4 @ fate(), 0),
    ("4dF+2", lambda: 4 @ fate() + 2, 0),
    ("3d3", lambda: 3 @ d(3), 0),
    ("2d2+1d3", lambda: 2 @ d(2) + d(3), 0),
    # min and max (rpg-dice-roller).
    ("4d4min2", lambda: 4 @ d(4).map(lambda x: max(x, 2)), 0),
    ("3d4max3", lambda: 3 @ d(4).map(lambda x: min(x, 3)), 0),
    # Groups: among totals, among one roll's dice, with successes.
    ("{1d6+1, 1d8}kh1", lambda: icepool.Pool([d(6) + 1, d(8)]).highest(1).sum(), 0),
    ("{1d4, 1d6, 1d8}kh2", lambda: icepool.Pool([d(4), d(6), d(8)]).highest(2).sum(), 0),
    ("{1d4, 1d6, 1d8}dl1>4", lambda: kept([d(4), d(6), d(8)], lambda f: sum(1 for x in f[1:] if x >= 4)), 0),
    ("{2d4+1d6}k2", lambda: icepool.Pool([d(4), d(4), d(6)]).highest(2).sum(), 0),
    ("{4d6+3d8}k4", lambda: icepool.Pool([d(6)] * 4 + [d(8)] * 3).highest(4).sum(), 0),
    ("{2d4+1d6}dh1", lambda: icepool.Pool([d(4), d(4), d(6)]).lowest(2).sum(), 0),
    ("{2d4>3, 1d6}", lambda: 2 @ marked(d(4), lambda x: x >= 3) + d(6), 0),
    # A group of one roll with a target counts each die, the numbers added to it (Roll20:
    # "{3d20+5}>21 - roll 3 d20's, for each roll add 5 and then count a success for each
    # result of 21 or more").
    ("{3d20+5}>21", lambda: 3 @ marked(d(20) + 5, lambda x: x >= 21), 0),
    ("{3d6+1}<3", lambda: 3 @ marked(d(6) + 1, lambda x: x <= 3), 0),
    ("{2d6+1d8-2}>4", lambda: 2 @ marked(d(6) - 2, lambda x: x >= 4) + marked(d(8) - 2, lambda x: x >= 4), 0),
    ("{5d6!!}>8", lambda: 5 @ marked(d(6).explode(depth=deep(Fraction(1, 6))), lambda x: x >= 8), Fraction(1, 6)),
    ("{2d6!}>4", lambda: 2 @ chain_successes(d(6), lambda x: x >= 6, deep(Fraction(1, 6)), lambda x: x >= 4), Fraction(1, 6)),
    # A target no face meets counts 0 (with a note beside the answer).
    ("2d6>8", lambda: 2 @ marked(d(6), lambda x: x >= 8), 0),
    # Several critical markers, the power, counts and sides worked out, no dice.
    ("1d20cs20cs10", lambda: d(20), 0),
    ("1d4**2", lambda: d(4).map(lambda x: x ** 2), 0),
    ("2**1d4", lambda: d(4).map(lambda x: 2 ** x), 0),
    ("(1+1)d6", lambda: 2 @ d(6), 0),
    ("2d(2+4)", lambda: 2 @ d(6), 0),
    ("0d6+1d4", lambda: d(4), 0),
    ("0d6+3", lambda: icepool.Die([3]), 0),
    # Matching: m shows sets of equal dice (the sum is unchanged), mt counts the sets.
    ("3d6m", lambda: 3 @ d(6), 0),
    ("4d6mt", lambda: d(6).pool(4).expand().map(lambda faces: matched_sets(faces, 2)), 0),
    ("5d4mt3", lambda: d(4).pool(5).expand().map(lambda faces: matched_sets(faces, 3)), 0),
    # Math.
    ("2d6*2", lambda: (2 @ d(6)).map(lambda x: x * 2), 0),
    ("floor(3d6/2)", lambda: (3 @ d(6)).map(lambda x: x // 2), 0),
    ("floor(10d6/3)", lambda: (10 @ d(6)).map(lambda x: x // 3), 0),
    ("ceil(2d4/3)", lambda: (2 @ d(4)).map(lambda x: -((-x) // 3)), 0),
    ("round(2d4/3)", lambda: (2 @ d(4)).map(lambda x: roll20_round(Fraction(x, 3))), 0),
    ("round(1d4/2)", lambda: d(4).map(lambda x: roll20_round(Fraction(x, 2))), 0),
    ("1d6%3", lambda: d(6).map(lambda x: x % 3), 0),
    ("abs(1d4-1d6)", lambda: (d(4) - d(6)).map(abs), 0),
    ("(1d4+1)*1d3", lambda: icepool.map(lambda a, b: (a + 1) * b, d(4), d(3)), 0),
    ("-1d4+floor(1d6/4)", lambda: icepool.map(lambda a, b: -a + b // 4, d(4), d(6)), 0),
    # A division left unrounded keeps its fraction (Roll20's 5.5).
    ("3d6/2", lambda: (3 @ d(6)).map(lambda x: Fraction(x, 2)), 0),
    ("2d6/4+1", lambda: (2 @ d(6)).map(lambda x: Fraction(x, 4) + 1), 0),
    ("1d6/1d4", lambda: icepool.map(lambda a, b: Fraction(a, b), d(6), d(4)), 0),
    ("1d20/1d20", lambda: icepool.map(lambda a, b: Fraction(a, b), d(20), d(20)), 0),
    # Rerolls until the face no longer matches.
    ("2d4r1", lambda: 2 @ d(4).reroll([1], depth=deep(Fraction(1, 4))), Fraction(1, 4)),
    ("10d6r<2", lambda: 10 @ d(6).reroll([1, 2], depth=deep(Fraction(1, 3))), Fraction(1, 3)),
    # Exploding dice, summed: each explosion a die of its own, adding up.
    ("2d4!", lambda: 2 @ d(4).explode(depth=deep(Fraction(1, 4))), Fraction(1, 4)),
    ("4d6!", lambda: 4 @ d(6).explode(depth=deep(Fraction(1, 6))), Fraction(1, 6)),
    ("5d10!>8", lambda: 5 @ d(10).explode([8, 9, 10], depth=deep(Fraction(3, 10))), Fraction(3, 10)),
    ("2d4!<1", lambda: 2 @ d(4).explode([1], depth=deep(Fraction(1, 4))), Fraction(1, 4)),
    ("1d20+2d6!", lambda: d(20) + 2 @ d(6).explode(depth=deep(Fraction(1, 6))), Fraction(1, 6)),
    # Exploding dice read as successes: every die of the chain counts.
    ("3d4!>3>3", lambda: 3 @ chain_successes(d(4), lambda x: x >= 3, deep(Fraction(1, 2)), lambda x: x >= 3), Fraction(1, 2)),
    (
        "6d10!>9>7f1",
        lambda: 6 @ chain_successes(d(10), lambda x: x >= 9, deep(Fraction(1, 5)), lambda x: x >= 7, lambda x: x == 1),
        Fraction(1, 5),
    ),
    # Compounding: one die holding its throws; kept as one.
    ("4d6!!", lambda: 4 @ d(6).explode(depth=deep(Fraction(1, 6))), Fraction(1, 6)),
    ("2d4!!>3kh1", lambda: d(4).explode([3, 4], depth=deep(Fraction(1, 2))).pool(2).highest(1).sum(), Fraction(1, 2)),
    ("10d10!!kh5", lambda: d(10).explode(depth=deep(Fraction(1, 10))).pool(10).highest(5).sum(), Fraction(1, 10)),
    # Penetrating: each throw after an explosion counts one less. (Kept, as `!` dice, each
    # throw is a die of its own among the kept: icepool has no pool of a size the dice decide,
    # so those keeps are checked against every way the dice can fall in the unit tests.)
    ("3d6!p", lambda: 3 @ penetrating(6, deep(Fraction(1, 6))), Fraction(1, 6)),
    # An exploding Fate die goes on on a +.
    ("2dF!", lambda: 2 @ fate().explode([1], depth=deep(Fraction(1, 3))), Fraction(1, 3)),
    # The dice of other sizes (issue #68), each alone: a fair die of that size, whatever its
    # solid (a d7 is a 14-kite trapezohedron marked twice, a d19 a d20 thrown again on 20).
    *[(f"1d{n}", (lambda n=n: d(n)), 0) for n in (5, 9, 11, 13, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30)],
    ("3d7", lambda: 3 @ d(7), 0),
    ("2d14", lambda: 2 @ d(14), 0),
    # ... and with every kind of modifier.
    ("3d7!", lambda: 3 @ d(7).explode(depth=deep(Fraction(1, 7))), Fraction(1, 7)),
    ("2d17!", lambda: 2 @ d(17).explode(depth=deep(Fraction(1, 17))), Fraction(1, 17)),
    ("2d5!!", lambda: 2 @ d(5).explode(depth=deep(Fraction(1, 5))), Fraction(1, 5)),
    ("2d14r1", lambda: 2 @ d(14).reroll([1], depth=deep(Fraction(1, 14))), Fraction(1, 14)),
    ("1d19ro<2", lambda: d(19).reroll([1, 2], depth=1), 0),
    ("4d16kh3", lambda: d(16).pool(4).highest(3).sum(), 0),
    ("3d24dl1", lambda: d(24).pool(3).highest(2).sum(), 0),
    ("3d29kl1", lambda: d(29).pool(3).lowest(1).sum(), 0),
    ("6d13>10f1", lambda: 6 @ marked(d(13), lambda x: x >= 10, lambda x: x == 1), 0),
    ("8d9>7", lambda: 8 @ marked(d(9), lambda x: x >= 7), 0),
    ("2d30cs>29cf1", lambda: 2 @ d(30), 0),
    ("5d7mt", lambda: d(7).pool(5).expand().map(lambda faces: matched_sets(faces, 2)), 0),
    ("3d11m", lambda: 3 @ d(11), 0),
    ("{1d30+2, 1d24}kh1", lambda: icepool.Pool([d(30) + 2, d(24)]).highest(1).sum(), 0),
    ("{3d21}>15", lambda: 3 @ marked(d(21), lambda x: x >= 15), 0),
]


#: Checks: a total compared, Roll20's way (`{…,0d0}>T`: the roll of nothing never counts) or a
#: group of one die, is its total, passed or failed: (notation, the total's builder, whether a
#: total passes).
CHECKS = [
    ("{3d4+2,0d0}>9", lambda: 3 @ d(4) + 2, lambda total: total >= 9),
    ("{1d20+5}>15", lambda: d(20) + 5, lambda total: total >= 15),
    ("{1d12}<5", lambda: d(12), lambda total: total <= 5),
    ("{2d20kh1+3,0d0}>=15", lambda: d(20).pool(2).highest(1).sum() + 3, lambda total: total >= 15),
    ("{4dF+1,0d0}>1", lambda: 4 @ fate() + 1, lambda total: total >= 1),
]


def left_out(go_on: Fraction, dice: int = 100) -> float:
    """A bound on the mass `deep` leaves out, for up to `dice` open-ended dice."""
    return float(dice * go_on ** (deep(go_on) + 1)) if go_on else 0.0


def case(notation: str):
    """The builder of a notation, or None when it is not one of the cases."""
    for text, build, _ in CASES:
        if text == notation:
            return build
    return None
