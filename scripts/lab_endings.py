#!/usr/bin/env python3
"""How the games of `branan match` ended, for engine A as each side.

    scripts/lab_endings.py games.jsonl [more.jsonl ...]

Prints, for A with the attackers and A with the defenders, A's wins, draws and
losses, then one row per way a game ended (the rules' reason, `max_plies`, or
`engine_error`) with A's result in each, and the score of each side and in all.
"""

import collections
import json
import sys


def main(paths):
    games = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}: line {n}: {e}")
    if not games:
        sys.exit("no games")
    table = collections.Counter()
    for g in games:
        table[(g["a_side"], g["reason"], g["result"])] += 1
    reasons = sorted({r for (_, r, _) in table})
    total_points = 0.0
    for side in ("attackers", "defenders"):
        played = [g for g in games if g["a_side"] == side]
        if not played:
            continue
        w = sum(g["result"] == "a" for g in played)
        d = sum(g["result"] == "draw" for g in played)
        l = sum(g["result"] == "b" for g in played)
        points = w + d / 2
        total_points += points
        print(f"A as the {side}: {len(played)} games, +{w} ={d} -{l}, "
              f"score {100 * points / len(played):.1f}%")
        for r in reasons:
            row = [table[(side, r, x)] for x in ("a", "draw", "b")]
            if sum(row):
                print(f"  {r:<22} A wins {row[0]:>3}  draws {row[1]:>3}  A loses {row[2]:>3}")
    print(f"all: {len(games)} games, score {100 * total_points / len(games):.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    main(sys.argv[1:])
