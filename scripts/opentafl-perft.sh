#!/usr/bin/env bash
# Perft by OpenTafl's own rules engine beside branan's, for rules strings: the
# counts that tests/data/opentafl-variants.txt records (its third column), so that
# CI needs no Java. A check to run by hand where OpenTafl's source is at hand: it
# is a test tool, never built into branan, never a CI step.
#
#   scripts/opentafl-perft.sh OPENTAFL_SRC DEPTH [RULES...]
#   scripts/opentafl-perft.sh OPENTAFL_SRC games [RULES...] > tests/data/opentafl-games.tsv
#
# `games` prints random games played by OpenTafl's rules (GAMES=3 a rules string,
# SEED=1, MAX_PLIES=200): the legal moves, captures and verdict at every ply, which
# the test suite replays through branan (tests/rules/opentafl_games.rs).
# Without RULES, every rules string of tests/data/opentafl-variants.txt that
# branan plays. Needs a JDK and Debian's libini4j-java, libjline2-java and
# libjsonp-java (OpenTafl's sources name them). Prints, per rules string, OpenTafl's
# counts and branan's, and `same` or `DIFFERENT`; exits non-zero on a difference.
set -euo pipefail

src=${1:?usage: scripts/opentafl-perft.sh OPENTAFL_SRC DEPTH [RULES...]}
depth=${2:?usage: scripts/opentafl-perft.sh OPENTAFL_SRC DEPTH [RULES...]}
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
out=$here/target/opentafl-perft
mkdir -p "$out"

jars=$src/lib/lanterna.jar
for j in ini4j jline2 javax.json javax.json-api; do
    jars=$jars:/usr/share/java/$j.jar
done
if [ ! -f "$out/OpenTaflPerft.class" ] \
    || [ "$here/scripts/opentafl-perft/OpenTaflPerft.java" -nt "$out/OpenTaflPerft.class" ]; then
    echo "building OpenTafl's rules and the perft harness in $out" >&2
    # Two internal JDK packages OpenTafl's network code names.
    javac -nowarn -encoding UTF-8 -d "$out" -sourcepath "$src/src" -cp "$jars" \
        --add-exports java.xml/com.sun.org.apache.xerces.internal.impl.dv.util=ALL-UNNAMED \
        --add-exports java.base/sun.net=ALL-UNNAMED \
        "$here/scripts/opentafl-perft/OpenTaflPerft.java"
fi

bin=${BRANAN:-$here/target/release/branan}
if [ ! -x "$bin" ]; then
    (cd "$here" && cargo build --release --bin branan)
fi

if [ $# -eq 0 ]; then
    mapfile -t rules < <(grep -v '^#' "$here/tests/data/opentafl-variants.txt" \
        | grep -v '^refused' | grep -v '^$' | cut -f2)
else
    rules=("$@")
fi

if [ "$depth" = games ]; then
    seed=${SEED:-1}
    for r in "${rules[@]}"; do
        java -cp "$out:$jars" OpenTaflPerft "$r" games "${GAMES:-3}" "$seed" "${MAX_PLIES:-200}"
        seed=$((seed + 1))
    done
    exit 0
fi

status=0
for r in "${rules[@]}"; do
    theirs=$(java -cp "$out:$jars" OpenTaflPerft "$r" "$depth" | awk '{print $2}' | paste -sd,)
    ours=$(for d in $(seq 1 "$depth"); do "$bin" perft --rules "$r" --depth "$d" 2>/dev/null | tail -1 | awk '{print $NF}'; done | paste -sd,)
    verdict=same
    if [ "$theirs" != "$ours" ]; then
        verdict=DIFFERENT
        status=1
    fi
    printf '%s\topentafl %s\tbranan %s\t%s\n' "$verdict" "$theirs" "$ours" "$r"
done
exit $status
