#!/bin/sh
# Whole games between `branan bot` and hnefatafl.org's own engine, on a local
# hnefatafl.org server. The crate's programs are test tools, installed apart:
#
#   cargo install hnefatafl-copenhagen --no-default-features --features server --root DIR
#   HNEFATAFL_TOOLS=DIR/bin scripts/hnefatafl-check.sh [GAMES] [BOARD]
#
# GAMES (default 2) games on BOARD (11 or 13, default 11), the bot offering both
# roles and the opponent taking them in turn. Untimed unless HNEFATAFL_MINUTES is
# set (with HNEFATAFL_INCREMENT seconds). BRANAN is the branan binary (default:
# the release build, else the debug build); BRANAN_MOVE_MS its time a move in
# untimed games (default 2000). The server listens on port 49152, which must be
# free. Prints one line per game and the tally; the logs stay in the work folder.
set -eu

GAMES=${1:-2}
BOARD=${2:-11}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

tool() {
    if [ -n "${HNEFATAFL_TOOLS:-}" ] && [ -x "$HNEFATAFL_TOOLS/$1" ]; then
        echo "$HNEFATAFL_TOOLS/$1"
    elif command -v "$1" >/dev/null 2>&1; then
        command -v "$1"
    else
        echo "hnefatafl-check: $1 not found (install the crate's tools and set HNEFATAFL_TOOLS)" >&2
        exit 2
    fi
}
SERVER=$(tool hnefatafl-server)
ENGINE=$(tool hnefatafl-text-protocol)

if [ -z "${BRANAN:-}" ]; then
    TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
    for b in "$TARGET/release/branan" "$TARGET/debug/branan"; do
        if [ -x "$b" ]; then BRANAN=$b; break; fi
    done
fi
if [ -z "${BRANAN:-}" ] || [ ! -x "$BRANAN" ]; then
    echo "hnefatafl-check: no branan binary (cargo build --release, or set BRANAN)" >&2
    exit 2
fi
case $BOARD in 11|13) ;; *) echo "hnefatafl-check: BOARD is 11 or 13" >&2; exit 2 ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/hnefatafl-check.XXXXXX")
mkdir -p "$WORK/home"
PIDS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

HOME="$WORK/home" "$SERVER" --skip-the-data-file >"$WORK/server.log" 2>&1 &
PIDS="$PIDS $!"

OPPONENT="python3 $ROOT/scripts/hnefatafl_opponent.py"
export HNEFATAFL_ENGINE="$ENGINE"
BOT_PASSWORD=$(od -An -tx4 -N8 /dev/urandom | tr -d ' \n')
OPP_PASSWORD=$(od -An -tx4 -N8 /dev/urandom | tr -d ' \n')
tries=0
until $OPPONENT create branan-bot "$BOT_PASSWORD" 2>>"$WORK/opponent.log"; do
    tries=$((tries + 1))
    if [ $tries -ge 20 ]; then
        echo "hnefatafl-check: the server does not answer (see $WORK/server.log)" >&2
        exit 1
    fi
    sleep 0.5
done
$OPPONENT create crate-engine "$OPP_PASSWORD" 2>>"$WORK/opponent.log"

# The opponent logs in first, so that it sees the bot's offers being made.
$OPPONENT play crate-engine "$OPP_PASSWORD" branan-bot "$GAMES" "$WORK/results.jsonl" \
    2>>"$WORK/opponent.log" &
OPP=$!
PIDS="$PIDS $OPP"
until grep -q "logged in as crate-engine" "$WORK/opponent.log"; do sleep 0.2; done

if [ -n "${HNEFATAFL_MINUTES:-}" ]; then
    TIME="\"minutes\": $HNEFATAFL_MINUTES, \"increment_seconds\": ${HNEFATAFL_INCREMENT:-0}"
else
    TIME="\"rated\": false"
fi
cat >"$WORK/bot.json" <<JSON
{
  "server": "localhost:49152",
  "username": "branan-bot",
  "password_env": "BRANAN_BOT_PASSWORD",
  "offers": [
    {"board_size": $BOARD, "role": "attacker", $TIME},
    {"board_size": $BOARD, "role": "defender", $TIME}
  ],
  "max_games": 1,
  "engine": {"move_time_ms": ${BRANAN_MOVE_MS:-2000}},
  "backoff": {"first_ms": 500, "max_ms": 5000}
}
JSON
BRANAN_BOT_PASSWORD="$BOT_PASSWORD" "$BRANAN" bot --config "$WORK/bot.json" 2>"$WORK/bot.log" &
PIDS="$PIDS $!"

wait "$OPP"

python3 - "$WORK/results.jsonl" <<'PY'
import json, sys
wins = {"branan-bot": 0, "crate-engine": 0, "draw": 0}
for line in open(sys.argv[1]):
    g = json.loads(line)
    if g["result"] == "attacker_wins":
        winner = g["attackers"]
    elif g["result"] == "defender_wins":
        winner = g["defenders"]
    else:
        winner = "draw"
    wins[winner] = wins.get(winner, 0) + 1
    role = "attacker" if g["attackers"] == "branan-bot" else "defender"
    print(f"game {g['game']}: {g['board']}x{g['board']}, branan {role}: {g['result']} "
          f"({g['plies']} plies, {g['seconds']} s)")
print(f"branan {wins['branan-bot']}, crate engine {wins['crate-engine']}, draws {wins['draw']}")
PY
echo "logs: $WORK"
