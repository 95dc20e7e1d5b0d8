#!/usr/bin/env python3
"""How stable one short analysis is: on mid-game positions of every preset, the
share where the best move of a short search equals the best move of a long one.

The positions are openings of many plies made by `branan openings` with a seed
of their own (not the tests' positions). Each time limit runs in a process of
its own, so the long search does not start from the short one's table.

    scripts/stability.py [--bin target/release/branan] [--count 20] [--plies 16]
                         [--short-ms 1000] [--long-ms 8000] [--threads 1]
                         [--search-threads 1] [--within 1.0]
                         [--variants brandubh,tablut,...] [--show]

With --show, each position where the moves differ gets a line of its own: its
moves from the start, both searches' moves and depths, and the long search's
score after the short move.

Beside the share of same moves, each line gives the share where the short move
is the long one's or gives away at most --within points of win chance in the
long search's judgement: two moves of nearly the same value are a miss for the
first share and not for the second.

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


def analyses(args, variant, lines, time_ms):
    requests = "".join(
        json.dumps({"variant": variant, "moves": moves, "time_ms": time_ms}) + "\n"
        for moves in lines)
    out = subprocess.run(
        [args.bin, "analyze", "--threads", str(args.threads),
         "--threads-per-line", str(args.search_threads), "--max-time-ms", str(time_ms),
         "--progress-every", "0"],
        input=requests, capture_output=True, text=True)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    if len(answers) != len(lines):
        sys.stderr.write(out.stderr)
        sys.exit(2)
    return answers


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="target/release/branan")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--plies", type=int, default=16)
    p.add_argument("--seed", type=int, default=2027)
    p.add_argument("--short-ms", type=int, default=1000)
    p.add_argument("--long-ms", type=int, default=8000)
    p.add_argument("--threads", type=int, default=1, help="positions analysed at once")
    p.add_argument("--search-threads", type=int, default=1,
                   help="search threads of each analysis (at most one per core)")
    p.add_argument("--within", type=float, default=1.0,
                   help="win-chance points a differing short move may give away and still count")
    p.add_argument("--variants", default=",".join(PRESETS))
    p.add_argument("--show", action="store_true", help="a line for each position that differs")
    args = p.parse_args()
    same_all = close_all = total_all = 0
    losses_all = []
    for variant in args.variants.split(","):
        lines = openings(args, variant)
        short = analyses(args, variant, lines, args.short_ms)
        long = analyses(args, variant, lines, args.long_ms)
        differ = [i for i, (s, l) in enumerate(zip(short, long))
                  if s.get("best_move") != l.get("best_move")]
        after = analyses(args, variant, [lines[i] + [short[i]["best_move"]] for i in differ],
                         args.long_ms)
        # Win chances are the side to move's; after the short move the other side moves.
        losses = [100 * (long[i]["win_chance"] - (1 - a["win_chance"]))
                  for i, a in zip(differ, after)]
        losses_all += losses
        if args.show:
            for i, a, loss in zip(differ, after, losses):
                print(f"  {variant} #{i + 1} after {' '.join(lines[i])}: "
                      f"{args.short_ms} ms {short[i]['best_move']} at depth {short[i]['depth']}, "
                      f"{args.long_ms} ms {long[i]['best_move']} at depth {long[i]['depth']}; "
                      f"after {short[i]['best_move']} {score_text(a['score'])} for the side to move "
                      f"(depth {a['depth']}, pv {' '.join(a['pv'][:5])}): "
                      f"{loss:.1f} points given away", flush=True)
        same = len(lines) - len(differ)
        close = same + sum(1 for loss in losses if loss <= args.within)
        same_all += same
        close_all += close
        total_all += len(lines)
        print(f"{variant}: {share(same, len(lines))}{within(args, close, len(lines))}"
              f"{given_away(losses)}", flush=True)
    print(f"all: {share(same_all, total_all)}{within(args, close_all, total_all)}"
          f"{given_away(losses_all)}")


def share(n, total):
    """`n` of `total` as a fraction and a percentage."""
    return f"{n}/{total} = {100 * n / max(1, total):.0f}%"


def within(args, close, total):
    """The share of same moves or moves that give away at most --within points."""
    unit = "point" if args.within == 1 else "points"
    return f" ({share(close, total)} within {args.within:g} {unit})"


def score_text(score):
    """A score object as text: centipawns or a win or loss in plies."""
    if "cp" in score:
        return f"{score['cp']:+d} cp"
    n = score.get("win", 0)
    return f"a win in {n} plies" if n > 0 else f"a loss in {-n} plies"


def given_away(losses):
    """The win chance the short moves give away where they differ, in points."""
    if not losses:
        return ""
    mean = sum(losses) / len(losses)
    return (f"; where they differ the short move gives away {mean:.1f} points of win"
            f" chance on average, at most {max(losses):.1f}")


if __name__ == "__main__":
    main()
