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

source scripts/serve.sh
threads=${THREADS:-2}
queue=${QUEUE:-4}
time_ms=${TIME_MS:-8000}

start_branan BRANAN_SEARCH_THREADS="$threads" BRANAN_SEARCH_QUEUE="$queue" BRANAN_MAX_TIME_MS=$((time_ms + 1000))

status=0
python3 scripts/load.py overload --url "http://127.0.0.1:$port" --pid "$pid" \
    --threads "$threads" --queue "$queue" --time-ms "$time_ms" || status=$?
kill -0 "$pid" 2>/dev/null || { echo "branan died:" >&2; cat "$log" >&2; exit 1; }
if grep -iE 'panicked' "$log"; then status=1; fi
exit "$status"
