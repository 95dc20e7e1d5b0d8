#!/bin/sh
# Reviews every opening of a preset's book (openings/<id>.txt) with `branan review`
# and counts the classes of their moves: a quiet, balanced opening should be mostly
# `best` and `good`, so the count of `mistake` and `blunder` measures how noisy the
# review's judgement is.
#
#   scripts/review_openings.sh brandubh            # 200 ms a position
#   scripts/review_openings.sh tablut 200 target/release/branan
#
# Prints one line per class (its count over all the openings' moves), then
# `mistake+blunder N / MOVES`.
set -eu
variant=${1:?usage: review_openings.sh VARIANT [TIME_MS] [BRANAN]}
time_ms=${2:-200}
bin=${3:-target/release/branan}
book="$(dirname "$0")/../openings/$variant.txt"
[ -f "$book" ] || { echo "no book $book" >&2; exit 2; }

grep -v '^#' "$book" | grep -v '^[[:space:]]*$' | while IFS= read -r line; do
  printf '%s\n' "$line" | "$bin" review --variant "$variant" --time-ms "$time_ms" --json
done | grep -o '"class":"[a-z_]*"' | sort | uniq -c | sort -rn | awk '
  { n[$2] = $1; total += $1 }
  END {
    for (c in n) print n[c], c
    bad = n["\"class\":\"mistake\""] + n["\"class\":\"blunder\""]
    printf "mistake+blunder %d / %d\n", bad, total
  }'
