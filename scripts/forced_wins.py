#!/usr/bin/env python3
"""A set of forced wins taken from self-play games, and how much of it an
analysis proves in a given time.

    scripts/forced_wins.py make GAMES.jsonl [more.jsonl ...] --out wins.jsonl \
        [--per-preset 300] [--time-ms 8000] [--seed 1]
    scripts/forced_wins.py measure wins.jsonl [--time-ms 1000] [--sample N]

`make` reads games written by `branan match` and takes, from each game won by a
rule of the board (the king's escape or capture, encirclement, a fort, the
loser's last move or last attacker taken), the positions 5 to 25 plies before
its end with the winner to move, nearest first until one is not proved (games
repeated move for move are read once). Each is analysed for `--time-ms` on one
thread and kept when the answer is a proved win (`proof`) of 5 to 25 plies whose proof
walks: the loser plays a random reply at each of its moves but the last and
every legal reply at its last, the winner the move the service answers (2 s),
and every line must end in the winner's win within the claimed plies. A walk
that ends otherwise (a false proof) is printed, and so is one where the
service's answer at the winner's turn is no proved win within the plies left (a
win it did not find again); either position is left out. One position a line:
{"variant", "moves", "plies", "proof", "game", "before"}; then a table of how
many wins of each length were kept.

`measure` analyses each position of such a file (or the first `--sample` of
each preset) for `--time-ms` on one thread, streamed, and prints per preset and
per length the share answered as a proved win and the median time at which the
first proved win was reported.

Both start a service (`target/release/branan`, built by `cargo build
--release`, on a free port) unless `--server URL` names one. A fresh service
has an empty cache, so that `measure` searches every position.
"""

import argparse
import collections
import json
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

RULE_WINS = {
    "king_escaped",
    "king_captured",
    "encircled",
    "edge_fort",
    "no_legal_moves",
    "attackers_eliminated",
}
BUCKETS = [(5, 9), (11, 15), (17, 25)]


class Service:
    def __init__(self, url, binary):
        self.proc = None
        if url is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            self.proc = subprocess.Popen(
                [binary, "--bind", f"127.0.0.1:{port}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            url = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(url + "/healthz", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                sys.exit(f"the service at {url} did not start")
        self.url = url.rstrip("/")

    def post(self, path, body):
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            sys.exit(f"{path}: {e.code} {e.read().decode(errors='replace')}")

    def analyze(self, variant, moves, time_ms):
        return self.post(
            "/v1/analyze",
            {"variant": variant, "moves": moves, "time_ms": time_ms, "threads": 1},
        )

    def close(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait()


def proved_win(a):
    s = a["score"]
    return a.get("proof") is not None and "win" in s and s["win"] > 0


class Broke(Exception):
    """A walk that ended otherwise than the claim said: a false proof."""


class Unconfirmed(Exception):
    """A walk the service could not go on with: at the winner's turn its answer
    was no proved win within the plies left (it may have missed a win there)."""


def walk(svc, variant, moves, winner, plies, rng):
    """Returns when every line from `moves` walked ends in `winner`'s win within
    `plies`; raises `Broke` or `Unconfirmed` otherwise."""
    st = svc.post("/v1/moves", {"variant": variant, "moves": moves})
    status = st["status"]
    if status["over"]:
        if status["winner"] == winner:
            return
        raise Broke(f"ended {status} after {moves[-6:]}")
    if plies <= 0:
        raise Broke(f"not over within the claimed plies after {moves[-6:]}")
    if st["to_move"] == winner:
        a = svc.analyze(variant, moves, 2000)
        if not proved_win(a) or a["score"]["win"] > plies:
            raise Unconfirmed(
                f"the winner's answer is {a['score']} with {plies} plies left after {moves[-6:]}"
            )
        return walk(svc, variant, moves + [a["best_move"]], winner, plies - 1, rng)
    legal = [m["move"] for m in st["moves"]]
    tried = legal if plies <= 2 else [rng.choice(legal)]
    for m in tried:
        walk(svc, variant, moves + [m], winner, plies - 1, rng)


def read_games(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f):
                if line.strip():
                    yield path, n, json.loads(line)


def make(args):
    svc = Service(args.server, args.binary)
    rng = random.Random(args.seed)
    kept = collections.Counter()
    lengths = collections.defaultdict(collections.Counter)
    broken = unconfirmed = 0
    seen = set()
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            for path, n, g in read_games(args.games):
                variant = g["variant"]
                # Games an engine plays against itself repeat with colours swapped.
                if (variant, tuple(g["moves"])) in seen:
                    continue
                seen.add((variant, tuple(g["moves"])))
                if g.get("winner") not in ("attackers", "defenders"):
                    continue
                if g.get("reason") not in RULE_WINS or kept[variant] >= args.per_preset:
                    continue
                moves = g["moves"]
                for before in range(5, 26, 2):
                    if len(moves) - before < len(g.get("opening", [])):
                        break
                    if kept[variant] >= args.per_preset:
                        break
                    at = moves[: len(moves) - before]
                    a = svc.analyze(variant, at, args.time_ms)
                    if a["to_move"] != g["winner"]:
                        continue
                    if not proved_win(a):
                        # Farther from the end, proofs only get longer.
                        break
                    plies = a["score"]["win"]
                    if not 5 <= plies <= 25:
                        continue
                    try:
                        walk(svc, variant, at, g["winner"], plies, rng)
                    except Broke as e:
                        broken += 1
                        print(f"{path}:{n + 1} {before} plies before the end: FALSE PROOF: {e}", file=sys.stderr)
                        continue
                    except Unconfirmed as e:
                        unconfirmed += 1
                        print(f"{path}:{n + 1} {before} plies before the end: unconfirmed: {e}", file=sys.stderr)
                        continue
                    kept[variant] += 1
                    lengths[variant][plies] += 1
                    row = {
                        "variant": variant,
                        "moves": at,
                        "plies": plies,
                        "proof": a["proof"],
                        "game": n,
                        "before": before,
                    }
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    finally:
        svc.close()
    print(
        f"kept {sum(kept.values())} positions; {broken} false proofs; "
        f"{unconfirmed} walks left where the service's answer gave no proved win within the plies left"
    )
    all_lengths = sorted({p for c in lengths.values() for p in c})
    print("| preset | " + " | ".join(str(p) for p in all_lengths) + " | all |")
    print("|---|" + "---:|" * (len(all_lengths) + 1))
    for variant in sorted(lengths):
        c = lengths[variant]
        cells = " | ".join(str(c[p]) for p in all_lengths)
        print(f"| {variant} | {cells} | {sum(c.values())} |")


def stream(svc, variant, moves, time_ms):
    """The analysis as streamed: the time of the first iteration that answered a
    proved win (None if none did) and the final answer."""
    req = urllib.request.Request(
        svc.url + "/v1/analyze/stream",
        data=json.dumps(
            {"variant": variant, "moves": moves, "time_ms": time_ms, "threads": 1}
        ).encode(),
        headers={"content-type": "application/json"},
    )
    first = None
    final = None
    event = None
    with urllib.request.urlopen(req, timeout=120) as r:
        for raw in r:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                if event == "info" and first is None and proved_win(data):
                    first = data["time_ms"]
                elif event == "bestmove":
                    final = data
    return first, final


def measure(args):
    rows = [json.loads(line) for line in open(args.wins, encoding="utf-8") if line.strip()]
    taken = collections.Counter()
    svc = Service(args.server, args.binary)
    table = collections.defaultdict(list)
    try:
        for r in rows:
            if args.sample and taken[r["variant"]] >= args.sample:
                continue
            taken[r["variant"]] += 1
            first, final = stream(svc, r["variant"], r["moves"], args.time_ms)
            ok = final is not None and proved_win(final)
            if ok and first is None:
                first = final["time_ms"]
            bucket = next(b for b in BUCKETS if b[0] <= r["plies"] <= b[1])
            table[(r["variant"], bucket)].append((ok, first))
    finally:
        svc.close()
    print(f"| preset | plies | positions | proved at {args.time_ms} ms | median time to the proof (ms) |")
    print("|---|---|---:|---:|---:|")
    totals = collections.defaultdict(list)
    for (variant, (lo, hi)), got in sorted(table.items()):
        totals[(lo, hi)].extend(got)
        proved = [t for ok, t in got if ok]
        median = f"{statistics.median(proved):.0f}" if proved else "-"
        share = 100.0 * len(proved) / len(got)
        print(f"| {variant} | {lo}-{hi} | {len(got)} | {share:.1f}% | {median} |")
    for (lo, hi), got in sorted(totals.items()):
        proved = [t for ok, t in got if ok]
        median = f"{statistics.median(proved):.0f}" if proved else "-"
        print(f"| all | {lo}-{hi} | {len(got)} | {100.0 * len(proved) / len(got):.1f}% | {median} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", help="a running service's URL")
    p.add_argument("--binary", default="target/release/branan")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make")
    m.add_argument("games", nargs="+")
    m.add_argument("--out", required=True)
    m.add_argument("--per-preset", type=int, default=300)
    m.add_argument("--time-ms", type=int, default=8000)
    m.add_argument("--seed", type=int, default=1)
    q = sub.add_parser("measure")
    q.add_argument("wins")
    q.add_argument("--time-ms", type=int, default=1000)
    q.add_argument("--sample", type=int, default=0, help="the first N positions of each preset (0: all)")
    args = p.parse_args()
    make(args) if args.command == "make" else measure(args)


if __name__ == "__main__":
    main()
