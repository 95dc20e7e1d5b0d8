#!/usr/bin/env bash
# Overload: starts branan (release build) with a small search pool, fills the pool
# with long analyses, and measures with scripts/load.py that /healthz and
# /v1/moves still answer quickly (p50/p99/max), that analyses beyond the queue get
# 503 with Retry-After, the resident memory, and that clients that disconnect
# mid-search free their slots promptly. Prints Markdown tables.
#
#   scripts/overload.sh
#
# Environment: PORT (default: a free port), THREADS (search threads, 2), QUEUE (4), TIME_MS
# (each held analysis, 8000), BRANAN_BIN (use this binary instead of building).
set -euo pipefail
cd "$(dirname "$0")/.."

port=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
threads=${THREADS:-2}
queue=${QUEUE:-4}
time_ms=${TIME_MS:-8000}

bin=${BRANAN_BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet --release --bin branan
    bin=target/release/branan
fi

log=$(mktemp -t branan-overload.XXXXXX.log)
BRANAN_BIND="127.0.0.1:$port" BRANAN_LOG=warn BRANAN_SEARCH_THREADS=$threads \
    BRANAN_SEARCH_QUEUE=$queue BRANAN_MAX_TIME_MS=$((time_ms + 1000)) \
    "$bin" serve >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done

status=0
python3 scripts/load.py overload --url "http://127.0.0.1:$port" --pid "$pid" \
    --threads "$threads" --queue "$queue" --time-ms "$time_ms" || status=$?
kill -0 "$pid" 2>/dev/null || { echo "branan died:" >&2; cat "$log" >&2; exit 1; }
if grep -iE 'panicked' "$log"; then status=1; fi
exit "$status"
