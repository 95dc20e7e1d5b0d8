# Sourced by the load scripts: start a branan of this checkout on a free loopback
# port, stop it on exit. After `start_branan [env assignments...]`: $port, $pid, $log.
# BRANAN_BIN uses that binary instead of building the release one.

port=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

start_branan() {
    local bin=${BRANAN_BIN:-}
    if [ -z "$bin" ]; then
        cargo build --quiet --release --bin branan
        bin=target/release/branan
    fi
    log=$(mktemp -t branan-load.XXXXXX.log)
    env BRANAN_BIND="127.0.0.1:$port" BRANAN_LOG=warn "$@" "$bin" serve >"$log" 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "branan did not become healthy on port $port" >&2
    exit 1
}
