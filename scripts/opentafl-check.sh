#!/usr/bin/env bash
# Whole games of branan against OpenTafl's own AI, played through OpenTafl's
# own external-engine host (the way a player's OpenTafl runs branan), with no
# terminal UI. A check to run by hand where OpenTafl's source is at hand: it is
# a test tool, never built into branan, never a CI step.
#
#   scripts/opentafl-check.sh OPENTAFL_SRC [GAMES]
#
# OPENTAFL_SRC: a checkout of OpenTafl's source (it is built here with javac into
# OPENTAFL_SRC/out, once; needs a JDK and Debian's libini4j-java, libjline2-java
# and libjsonp-java). branan is taken from $BRANAN, or target/release/branan
# (built if missing). Settings, all optional:
#   VARIANT=Brandub     OpenTafl's name of the rules to play
#   AI_SECONDS=5        OpenTafl's AI: thinking time a move
#   MAIN_SECONDS=120    the clock: main time (0, with no overtime: no clock)
#   OVERTIME_SECONDS=10 OVERTIMES=3   the clock: overtime periods
#   ANALYZE_AFTER=6     after this many plies, ask branan (as the analysis
#                       engine) for `analyze 3 2` once a game (0: never)
#   OUT=target/opentafl-check   records, the conversations, the log
# The last line printed is the summary: games, branan's wins, the AI's, draws.
set -euo pipefail

src=${1:?usage: scripts/opentafl-check.sh OPENTAFL_SRC [GAMES]}
games=${2:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
out=${OUT:-$here/target/opentafl-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)

jars=$src/lib/lanterna.jar
for j in ini4j jline2 javax.json javax.json-api; do
    jars=$jars:/usr/share/java/$j.jar
done

if [ ! -f "$src/out/com/manywords/softworks/tafl/OpenTafl.class" ]; then
    echo "building OpenTafl in $src/out" >&2
    mkdir -p "$src/out"
    # Two internal JDK packages OpenTafl's network code names.
    find "$src/src" -name '*.java' > "$out/opentafl-sources.txt"
    javac -nowarn -encoding UTF-8 -d "$src/out" -cp "$jars" \
        --add-exports java.xml/com.sun.org.apache.xerces.internal.impl.dv.util=ALL-UNNAMED \
        --add-exports java.base/sun.net=ALL-UNNAMED \
        @"$out/opentafl-sources.txt"
fi

bin=${BRANAN:-$here/target/release/branan}
if [ ! -x "$bin" ]; then
    (cd "$here" && cargo build --release --bin branan)
fi

# branan installed as docs/opentafl.md says: the .ini in engines/, the program
# in engines/branan/.
mkdir -p "$src/engines/branan"
cp "$bin" "$src/engines/branan/branan"
cp "$here/deploy/opentafl/branan.ini" "$src/engines/branan.ini"
# The same engine, with the conversation written down: what OpenTafl sent
# (in.*.log), what branan answered (out.*.log) and branan's notes (err.*.log).
mkdir -p "$src/engines/branan-logged"
cat > "$src/engines/branan-logged/run.sh" <<SH
#!/usr/bin/env bash
log=$out/conversations
mkdir -p "\$log"
tee -a "\$log/in.\$\$.log" | ../branan/branan "\$@" 2>>"\$log/err.\$\$.log" | tee -a "\$log/out.\$\$.log"
SH
chmod +x "$src/engines/branan-logged/run.sh"
sed -e 's/^directory=.*/directory=branan-logged/' -e 's/^filename=.*/filename=run.sh/' \
    -e 's|^command=.*|command=./run.sh|' -e 's/^name=.*/name=branan (logged)/' \
    "$here/deploy/opentafl/branan.ini" > "$src/engines/branan-logged.ini"
rm -rf "$out/conversations"

javac -nowarn -d "$out/harness" -cp "$src/out:$jars" "$here/scripts/opentafl-check/OtepMatch.java"
cd "$src"
java -cp "$out/harness:$src/out:$jars" OtepMatch engines/branan-logged.ini \
    "${VARIANT:-Brandub}" "$games" "${AI_SECONDS:-5}" "${MAIN_SECONDS:-120}" \
    "${OVERTIME_SECONDS:-10}" "${OVERTIMES:-3}" "${ANALYZE_AFTER:-6}" "$out/records" \
    2>"$out/opentafl.stderr" | tee "$out/games.log"
