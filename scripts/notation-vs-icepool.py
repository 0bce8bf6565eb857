"""dicetable's exact odds of Roll20's notation against icepool's, case by case.

Usage: python3 scripts/notation-vs-icepool.py [--json] [--bin PATH]
Runs `dicetable odds NOTATION --json` for every case of `icepool_notation.py` and compares
each outcome's chance with icepool's: exactly (as fractions) for closed forms; for open-ended
dice within the mass each side leaves out (dicetable's reported cut-off plus icepool's depth
bound). Prints a Markdown table, or JSON with `--json`; exits 1 when any case disagrees.
"""

from fractions import Fraction
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import icepool  # noqa: E402
import icepool_notation as cases  # noqa: E402


def dicetable(binary: str, notation: str) -> dict:
    """dicetable's answer for a notation: `odds --json`, parsed."""
    done = subprocess.run([binary, "odds", "--json", "--", notation], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{notation}: dicetable odds failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def theirs(die) -> dict:
    """icepool's chances, outcome to fraction."""
    den = die.denominator()
    return {Fraction(outcome): Fraction(q, den) for outcome, q in die.items() if q}


def compare(notation: str, die, go_on: Fraction, answer: dict) -> dict:
    """One case's verdict: the largest difference of any outcome's chance, and what is allowed."""
    # A fraction's value is exact beside the number a chart reads.
    ours = {Fraction(row.get("exact_value", row["value"])): Fraction(row["exact"]) for row in answer["distribution"]}
    reference = theirs(die)
    largest = max(abs(ours.get(v, Fraction(0)) - reference.get(v, Fraction(0))) for v in set(ours) | set(reference))
    allowed = Fraction(answer["truncated"]["exact"]) + Fraction(cases.left_out(go_on)) if go_on else Fraction(0)
    return {
        "notation": notation,
        "outcomes": len(reference),
        "exact": not go_on,
        "largest_difference": float(largest),
        "allowed": float(allowed),
        "agrees": largest <= allowed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--bin", default=os.environ.get("DICETABLE_BIN", "target/release/dicetable"))
    args = parser.parse_args()
    rows = []
    for notation, build, go_on in cases.CASES:
        rows.append(compare(notation, build(), go_on, dicetable(args.bin, notation)))
    for notation, build, passes in cases.CHECKS:
        answer = dicetable(args.bin, notation)
        total = build()
        row = compare(notation, total, Fraction(0), answer)
        chance = sum((p for v, p in theirs(total).items() if passes(v)), Fraction(0))
        row["chance_to_pass"] = str(chance)
        row["agrees"] = row["agrees"] and Fraction(answer.get("exact_success", "-1")) == chance
        rows.append(row)
    if args.json:
        print(json.dumps({"icepool": icepool.__version__, "cases": rows}, indent=2))
    else:
        print(f"icepool {icepool.__version__}: {sum(r['agrees'] for r in rows)} of {len(rows)} cases agree")
        print()
        print("| notation | outcomes | compared | largest difference | agrees |")
        print("|---|---|---|---|---|")
        for r in rows:
            how = "exactly" if r["exact"] else f"within {r['allowed']:.1e}"
            print(f"| `{r['notation']}` | {r['outcomes']} | {how} | {r['largest_difference']:.1e} | {'yes' if r['agrees'] else '**no**'} |")
    return 0 if all(r["agrees"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
