#!/usr/bin/env python3
"""How stable one short analysis is: on mid-game positions of every preset, the
share where the best move of a short search equals the best move of a long one.

The positions are openings of many plies made by `branan openings` with a seed
of their own (not the tests' positions). Each time limit runs in a process of
its own, so the long search does not start from the short one's table.

    scripts/stability.py [--bin target/release/branan] [--count 20] [--plies 16]
                         [--short-ms 1000] [--long-ms 8000] [--threads 1]
                         [--variants brandubh,tablut,...]

Prints one line per preset and the total; exits 2 when branan fails.
"""

import argparse
import json
import subprocess
import sys

PRESETS = [
    "brandubh",
    "brandubh-classic",
    "tablut",
    "tablut-linnaeus",
    "tawlbwrdd",
    "copenhagen",
    "fetlar",
]


def openings(args, variant):
    out = subprocess.run(
        [args.bin, "openings", "--variant", variant, "--count", str(args.count),
         "--plies", str(args.plies), "--seed", str(args.seed), "--max-cp", "400"],
        check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line and not line.startswith("#")]


def best_moves(args, variant, lines, time_ms):
    requests = "".join(
        json.dumps({"variant": variant, "moves": moves, "time_ms": time_ms}) + "\n"
        for moves in lines)
    out = subprocess.run(
        [args.bin, "analyze", "--threads", str(args.threads), "--max-time-ms", str(time_ms),
         "--progress-every", "0"],
        input=requests, capture_output=True, text=True)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    if len(answers) != len(lines):
        sys.stderr.write(out.stderr)
        sys.exit(2)
    return [a.get("best_move") for a in answers]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="target/release/branan")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--plies", type=int, default=16)
    p.add_argument("--seed", type=int, default=2027)
    p.add_argument("--short-ms", type=int, default=1000)
    p.add_argument("--long-ms", type=int, default=8000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--variants", default=",".join(PRESETS))
    args = p.parse_args()
    same_all = total_all = 0
    for variant in args.variants.split(","):
        lines = openings(args, variant)
        short = best_moves(args, variant, lines, args.short_ms)
        long = best_moves(args, variant, lines, args.long_ms)
        same = sum(1 for s, l in zip(short, long) if s == l)
        same_all += same
        total_all += len(lines)
        print(f"{variant}: {same}/{len(lines)} = {100 * same / max(1, len(lines)):.0f}%", flush=True)
    print(f"all: {same_all}/{total_all} = {100 * same_all / max(1, total_all):.0f}%")


if __name__ == "__main__":
    main()
