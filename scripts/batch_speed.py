#!/usr/bin/env python3
"""The same positions through `branan analyze` (the CLI) and through
`POST /v1/analyze/batch` (a server with the same number of search threads), timed
wall-clock, in interleaved runs. Prints a Markdown table.

    scripts/batch_speed.py --bin target/release/branan [--count 200] [--threads 2]
        [--runs 3] [--limit time_ms=50] [--limit depth=4]

Positions: random games (fixed seed) of every preset, 4 to 40 plies long, walked
through `GET /v1/moves` of a server started for the purpose; finished games are
skipped. Each HTTP run gets a fresh server, so no answer comes from the cache.
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

PRESETS = ["brandubh", "tablut", "tawlbwrdd", "brandubh-classic", "tablut-linnaeus",
           "copenhagen", "fetlar"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, binary, threads):
        self.port = free_port()
        env = dict(os.environ, BRANAN_BIND=f"127.0.0.1:{self.port}", BRANAN_LOG="warn",
                   BRANAN_SEARCH_THREADS=str(threads), BRANAN_MAX_BATCH_TIME_MS="0")
        self.proc = subprocess.Popen([binary, "serve"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        sys.exit("branan did not become healthy")

    def get(self, path, **query):
        url = f"{self.url}{path}?{urllib.parse.urlencode(query)}"
        return json.load(urllib.request.urlopen(url, timeout=30))

    def post(self, path, body):
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
        return json.load(urllib.request.urlopen(req, timeout=3600))

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def positions(server, count, seed):
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        variant = PRESETS[len(out) % len(PRESETS)]
        answer = server.get("/v1/moves", variant=variant)
        for _ in range(rng.randint(4, 40)):
            if not answer["moves"]:
                break
            move = rng.choice(answer["moves"])["move"]
            answer = server.get("/v1/moves", variant=variant, position=answer["position"],
                                moves=move)
        if answer["status"]["over"] or (variant, answer["position"]) in seen:
            continue
        seen.add((variant, answer["position"]))
        out.append({"variant": variant, "position": answer["position"]})
    return out


def run_cli(binary, threads, items):
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as f:
        f.write("".join(json.dumps(i) + "\n" for i in items))
        path = f.name
    try:
        with open(path) as stdin:
            start = time.monotonic()
            out = subprocess.run([binary, "analyze", "--threads", str(threads),
                                  "--progress-every", "0"], stdin=stdin,
                                 capture_output=True, text=True, check=False)
            wall = time.monotonic() - start
    finally:
        os.unlink(path)
    answers = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    ok = sum(1 for a in answers if "best_move" in a)
    return wall, ok


def run_http(binary, threads, items):
    server = Server(binary, threads)
    try:
        start = time.monotonic()
        answer = server.post("/v1/analyze/batch", {"items": items})
        wall = time.monotonic() - start
    finally:
        server.stop()
    ok = sum(1 for a in answer["results"] if "best_move" in a)
    return wall, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/branan")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--limit", action="append", default=[],
                    help="a limit of every item, like time_ms=50 or depth=4")
    args = ap.parse_args()
    limits = args.limit or ["time_ms=50"]

    server = Server(args.bin, args.threads)
    try:
        base = positions(server, args.count, args.seed)
    finally:
        server.stop()

    print(f"{args.count} positions (seed {args.seed}), {args.threads} threads, "
          f"load average {os.getloadavg()[0]:.1f} at the start\n")
    print("| limit per item | run | `branan analyze` s | `POST /v1/analyze/batch` s | answered (CLI / HTTP) |")
    print("|---|---:|---:|---:|---|")
    for limit in limits:
        key, value = limit.split("=")
        items = [dict(p, **{key: int(value)}) for p in base]
        for run in range(1, args.runs + 1):
            cli, cli_ok = run_cli(args.bin, args.threads, items)
            http, http_ok = run_http(args.bin, args.threads, items)
            print(f"| `{key}: {value}` | {run} | {cli:.2f} | {http:.2f} | "
                  f"{cli_ok} / {http_ok} |", flush=True)


if __name__ == "__main__":
    main()
