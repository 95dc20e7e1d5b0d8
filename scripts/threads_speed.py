#!/usr/bin/env python3
"""Time to depth of one analysis on one thread and on several: each position
searched to a fixed depth with `threads` 1 and then N, the runs interleaved, each
in a process of its own (so no run starts from another's table).

    scripts/threads_speed.py [--bin target/release/branan] [--threads 2] [--runs 4]

Prints one line per run, then per position the median time to depth on each count
of threads and their ratio (the speed-up on this machine as loaded), the nodes per
second of each (whose ratio says how much more CPU the threads got than one), and
the median nodes to depth with the speed-up they give on N free cores: the threads
search at one thread's speed each, so the time to depth on N threads is their
nodes divided by N times one thread's speed (N x nodes on 1 / nodes on N). Exits 2
when branan fails.
"""

import argparse
import json
import statistics
import subprocess
import sys

# (label, variant, position or None for the start, depth): about 3-6 s on one
# thread of a 2-core build machine.
POSITIONS = [
    ("tablut start", "tablut", None, 12),
    ("copenhagen start", "copenhagen", None, 12),
    ("tablut, 5 plies", "tablut",
     "3ttt3/2T1t4/5T3/t3T3t/tt1TKTTtt/t3T3t/4T4/2tt5/4t2t1 d 5", 11),
    ("tablut, 10 plies", "tablut",
     "4ttT2/4t3t/8T/t2t5/ttTTK2tt/t3Tt3/4TT3/4t1T2/2t1tt3 a 10", 14),
]


def analyse(args, variant, position, depth, threads):
    req = {"variant": variant, "depth": depth, "threads": threads}
    if position:
        req["position"] = position
    out = subprocess.run(
        # `--threads-per-line` lets a line ask more threads than the machine has cores.
        [args.bin, "analyze", "--threads", "1", "--threads-per-line", str(threads),
         "--max-time-ms", "600000"],
        input=json.dumps(req) + "\n", capture_output=True, text=True)
    if out.returncode != 0:
        print(f"branan failed: {out.stderr}", file=sys.stderr)
        sys.exit(2)
    return json.loads(out.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="target/release/branan")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", type=int, default=4)
    args = p.parse_args()
    summary = []
    for label, variant, position, depth in POSITIONS:
        got = {1: [], args.threads: []}
        for run in range(args.runs):
            # Alternate which goes first, so a load that comes and goes is shared.
            order = [1, args.threads] if run % 2 == 0 else [args.threads, 1]
            for threads in order:
                a = analyse(args, variant, position, depth, threads)
                got[threads].append(a)
                print(f"{label:18} depth {depth}  threads {threads}  {a['time_ms']:6} ms "
                      f"{a['nodes']:11} nodes  {a['nps'] / 1e6:5.2f} M nodes/s  "
                      f"{a['best_move']} {json.dumps(a['score'])}", flush=True)
        one = statistics.median(a["time_ms"] for a in got[1])
        many = statistics.median(a["time_ms"] for a in got[args.threads])
        nps1 = statistics.median(a["nps"] for a in got[1])
        nps_n = statistics.median(a["nps"] for a in got[args.threads])
        n1 = statistics.median(a["nodes"] for a in got[1])
        n_n = statistics.median(a["nodes"] for a in got[args.threads])
        summary.append((label, depth, one, many, nps1, nps_n, n1, n_n))
    print()
    n = args.threads
    print(f"| position | depth | 1 thread | {n} threads | speed-up here | "
          f"nodes/s, 1 / {n} | nodes, 1 / {n} | speed-up on {n} free cores |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, depth, one, many, nps1, nps_n, n1, n_n in summary:
        print(f"| {label} | {depth} | {one / 1000:.2f} s | {many / 1000:.2f} s | "
              f"{one / max(many, 1):.2f}x | {nps1 / 1e6:.1f} M / {nps_n / 1e6:.1f} M | "
              f"{n1 / 1e6:.1f} M / {n_n / 1e6:.1f} M | {n * n1 / max(n_n, 1):.2f}x |")


if __name__ == "__main__":
    main()
