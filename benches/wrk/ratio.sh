#!/bin/sh
# Requests per second of POST /v1/moves (Tablut start) against GET /healthz, same
# binary, one HTTP worker, wrk with one thread and 32 connections, alternating runs.
# Also the server's CPU time per request (from /proc), which other load on the
# machine does not skew. Usage: benches/wrk/ratio.sh [path/to/branan] [rounds] [secs]
# With ENDPOINT=board, GET /v1/board.svg (a Tablut position after two moves, an
# arrow) takes the place of /v1/moves; with ENDPOINT=board-uncached, the same
# picture with a different arrow and size each time (every request is drawn);
# with ENDPOINT=play, POST /v1/play (d9-d8 from the Tablut start).
# Where wrk is not installed, oha (`cargo install oha`) sends the requests the same
# way: one thread, 32 connections (the uncached board picture needs wrk).
# ACCEPT_ENCODING=br (or gzip, zstd) asks for compressed answers (default: none).
set -eu
ENC=${ACCEPT_ENCODING:-identity}
BIN=${1:-target/release/branan}
ROUNDS=${2:-5}
SECS=${3:-8}
ENDPOINT=${ENDPOINT:-moves}
PORT=18199
DIR=$(dirname "$0")
BRANAN_BIND=127.0.0.1:$PORT BRANAN_WORKERS=1 "$BIN" >/dev/null 2>&1 &
PID=$!
trap 'kill $PID' EXIT
sleep 1
TICK=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' /proc/$PID/stat; }
if command -v wrk >/dev/null; then LOAD=wrk; else LOAD=oha; fi
# wrk's requests per second, requests and failures; or oha's, for the same request
# (its wrk script's method, header and body).
load() { # wrk args...
  if [ $LOAD = wrk ]; then
    out=$(wrk -t1 -c32 -d${SECS}s -H "Accept-Encoding: $ENC" "$@")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    total=$(echo "$out" | awk '/requests in/ {print $1}')
    bad=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    return
  fi
  if [ "$1" = -s ]; then
    script=$2; shift 2
    method=$(sed -n 's/^wrk.method = "\(.*\)"/\1/p' "$script")
    ctype=$(sed -n 's/^wrk.headers\["Content-Type"\] = "\(.*\)"/\1/p' "$script")
    body=$(sed -n "s/^wrk.body = '\(.*\)'/\1/p" "$script")
    set -- -m "$method" -H "Content-Type: $ctype" -d "$body" "$@"
  fi
  out=$(oha --no-tui --worker-threads 1 -c 32 -z ${SECS}s --output-format json \
    -H "Accept-Encoding: $ENC" "$@")
  set -- $(echo "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
codes = r.get("statusCodeDistribution", {})
total = sum(codes.values())
print(r["summary"]["requestsPerSec"], total, total - codes.get("200", 0))')
  rps=$1 total=$2 bad=$3
}
run() { # name, wrk args...
  name=$1; shift
  before=$(cpu)
  load "$@"
  after=$(cpu)
  us=$(awk -v c=$((after - before)) -v t="$TICK" -v n="$total" 'BEGIN {printf "%.1f", c / t / n * 1e6}')
  echo "$name $rps $us ${bad:-0}"
}
echo "endpoint req/s cpu_us_per_req non_2xx"
i=0
while [ $i -lt "$ROUNDS" ]; do
  run healthz "http://127.0.0.1:$PORT/healthz"
  if [ "$ENDPOINT" = board-uncached ]; then
    run board-uncached -s "$DIR/board_uncached.lua" "http://127.0.0.1:$PORT/v1/board.svg"
  elif [ "$ENDPOINT" = play ]; then
    run play -s "$DIR/play_tablut_start.lua" "http://127.0.0.1:$PORT/v1/play"
  elif [ "$ENDPOINT" = board ]; then
    run board "http://127.0.0.1:$PORT/v1/board.svg?variant=tablut&moves=d9-d8,e7-d7&arrows=e5-e7"
  else
    run moves -s "$DIR/moves_tablut_start.lua" "http://127.0.0.1:$PORT/v1/moves"
  fi
  i=$((i + 1))
done
