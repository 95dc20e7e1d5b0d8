#!/bin/sh
# Instructions the server spends on one POST /v1/moves (Tablut start), counted by
# callgrind: the server runs under valgrind with one HTTP worker, one keep-alive
# client sends FEW and then MANY requests in two runs, and the difference over
# MANY - FEW is the cost of one request (start-up and shutdown cancel out).
# Deterministic, unlike requests per second on a shared machine. With
# ENDPOINT=healthz, GET /healthz takes the place of /v1/moves (the floor every
# request pays: the HTTP server, the middleware, the access log); with
# ENDPOINT=play, POST /v1/play (d9-d8 from the Tablut start); with
# ENDPOINT=moves-distinct, /v1/moves with a body of its own each time (the
# request i has i spaces after its `{`), so that no answer comes from the
# answer cache.
# Usage: [ENDPOINT=healthz] benches/wrk/instructions.sh [path/to/branan] [few] [many]
set -eu
BIN=${1:-target/release/branan}
FEW=${2:-200}
MANY=${3:-2200}
PORT=18198
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
run() { # requests -> instructions of the whole run
  BRANAN_BIND=127.0.0.1:$PORT BRANAN_WORKERS=1 valgrind --tool=callgrind \
    --callgrind-out-file="$OUT/cg.$1" "$BIN" >"$OUT/log.$1" 2>&1 &
  pid=$!
  i=0
  until curl -s -o /dev/null "127.0.0.1:$PORT/healthz"; do
    i=$((i + 1)); [ $i -lt 240 ] || { echo "server did not start" >&2; exit 1; }
    sleep 0.5
  done
  python3 - "$PORT" "$1" "${ENDPOINT:-moves}" <<'PY'
import http.client, json, sys
port, n, endpoint = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
body = json.dumps({"variant": "tablut"})
for i in range(n):
    if endpoint == "healthz":
        c.request("GET", "/healthz")
    elif endpoint == "play":
        c.request("POST", "/v1/play", json.dumps({"variant": "tablut", "move": "d9-d8"}),
                  {"Content-Type": "application/json"})
    elif endpoint == "moves-distinct":
        c.request("POST", "/v1/moves", "{" + " " * i + body[1:], {"Content-Type": "application/json"})
    else:
        c.request("POST", "/v1/moves", body, {"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    if r.status != 200:
        sys.exit(f"status {r.status}")
PY
  kill -INT $pid
  wait $pid || true
  awk '/Collected/ {print $4}' "$OUT/log.$1"
}
few=$(run "$FEW")
many=$(run "$MANY")
echo "$BIN ${ENDPOINT:-moves}: $(( (many - few) / (MANY - FEW) )) instructions per request ($FEW: $few, $MANY: $many)"
