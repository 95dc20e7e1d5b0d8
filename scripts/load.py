#!/usr/bin/env python3
"""Load tools for branan's hardening runs (standard library only).

  load.py overload --url URL --pid PID [--threads N --queue Q --time-ms T]
  load.py soak     --url URL --pid PID [--rate R --duration S --sample S]

overload: fills the search pool with long analyses (threads + queue of them,
each asking `time_ms` T), then while they run:
  1. measures /healthz and GET/POST /v1/moves latency (sequential requests; p50,
     p99, max),
  2. sends analyses beyond the queue and checks each gets 503 with Retry-After
     quickly,
  3. samples the server's resident memory (from /proc/PID/status),
and finally checks that clients who disconnect mid-search free their slots: it
opens threads + queue analyses, closes their sockets, and measures how long until
a new short analysis is accepted (200) again.

soak: a steady open-loop mix of requests at `rate` per second for `duration`
seconds (random games walked through /v1/moves, /v1/play, short analyses of the
positions met, /v1/variants, /healthz, the odd malformed request), sampling RSS
every `sample` seconds; prints one table row per sample and a summary. Latency
is measured from each request's scheduled time (no coordinated omission).

Every figure is printed as a Markdown table, ready for the README.
"""

import argparse
import http.client
import json
import random
import socket
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        return float("nan")
    return float("nan")


class Client:
    """One keep-alive HTTP/1.1 connection per thread."""

    def __init__(self, url, timeout=30.0):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port or 80
        self.timeout = timeout
        self.local = threading.local()

    def conn(self):
        c = getattr(self.local, "conn", None)
        if c is None:
            c = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.local.conn = c
        return c

    def request(self, method, path, body=None, headers=None):
        """Returns (status, headers dict, body bytes); status 0 on a transport error."""
        h = {"Accept": "application/json"}
        if body is not None:
            body = json.dumps(body).encode() if not isinstance(body, bytes) else body
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        for attempt in range(2):
            c = self.conn()
            try:
                c.request(method, path, body=body, headers=h)
                r = c.getresponse()
                data = r.read()
                if r.getheader("connection", "").lower() == "close":
                    c.close()
                    self.local.conn = None
                return r.status, {k.lower(): v for k, v in r.getheaders()}, data
            except (OSError, http.client.HTTPException) as e:
                c.close()
                self.local.conn = None
                if attempt == 1:
                    return 0, {}, str(e).encode()
        return 0, {}, b""


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100.0 * (len(s) - 1)))))
    return s[k]


def ms(x):
    return f"{x * 1000:.1f}"


def analyze_body(time_ms=None, depth=None, variant="tawlbwrdd", moves=None):
    body = {"variant": variant}
    if moves:
        body["moves"] = moves
    if time_ms is not None:
        body["time_ms"] = time_ms
    if depth is not None:
        body["depth"] = depth
    return body


def hold_analyses(url, count, time_ms, results):
    """Starts `count` long analyses, each on its own connection, in threads."""
    threads = []
    for i in range(count):
        def run(i=i):
            c = Client(url, timeout=time_ms / 1000.0 + 60)
            # Distinct positions, so the cache cannot answer them.
            moves = DISTINCT_OPENINGS[i % len(DISTINCT_OPENINGS)]
            started = time.monotonic()
            status, _, _ = c.request("POST", "/v1/analyze", analyze_body(time_ms=time_ms, moves=moves))
            results.append((status, time.monotonic() - started))
        t = threading.Thread(target=run, daemon=True)
        t.start()
        threads.append(t)
    return threads


# Openings of Tawlbwrdd (legal from the start), one per held analysis, filled in
# from the server by `openings`.
DISTINCT_OPENINGS = [[]]


def openings(client, n):
    status, _, data = client.request("POST", "/v1/moves", {"variant": "tawlbwrdd"})
    if status != 200:
        sys.exit(f"/v1/moves answered {status}: {data[:200]!r}")
    first = [m["move"] for m in json.loads(data)["moves"]]
    out = []
    for m in first:
        status, _, data = client.request("POST", "/v1/moves", {"variant": "tawlbwrdd", "moves": [m]})
        for r in json.loads(data)["moves"][:3]:
            out.append([m, r["move"]])
        if len(out) >= n:
            break
    return out[:n]


def metric(client, name):
    status, _, data = client.request("GET", "/metrics")
    if status != 200:
        return None
    for line in data.decode(errors="replace").splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            try:
                return float(line.rsplit(" ", 1)[1])
            except ValueError:
                return None
    return None


def overload(args):
    client = Client(args.url)
    global DISTINCT_OPENINGS
    held = args.threads + args.queue
    DISTINCT_OPENINGS = openings(client, held + 64)
    rss0 = rss_mib(args.pid)
    print(f"# overload: {args.threads} search threads + queue {args.queue}, "
          f"{held} analyses of time_ms={args.time_ms} held; RSS before {rss0:.1f} MiB\n")

    results = []
    hold_analyses(args.url, held, args.time_ms, results)
    # Wait until the pool is full (every held analysis queued or running), at most
    # 10 s. No probing with analyses here: a probe could take a held one's slot.
    deadline = time.monotonic() + 10
    probe = Client(args.url)
    while time.monotonic() < deadline:
        if (metric(probe, "branan_search_pending") or 0) >= held:
            break
        time.sleep(0.05)
    else:
        print("the pool never filled (branan_search_pending below the held count for 10 s)")

    rows = []
    rss_samples = [rss_mib(args.pid)]
    # 1. Analyses beyond the queue (each would be quick if accepted).
    refused, retry_after, other, lat503 = 0, 0, {}, []
    for i in range(args.extra):
        t0 = time.monotonic()
        s, h, _ = client.request("POST", "/v1/analyze",
                                 analyze_body(depth=1, moves=DISTINCT_OPENINGS[held + (i % 60)]))
        lat503.append(time.monotonic() - t0)
        if s == 503:
            refused += 1
            retry_after += "retry-after" in h
        else:
            other[s] = other.get(s, 0) + 1
    extra_row = ("POST /v1/analyze beyond the queue (503 expected)", len(lat503), len(lat503) - refused,
                 percentile(lat503, 50), percentile(lat503, 99), max(lat503))

    # 2. Latency of the cheap routes while every search thread is busy.
    moves_body = {"variant": "tawlbwrdd", "moves": DISTINCT_OPENINGS[0]}
    q = urllib.parse.urlencode({"variant": "tawlbwrdd", "moves": ",".join(DISTINCT_OPENINGS[1])})
    for name, method, path, body in [
        ("GET /healthz", "GET", "/healthz", None),
        ("POST /v1/moves", "POST", "/v1/moves", moves_body),
        ("GET /v1/moves", "GET", "/v1/moves?" + q, None),
    ]:
        lat, bad = [], 0
        for i in range(args.samples):
            t0 = time.monotonic()
            s, _, _ = client.request(method, path, body)
            lat.append(time.monotonic() - t0)
            bad += s != 200
            if i % 100 == 0:
                rss_samples.append(rss_mib(args.pid))
        rows.append((name, len(lat), bad, percentile(lat, 50), percentile(lat, 99), max(lat)))

    rows.append(extra_row)
    rss_samples.append(rss_mib(args.pid))
    print("| while the pool is full | requests | not 200/503 as expected | p50 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, bad, p50, p99, mx in rows:
        print(f"| {name} | {n} | {bad} | {ms(p50)} | {ms(p99)} | {ms(mx)} |")
    print(f"\n503 answers: {refused}/{args.extra}, with Retry-After: {retry_after}; other statuses: {other}")
    print(f"RSS while saturated: min {min(rss_samples):.1f} MiB, max {max(rss_samples):.1f} MiB")

    # Wait for the held analyses to finish.
    deadline = time.monotonic() + args.time_ms / 1000.0 * (held / max(1, args.threads) + 2) + 30
    while len(results) < held and time.monotonic() < deadline:
        time.sleep(0.2)
    statuses = {}
    for s, _ in results:
        statuses[s] = statuses.get(s, 0) + 1
    print(f"held analyses answered: {statuses}")

    # 3. Clients that disconnect mid-search.
    print("\n# disconnects: clients that go away free their slots")
    socks = []
    for i in range(held):
        body = json.dumps(analyze_body(time_ms=args.time_ms, moves=DISTINCT_OPENINGS[(i + 7) % len(DISTINCT_OPENINGS)])).encode()
        s = socket.create_connection((client.host, client.port))
        s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        socks.append(s)
    time.sleep(0.5)
    s503, _, _ = probe.request("POST", "/v1/analyze", analyze_body(depth=1, moves=DISTINCT_OPENINGS[-2]))
    pending = metric(client, "branan_search_pending")
    t_close = time.monotonic()
    for s in socks:
        s.close()
    freed = None
    while time.monotonic() - t_close < args.time_ms / 1000.0 + 5:
        s, _, _ = probe.request("POST", "/v1/analyze", analyze_body(depth=1, moves=DISTINCT_OPENINGS[-3]))
        if s == 200:
            freed = time.monotonic() - t_close
            break
        time.sleep(0.01)
    print(f"before closing: a new analysis got {s503} (pool full), search_pending={pending}")
    if freed is None:
        print(f"after closing {held} connections: no analysis accepted within {args.time_ms / 1000.0 + 5:.0f} s")
        return 1
    print(f"after closing {held} connections: a new analysis answered 200 after {freed * 1000:.0f} ms "
          f"(the closed ones asked time_ms={args.time_ms})")
    print(f"RSS at the end: {rss_mib(args.pid):.1f} MiB")
    return 0


class Walker:
    """A random game per worker thread, walked through /v1/moves."""

    VARIANTS = ["brandubh", "tablut", "tawlbwrdd", "brandubh-classic", "tablut-linnaeus"]

    def __init__(self, rng):
        self.rng = rng
        self.reset()

    def reset(self):
        self.variant = self.rng.choice(self.VARIANTS)
        self.moves = []
        self.legal = None


def soak(args):
    client = Client(args.url, timeout=30)
    rng = random.Random(args.seed)
    walkers = threading.local()
    lock = threading.Lock()
    stats = {"sent": 0, "done": 0, "status": {}, "lat": [], "errors": 0}

    def walker():
        w = getattr(walkers, "w", None)
        if w is None:
            w = Walker(random.Random(rng.random()))
            walkers.w = w
        return w

    def one(kind):
        w = walker()
        body = {"variant": w.variant, "moves": w.moves}
        if kind == "moves":
            s, _, data = client.request("POST", "/v1/moves", body)
            if s == 200:
                legal = [m["move"] for m in json.loads(data)["moves"]]
                if not legal or len(w.moves) >= 80:
                    w.reset()
                else:
                    w.moves.append(w.rng.choice(legal))
            else:
                w.reset()
            return s
        if kind == "moves_get":
            q = urllib.parse.urlencode({"variant": w.variant, "moves": ",".join(w.moves)})
            return client.request("GET", "/v1/moves?" + q)[0]
        if kind == "play":
            s, _, data = client.request("POST", "/v1/moves", body)
            if s != 200:
                return s
            legal = [m["move"] for m in json.loads(data)["moves"]]
            if not legal:
                w.reset()
                return s
            return client.request("POST", "/v1/play", dict(body, move=w.rng.choice(legal)))[0]
        if kind == "analyze":
            return client.request("POST", "/v1/analyze", dict(body, depth=w.rng.choice([1, 2, 3])))[0]
        if kind == "analyze_time":
            return client.request("POST", "/v1/analyze", dict(body, time_ms=50))[0]
        if kind == "variants":
            return client.request("GET", "/v1/variants")[0]
        if kind == "health":
            return client.request("GET", "/healthz")[0]
        if kind == "bad":
            return client.request("POST", "/v1/moves", b'{"variant": "brandubh", "moves": ["z9-z1"]')[0]
        raise ValueError(kind)

    mix = (["moves"] * 40 + ["moves_get"] * 10 + ["play"] * 15 + ["analyze"] * 15
           + ["analyze_time"] * 5 + ["variants"] * 5 + ["health"] * 5 + ["bad"] * 5)

    def task(kind, scheduled):
        try:
            s = one(kind)
        except Exception as e:  # a bug in this tool, counted, never fatal
            s = -1
            print(f"client error: {e!r}", file=sys.stderr)
        lat = time.monotonic() - scheduled
        with lock:
            stats["done"] += 1
            stats["status"][s] = stats["status"].get(s, 0) + 1
            stats["lat"].append(lat)

    pool = ThreadPoolExecutor(max_workers=args.concurrency)
    start = time.monotonic()
    interval = 1.0 / args.rate
    next_sample = start
    rows = []
    i = 0
    print(f"# soak: {args.rate} requests/s for {args.duration} s, RSS every {args.sample} s\n")
    print("| t (s) | RSS (MiB) | requests done | p50 ms | p99 ms | 503 | other 5xx or errors | cache entries |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    last_lat, last503, last5 = 0, 0, 0
    while True:
        now = time.monotonic()
        if now >= next_sample:
            with lock:
                lat = stats["lat"][last_lat:]
                last_lat = len(stats["lat"])
                done = stats["done"]
                n503 = stats["status"].get(503, 0)
                fivexx = sum(n for s, n in stats["status"].items() if (s >= 500 and s != 503) or s <= 0)
            entries = metric(Client(args.url), "branan_analysis_cache_entries")
            row = (round(now - start), rss_mib(args.pid), done, percentile(lat, 50), percentile(lat, 99),
                   n503 - last503, fivexx - last5, entries)
            last503, last5 = n503, fivexx
            rows.append(row)
            print(f"| {row[0]} | {row[1]:.1f} | {row[2]} | {ms(row[3])} | {ms(row[4])} | {row[5]} | {row[6]} | "
                  f"{'' if entries is None else int(entries)} |", flush=True)
            next_sample += args.sample
        if now - start >= args.duration:
            break
        scheduled = start + i * interval
        if scheduled > now:
            time.sleep(min(scheduled - now, max(0.0, next_sample - now)))
            continue
        pool.submit(task, rng.choice(mix), scheduled)
        stats["sent"] += 1
        i += 1
    pool.shutdown(wait=True)
    lat = stats["lat"]
    print(f"\nsent {stats['sent']}, answered {stats['done']}; statuses {dict(sorted(stats['status'].items()))}")
    print(f"latency from schedule: p50 {ms(percentile(lat, 50))} ms, p99 {ms(percentile(lat, 99))} ms, "
          f"max {ms(max(lat))} ms")
    half = [r[1] for r in rows if r[0] >= args.duration / 2]
    if half:
        print(f"RSS over the second half: min {min(half):.1f} MiB, max {max(half):.1f} MiB, "
              f"growth {half[-1] - half[0]:+.1f} MiB")
    bad = sum(n for s, n in stats["status"].items() if s >= 500 and s != 503 or s <= 0)
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("overload")
    o.add_argument("--url", required=True)
    o.add_argument("--pid", type=int, required=True)
    o.add_argument("--threads", type=int, required=True, help="the server's search threads")
    o.add_argument("--queue", type=int, required=True, help="the server's search queue")
    o.add_argument("--time-ms", type=int, default=8000)
    o.add_argument("--samples", type=int, default=500)
    o.add_argument("--extra", type=int, default=50)
    s = sub.add_parser("soak")
    s.add_argument("--url", required=True)
    s.add_argument("--pid", type=int, required=True)
    s.add_argument("--rate", type=float, default=50)
    s.add_argument("--duration", type=float, default=600)
    s.add_argument("--sample", type=float, default=10)
    s.add_argument("--concurrency", type=int, default=32)
    s.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    sys.exit(overload(args) if args.cmd == "overload" else soak(args))


if __name__ == "__main__":
    main()
