#!/usr/bin/env bash
# Runs the cargo-fuzz targets one after the other, each for SECONDS
# (default 240), and prints libFuzzer's closing figures for each.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   # targets: position move_text play rules_string rule_set
#
# Needs `cargo install cargo-fuzz` and a nightly toolchain. New corpus entries go to
# fuzz/corpus/<target>/ (git-ignored); a failing input is written to
# fuzz/artifacts/<target>/ and the script stops with libFuzzer's report. Keep what
# matters under fuzz/regressions/<target>/: tests/rules/fuzz_regressions.rs replays it.
#
# `play`, `rules_string` and `rule_set` run without AddressSanitizer (`-s none`): the rules are safe Rust, and the
# sanitizer would cut its executions per second by half.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-240}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(position move_text play rules_string rule_set)

for t in "${targets[@]}"; do
    args=(-max_total_time="$seconds" -print_final_stats=1)
    sanitizer=()
    case $t in
        position) args+=(-dict=fuzz/dict/position.dict -max_len=512) ;;
        move_text) args+=(-dict=fuzz/dict/move_text.dict -max_len=128) ;;
        play) args+=(-max_len=1024); sanitizer=(-s none) ;;
        rules_string) args+=(-dict=fuzz/dict/rules_string.dict -max_len=512); sanitizer=(-s none) ;;
        rule_set) args+=(-dict=fuzz/dict/position.dict -max_len=256); sanitizer=(-s none) ;;
        *) echo "unknown target $t" >&2; exit 2 ;;
    esac
    mkdir -p "fuzz/corpus/$t"
    log="fuzz/artifacts/$t.log"
    mkdir -p fuzz/artifacts
    echo "== $t: ${seconds}s" >&2
    cargo +nightly fuzz run "${sanitizer[@]}" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" \
        "fuzz/regressions/$t" -- "${args[@]}" >"$log" 2>&1 || {
        tail -n 40 "$log" >&2
        echo "$t: failure; the input is in fuzz/artifacts/$t/" >&2
        exit 1
    }
    grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)' "$log"
    grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true
done
