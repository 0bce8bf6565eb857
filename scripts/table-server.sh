# Sourced by the table server's benchmarks (online-bench.sh, server-cpu.sh): one way to start
# `dicetable serve` for a load and to read its CPU time.
#
# start_table_server ROOMS CLIENTS [SERVE ARGS...] starts "$bin" serve on a free loopback port
# with a fresh SQLite folder (under BENCH_DATA_DIR if set), the per-address limit raised to hold
# every client (should they all connect from 127.0.0.1: `--from one`), and waits until it listens. It sets server (the
# PID), url, data (the folder) and log; on exit the server is stopped and the folder, the log and
# any file added to scratch_files are removed. server_cpu prints the server's CPU seconds so far.
scratch_files=()

start_table_server() {
  local rooms=$1 clients=$2
  shift 2
  data=$(mktemp -d ${BENCH_DATA_DIR:+-p "$BENCH_DATA_DIR"})
  log=$(mktemp)
  "$bin" serve --listen 127.0.0.1:0 --data "$data" --per-address $((rooms * clients + 16)) "$@" > "$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$data" "$log" "${scratch_files[@]}"' EXIT
  for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$log")
}

server_cpu() {
  awk -v t="$(getconf CLK_TCK)" '{print ($14+$15)/t}' "/proc/$server/stat"
}
