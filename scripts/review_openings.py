#!/usr/bin/env python3
"""Reviews every opening of a preset's book (openings/<id>.txt) with `branan review`
and counts the classes of their moves. The openings are random moves kept when the
position after them is balanced, so the count of `mistake` and `blunder` says how
harsh the review is on moves that do not decide a game.

    scripts/review_openings.py brandubh                    # 200 ms a position
    scripts/review_openings.py tablut --depth 5 --bin target/release/branan

Prints the count of each class, and `mistake+blunder N / MOVES`. With `--also-after`
it also counts the classes the same plies would get from the best line's value
against the value after the move (the search of the next position), recomputed
from the same answers with the same thresholds (from win chances rounded to three
decimals).
"""
import argparse
import collections
import json
import pathlib
import subprocess

CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder", "missed_win", "forced"]


def wins(score):
    return score.get("win", 0) > 0


def loses(score):
    return score.get("win", 0) < 0


def class_from_after(p):
    """The class of a ply judged on `best` against `after`."""
    if p["legal_moves"] <= 1:
        return "forced"
    if p["best_move"] == p["move"]:
        return "best"
    best, after = p["best"], p["after"]
    drop = max(0.0, best["win_chance"] - after["win_chance"])
    if wins(best["score"]) and not wins(after["score"]):
        return "missed_win"
    if (loses(after["score"]) and not loses(best["score"])) or drop >= 0.15:
        return "blunder"
    if drop >= 0.10:
        return "mistake"
    if drop >= 0.05:
        return "inaccuracy"
    return "good"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--time-ms", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--bin", default="target/release/branan")
    ap.add_argument("--also-after", action="store_true")
    a = ap.parse_args()
    limit = ["--depth", str(a.depth)] if a.depth else ["--time-ms", str(a.time_ms or 200)]
    if a.depth and a.time_ms:
        limit += ["--time-ms", str(a.time_ms)]
    book = pathlib.Path(__file__).resolve().parent.parent / "openings" / f"{a.variant}.txt"
    counts, after_counts = collections.Counter(), collections.Counter()
    for line in book.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        out = subprocess.run(
            [a.bin, "review", "--variant", a.variant, *limit, "--json"],
            input=line, capture_output=True, text=True, check=True,
        ).stdout
        for row in out.splitlines():
            p = json.loads(row)
            if "ply" in p:
                counts[p["class"]] += 1
                if "played" in p or a.also_after:
                    after_counts[class_from_after(p)] += 1
    total = sum(counts.values())

    def show(title, c):
        print(title + ": " + ", ".join(f"{k} {c[k]}" for k in CLASSES))
        print(f"  mistake+blunder {c['mistake'] + c['blunder']} / {total}")

    show(f"{a.variant} {' '.join(limit)}", counts)
    if a.also_after:
        show("  the same plies judged on the value after the move", after_counts)


if __name__ == "__main__":
    main()
