#!/usr/bin/env bash
# Soak: starts branan (release build) and runs a steady mixed load against it with
# scripts/load.py (default 50 requests/s for 600 s: random games through
# /v1/moves and /v1/play, short analyses of the positions met, variants, health,
# malformed requests), sampling the resident memory every 10 s. Prints a Markdown
# table (one row per sample) and a summary; fails on any 5xx other than 503, a
# transport error, or a crash.
#
#   scripts/soak.sh
#
# Environment: PORT (default: a free port), RATE (50), DURATION (600), SAMPLE (10),
# CACHE_ENTRIES (2000: small, so that the cache fills during the run),
# BRANAN_BIN (use this binary instead of building).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/serve.sh

start_branan BRANAN_CACHE_ENTRIES="${CACHE_ENTRIES:-2000}"

status=0
python3 scripts/load.py soak --url "http://127.0.0.1:$port" --pid "$pid" \
    --rate "${RATE:-50}" --duration "${DURATION:-600}" --sample "${SAMPLE:-10}" || status=$?
kill -0 "$pid" 2>/dev/null || { echo "branan died:" >&2; cat "$log" >&2; exit 1; }
if grep -iE 'panicked' "$log"; then status=1; fi
exit "$status"
