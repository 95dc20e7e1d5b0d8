#!/usr/bin/env bash
# A load-balanced branan cluster on this machine, under load, surviving a replica's
# death.
#
#   deploy/cluster.sh                 # 3 replicas, 30 s of load, one replica killed
#                                     # (SIGKILL) after 10 s and started again
#   deploy/cluster.sh --replicas 1    # the same load on one replica (no kill)
#   deploy/cluster.sh --batch 300     # instead of wrk: 300 analyses sent by
#                                     # `branan analyze --server`, a replica killed
#                                     # mid-batch; every line answered once, in order
#
# It starts N replicas of the release binary on 127.0.0.1:18081.. and nginx
# (deploy/nginx.conf, with its own prefix under a temporary directory) on
# 127.0.0.1:18080, runs wrk with deploy/load/mixed.lua (legal moves, play and, when
# the service has it, analysis with a short time limit), and prints requests
# completed, failed, throughput and latency percentiles. It stops every process it
# started, whatever happens. Only 127.0.0.1 is ever targeted.
#
# Options:
#   --replicas N      replicas behind nginx (default 3)
#   --duration S      seconds of load (default 30)
#   --connections C   concurrent connections (default 32)
#   --threads T       wrk threads (default 2)
#   --analyze-ms MS   analysis time limit per request (default 20; 0: none)
#   --signal SIG      how the replica is stopped: KILL (default) or TERM
#   --no-kill         do not stop a replica during the run
#   --bin PATH        the branan binary (default: target/release/branan, built
#                     with `cargo build --release` when missing)
#   --round-robin     drop nginx.conf's position hashing (to compare cache hits)
#   --keep            keep the temporary directory (logs) after the run
#   --batch N         the load is a batch of N analysis lines (positions of
#                     deploy/load/positions.tsv, each searched --analyze-ms plus its
#                     index in ms) sent with
#                     `branan analyze --server` and --connections requests in flight;
#                     the replica is killed --duration/3 s after the batch starts
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
replicas=3
duration=30
connections=32
threads=2
analyze_ms=20
signal=KILL
kill_replica=1
bin="$root/target/release/branan"
keep=0
round_robin=0
batch=0
lb_port=18080
first_port=18081

while [ $# -gt 0 ]; do
    case "$1" in
        --replicas) replicas=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --analyze-ms) analyze_ms=$2; shift 2 ;;
        --signal) signal=$2; shift 2 ;;
        --no-kill) kill_replica=0; shift ;;
        --bin) bin=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --round-robin) round_robin=1; shift ;;
        --batch) batch=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "cluster.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$replicas" in ''|*[!0-9]*) echo "cluster.sh: --replicas needs a number" >&2; exit 2 ;; esac
case "$duration" in ''|*[!0-9]*) echo "cluster.sh: --duration needs whole seconds" >&2; exit 2 ;; esac
case "$batch" in ''|*[!0-9]*) echo "cluster.sh: --batch needs a number of lines" >&2; exit 2 ;; esac
case "$signal" in KILL|TERM) ;; *) echo "cluster.sh: --signal is KILL or TERM" >&2; exit 2 ;; esac
if [ "$replicas" -lt 1 ] || [ "$replicas" -gt 9 ]; then
    echo "cluster.sh: --replicas is 1 to 9" >&2; exit 2
fi
if [ "$replicas" -lt 2 ]; then
    kill_replica=0 # the only replica cannot die without failing requests
fi
if [ "$duration" -lt 9 ]; then
    echo "cluster.sh: --duration is at least 9 s" >&2; exit 2
fi

log() { printf '[cluster] %s\n' "$*" >&2; }

# ---- tools -----------------------------------------------------------------------
need_apt=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
[ "$batch" -gt 0 ] || command -v wrk >/dev/null 2>&1 || need_apt+=(wrk)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
if [ ${#need_apt[@]} -gt 0 ]; then
    log "installing ${need_apt[*]} (Debian packages)"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

if [ ! -x "$bin" ]; then
    log "building the release binary (cargo build --release; several minutes on 2 cores)"
    (cd "$root" && cargo build --release --bin branan)
fi

# ---- processes, and their cleanup -----------------------------------------------
work=$(mktemp -d /tmp/branan-cluster.XXXXXX)
chmod 0755 "$work"
declare -a replica_pid=()
nginx_pid=""
wrk_pid=""
sampler_pid=""

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    for pid in "$wrk_pid" "$sampler_pid" "$nginx_pid" "${replica_pid[@]}"; do
        if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
    done
    for pid in "$wrk_pid" "$sampler_pid" "$nginx_pid" "${replica_pid[@]}"; do
        if [ -n "$pid" ]; then wait "$pid" 2>/dev/null || true; fi
    done
    if [ "$keep" -eq 1 ]; then
        log "logs kept in $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_of() { echo $((first_port + $1)); }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for i in $(seq 0 $((replicas - 1))) lb; do
    if [ "$i" = lb ]; then p=$lb_port; else p=$(port_of "$i"); fi
    if ! port_free "$p"; then
        echo "cluster.sh: 127.0.0.1:$p is already in use; stop what listens there" >&2
        exit 1
    fi
done

start_replica() {
    local i=$1 port
    port=$(port_of "$i")
    # wrk keeps at most $connections requests in flight, so a search queue that
    # long means every analysis is accepted and waits its turn (the default queue
    # answers 503 to a burst beyond threads + 8; that is overload, not failure,
    # and scripts of the hardening part measure it).
    BRANAN_BIND="127.0.0.1:$port" BRANAN_LOG=warn BRANAN_SEARCH_QUEUE="$connections" \
        "$bin" serve >>"$work/replica-$i.log" 2>&1 &
    replica_pid[i]=$!
    echo "$i ${replica_pid[$i]}" >>"$work/pids"
}

wait_ready() {
    local url=$1 tries=0
    until curl -fs -o /dev/null --max-time 1 "$url"; do
        tries=$((tries + 1))
        if [ $tries -ge 100 ]; then
            echo "cluster.sh: $url never answered; see $work" >&2
            keep=1
            exit 1
        fi
        sleep 0.1
    done
}

log "starting $replicas replica(s) of $bin"
for i in $(seq 0 $((replicas - 1))); do start_replica "$i"; done
for i in $(seq 0 $((replicas - 1))); do wait_ready "http://127.0.0.1:$(port_of "$i")/readyz"; done

# nginx: deploy/nginx.conf itself, with this run's replicas and listen address.
mkdir -p "$work/nginx/logs" "$work/nginx/tmp"
chmod 0777 "$work/nginx/tmp" # the workers run as `nobody` when started by root
servers=""
for i in $(seq 0 $((replicas - 1))); do
    servers+="        server 127.0.0.1:$(port_of "$i") max_fails=2 fail_timeout=5s;\n"
done
awk -v servers="$servers" '
    /# replicas-begin/ { print; printf "%s", servers; skip = 1; next }
    /# replicas-end/   { skip = 0 }
    !skip
' "$root/deploy/nginx.conf" |
    sed "s/listen 127\.0\.0\.1:8080;/listen 127.0.0.1:$lb_port;/" |
    if [ "$round_robin" -eq 1 ]; then grep -v '^ *hash [$]branan_key consistent;'; else cat; fi \
        >"$work/nginx/nginx.conf"
grep -q "listen 127.0.0.1:$lb_port;" "$work/nginx/nginx.conf" ||
    { echo "cluster.sh: deploy/nginx.conf has no 'listen 127.0.0.1:8080;' line" >&2; exit 1; }
"$nginx_bin" -q -t -p "$work/nginx/" -c "$work/nginx/nginx.conf" 2>"$work/nginx/test.log" ||
    { cat "$work/nginx/test.log" >&2; exit 1; }
"$nginx_bin" -p "$work/nginx/" -c "$work/nginx/nginx.conf" -g 'daemon off;' \
    2>>"$work/nginx/stderr.log" &
nginx_pid=$!
wait_ready "http://127.0.0.1:$lb_port/readyz"
log "nginx on 127.0.0.1:$lb_port in front of 127.0.0.1:$(port_of 0)..$(port_of $((replicas - 1)))"

# Analysis joins the load when the service has it (a 2xx for a tiny request).
if [ "$analyze_ms" -gt 0 ]; then
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
        -H 'Content-Type: application/json' \
        -d "{\"variant\":\"brandubh\",\"time_ms\":$analyze_ms}" \
        "http://127.0.0.1:$lb_port/v1/analyze" || true)
    case "$code" in
        2??) log "mix: legal moves, play, analysis ($analyze_ms ms), variants" ;;
        *) log "POST /v1/analyze answered $code: mix without analysis"; analyze_ms=0 ;;
    esac
else
    log "mix: legal moves, play, variants"
fi

# ---- the run -------------------------------------------------------------------
# Sample each replica's memory (peak RSS) and CPU time while the load runs.
sample() {
    while true; do
        # Replica ids and pids, a restarted replica's newest pid last.
        while read -r i pid; do
            if [ -r "/proc/$pid/status" ]; then
                awk -v i="$i" '/^VmRSS:/ { print i, $2 }' "/proc/$pid/status" 2>/dev/null || true
            fi
        done <"$work/pids" >>"$work/rss.txt"
        sleep 0.5
    done
}
cpu_ticks() { # utime + stime of a process, in clock ticks
    awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

declare -a ticks_before=()
for i in "${!replica_pid[@]}"; do ticks_before[i]=$(cpu_ticks "${replica_pid[$i]}"); done
sample &
sampler_pid=$!

if [ "$batch" -gt 0 ]; then
    # N lines cycling through the positions, each asking a little longer than the
    # one before.
    awk -F '\t' -v n="$batch" -v ms="$analyze_ms" 'BEGIN { c = 0 }
        !/^#/ && NF >= 2 { v[c] = $1; p[c] = $2; c++ }
        END { for (i = 0; i < n; i++)
            printf "{\"id\":%d,\"variant\":\"%s\",\"position\":\"%s\",\"time_ms\":%d}\n",
                i, v[i % c], p[i % c], ms + i + 1 }' "$root/deploy/load/positions.tsv" >"$work/batch.in"
    log "load: branan analyze --server http://127.0.0.1:$lb_port --threads $connections, $batch lines"
    "$bin" analyze --server "http://127.0.0.1:$lb_port" --threads "$connections" \
        --progress-every 5 <"$work/batch.in" >"$work/batch.out" 2>"$work/wrk.txt" &
else
    log "load: wrk -t$threads -c$connections -d${duration}s for ${duration} s"
    wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 15s \
        -s "$root/deploy/load/mixed.lua" "http://127.0.0.1:$lb_port" \
        -- "$root/deploy/load/positions.tsv" "$analyze_ms" >"$work/wrk.txt" 2>&1 &
fi
wrk_pid=$!
started=$(date +%s)

restarted_ticks=0
if [ "$kill_replica" -eq 1 ]; then
    victim=$((replicas / 2))
    kill_at=$((duration / 3))
    sleep "$kill_at"
    old=${replica_pid[$victim]}
    log "t=$(($(date +%s) - started))s: SIG$signal to replica $victim (127.0.0.1:$(port_of "$victim"), pid $old)"
    restarted_ticks=$(cpu_ticks "$old")
    kill -s "$signal" "$old"
    wait "$old" 2>/dev/null || true
    sleep 5
    start_replica "$victim"
    log "t=$(($(date +%s) - started))s: replica $victim started again (pid ${replica_pid[$victim]})"
    wait_ready "http://127.0.0.1:$(port_of "$victim")/readyz"
    log "t=$(($(date +%s) - started))s: replica $victim ready"
fi

load_status=0
wait "$wrk_pid" || load_status=$?
wrk_pid=""
elapsed=$(($(date +%s) - started))
if [ "$load_status" -ne 0 ]; then
    cat "$work/wrk.txt" >&2
    echo "FAILED: the load ended with status $load_status" >&2
    keep=1
    exit 1
fi

# ---- report --------------------------------------------------------------------
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
sampler_pid=""

hz=$(getconf CLK_TCK)
echo
if [ "$batch" -gt 0 ]; then
    echo "==== branan cluster: $replicas replica(s), $(nproc) cores, a batch of $batch lines, $connections in flight ===="
else
    echo "==== branan cluster: $replicas replica(s), $(nproc) cores, ${duration} s, $connections connections ===="
fi
if [ "$kill_replica" -eq 1 ]; then
    echo "replica $victim got SIG$signal at ~${kill_at} s and was started again 5 s later"
fi
if [ "$batch" -gt 0 ]; then
    # Every line answered once and in order: the answers' ids are 0..N-1.
    answered=$(wc -l <"$work/batch.out")
    in_order=$(awk '{ if (match($0, /"id":[0-9]+}$/)) { id = substr($0, RSTART + 5, RLENGTH - 6) + 0; if (id != NR - 1) bad++ } else bad++ }
        END { print (NR > 0 && bad == 0) ? "yes" : "no" }' "$work/batch.out")
    problems=$(grep -c '"type":"/problems/' "$work/batch.out" || true)
    echo "batch: $answered of $batch lines answered in $elapsed s, in input order with each id once: $in_order; $problems problems"
    tail -n 1 "$work/wrk.txt"
    if [ "$answered" -ne "$batch" ] || [ "$in_order" != yes ] || [ "$problems" -ne 0 ]; then
        echo "FAILED: the batch lost, doubled or misordered lines" >&2
        keep=1
        exit 1
    fi
else
    sed -n '/^---- load summary ----$/,$p' "$work/wrk.txt" | tail -n +2
fi
# Per replica: answered requests (nginx's access log), CPU and peak memory.
"$nginx_bin" -p "$work/nginx/" -c "$work/nginx/nginx.conf" -s reopen 2>/dev/null || true
sleep 2.5 # the access log is buffered (flush=2s)
for i in "${!replica_pid[@]}"; do
    port=$(port_of "$i")
    # The replica that gave the answer: the last address of $upstream_addr.
    answered=$(awk -v want="127.0.0.1:$port" '{
            line = $0
            sub(/.* upstream=/, "", line); sub(/ ustatus=.*/, "", line)
            n = split(line, a, ", ")
            if (a[n] == want) c++
        } END { print c + 0 }' "$work/nginx/logs/access.log")
    ticks=$(($(cpu_ticks "${replica_pid[$i]}") - ${ticks_before[$i]:-0}))
    if [ "$kill_replica" -eq 1 ] && [ "$i" -eq "$victim" ]; then
        ticks=$(cpu_ticks "${replica_pid[$i]}")
        ticks=$((ticks + restarted_ticks - ${ticks_before[$i]:-0}))
    fi
    rss=$(awk -v i="$i" '$1 == i && $2 > m { m = $2 } END { printf "%d", m / 1024 }' "$work/rss.txt")
    # The analysis cache, from the replica's /metrics (since its last start).
    cache=$(curl -fs --max-time 2 "http://127.0.0.1:$port/metrics" | awk '
        $1 == "branan_analysis_cache_hits" { h = $2 }
        $1 == "branan_analysis_cache_misses" { m = $2 }
        END { if (h != "" || m != "") printf ", analysis cache %d hits / %d misses", h, m }' || true)
    awk -v i="$i" -v p="$port" -v n="$answered" -v t="$ticks" -v hz="$hz" -v s="$elapsed" -v r="$rss" -v c="$cache" \
        'BEGIN { printf "replica %d (127.0.0.1:%s): %d requests answered, %.2f cores average, peak RSS %d MiB%s\n", i, p, n, t / hz / s, r, c }'
done
retried=$(grep -c 'upstream=[^ ]*, ' "$work/nginx/logs/access.log" || true)
upstream_errors=$(grep -c 'while connecting to upstream\|while reading response header from upstream\|upstream prematurely closed' "$work/nginx/logs/error.log" || true)
echo "nginx: $retried requests retried on another replica; $upstream_errors upstream errors logged"
echo "(command: deploy/cluster.sh --replicas $replicas --duration $duration --connections $connections --analyze-ms $analyze_ms$([ "$kill_replica" -eq 1 ] && echo " --signal $signal")$([ "$round_robin" -eq 1 ] && echo " --round-robin")$([ "$batch" -gt 0 ] && echo " --batch $batch"))"

[ "$batch" -gt 0 ] && exit 0
failed=$(sed -n 's/^failed: *\([0-9]*\).*/\1/p' "$work/wrk.txt")
if [ "${failed:-1}" -ne 0 ]; then
    echo "FAILED: $failed requests failed" >&2
    keep=1
    exit 1
fi
