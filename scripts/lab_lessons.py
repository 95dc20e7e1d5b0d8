#!/usr/bin/env python3
"""What the lab's lost games teach: the positions where branan's move lost at least
--min-loss of win chance in a longer search's judgement.

    scripts/lab_lessons.py tests/data/lab/taflzero-1s.jsonl ... \
        --out tests/data/lab/lessons.jsonl [--plies 12] [--time-ms 3000] [--jobs 2]

For every game engine A (branan) lost, the last --plies plies are reviewed with
`branan review --json` at --time-ms a position (from the position --plies before
the end, read with `branan analyze`); each of A's moves whose chance lost (the best
move's win chance less the played move's, both for A) is at least --min-loss
becomes one line of --out:

    {"source": FILE, "game": N, "ply": P, "variant": ID, "position": BEFORE,
     "played": MOVE, "best": MOVE, "loss": 0.31, "time_ms": T}

The run goes on from --out when stopped: a game already reviewed (named in
--out's companion file `<out>.done`) is not reviewed again.

    scripts/lab_lessons.py --avoid tests/data/lab/lessons.jsonl [--time-ms 1000]

asks the engine (`branan analyze`, one thread a position, --jobs at once) for its
move in every lesson's position and counts how often it avoids the move that was
played, and how often it plays the better move the review found.
"""

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def branan(bin_path, args, stdin):
    done = subprocess.run(
        [bin_path, *args], input=stdin, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def positions(bin_path, variant, moves, first):
    """The positions after moves[:first], moves[:first + 1], ... moves[:len], read
    in one `branan analyze` run (one line each, depth 1)."""
    lines = "".join(
        json.dumps({"variant": variant, "moves": moves[:n], "depth": 1}) + "\n"
        for n in range(first, len(moves) + 1)
    )
    code, out, err = branan(bin_path, ["analyze", "--progress-every", "0"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    if code != 0 or len(answers) != len(moves) + 1 - first:
        raise RuntimeError(f"the positions of the game: {err.strip()}")
    return [a["position"] for a in answers]


def lessons_of(bin_path, source, game, plies, time_ms, min_loss):
    moves = game["moves"]
    first = max(len(game.get("opening", [])), len(moves) - plies)
    variant = game["variant"]
    # seen[k]: the position before ply first + k + 1.
    seen = positions(bin_path, variant, moves, first)
    a_side = game["a_side"]
    code, out, err = branan(
        bin_path,
        ["review", "--variant", variant, "--position", seen[0], "--time-ms", str(time_ms), "--json"],
        " ".join(moves[first:]) + "\n",
    )
    if code != 0:
        raise RuntimeError(f"game {game['game']}: branan review failed: {err.strip()}")
    found = []
    for line in out.splitlines():
        ply = json.loads(line)
        if "ply" not in ply or ply["side"] != a_side:
            continue
        loss = ply["best"]["win_chance"] - ply["played"]["win_chance"]
        if loss >= min_loss:
            found.append(
                {
                    "source": source,
                    "game": game["game"],
                    "ply": first + ply["ply"],
                    "variant": variant,
                    "position": seen[ply["ply"] - 1],
                    "played": ply["move"],
                    "best": ply["best_move"],
                    "loss": round(loss, 3),
                    "time_ms": time_ms,
                }
            )
    return found


def avoid(args):
    with open(args.avoid) as f:
        lessons = [json.loads(line) for line in f if line.strip()]
    lines = "".join(
        json.dumps(
            {
                "id": i,
                "variant": l["variant"],
                "position": l["position"],
                "time_ms": args.time_ms,
                "threads": 1,
            }
        )
        + "\n"
        for i, l in enumerate(lessons)
    )
    code, out, err = branan(
        args.bin, ["analyze", "--threads", str(args.jobs), "--progress-every", "0"], lines
    )
    answers = [json.loads(line) for line in out.splitlines()]
    if code != 0 or len(answers) != len(lessons):
        sys.exit(f"lab_lessons: branan analyze failed ({code}): {err.strip()}")
    avoided = sum(a["best_move"] != l["played"] for a, l in zip(answers, lessons))
    better = sum(a["best_move"] == l["best"] for a, l in zip(answers, lessons))
    print(
        f"{len(lessons)} lessons at {args.time_ms} ms: the played move avoided in {avoided} "
        f"({100 * avoided / max(1, len(lessons)):.0f}%), the review's better move chosen in "
        f"{better} ({100 * better / max(1, len(lessons)):.0f}%)"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--avoid", metavar="LESSONS")
    ap.add_argument("--bin", default="target/release/branan")
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--time-ms", type=int, default=3000)
    ap.add_argument("--min-loss", type=float, default=0.20)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.avoid:
        avoid(args)
        return
    if not args.games or not args.out:
        ap.error("give the games to learn from and --out (or --avoid LESSONS)")

    done_path = args.out + ".done"
    done = set()
    if os.path.exists(done_path):
        with open(done_path) as f:
            done = {line.strip() for line in f if line.strip()}
    todo = []
    for path in args.games:
        source = os.path.basename(path)
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                key = f"{source}#{game['game']}"
                if game.get("result") == "b" and key not in done:
                    todo.append((source, key, game))
    print(f"lab_lessons: {len(todo)} lost games to review ({len(done)} done before)", file=sys.stderr)

    def one(item):
        source, key, game = item
        return key, lessons_of(args.bin, source, game, args.plies, args.time_ms, args.min_loss)

    found = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool, open(args.out, "a") as out, open(
        done_path, "a"
    ) as done_file:
        for n, (key, lessons) in enumerate(pool.map(one, todo), 1):
            for lesson in lessons:
                out.write(json.dumps(lesson) + "\n")
            out.flush()
            done_file.write(key + "\n")
            done_file.flush()
            found += len(lessons)
            print(f"lab_lessons: {n}/{len(todo)} {key}: {len(lessons)} lessons", file=sys.stderr)
    print(f"lab_lessons: {found} lessons from {len(todo)} games", file=sys.stderr)


if __name__ == "__main__":
    main()
