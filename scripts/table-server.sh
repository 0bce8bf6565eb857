# Sourced by the table server's benchmarks (online-bench.sh, server-cpu.sh): one way to start
# `dicetable serve` for a load and to read its CPU time.
#
# start_table_server ROOMS CLIENTS [SERVE ARGS...] starts "$bin" serve on a free loopback port
# with a fresh store, the per-address limit raised to hold every client (should they all connect
# from 127.0.0.1: `--from one`), and waits until it listens. The store is a SQLite folder (under
# BENCH_DATA_DIR if set), or with STORE=nats a `nats-server -js` of its own on loopback (Debian's,
# installed if missing) that the server keeps its rooms in (`serve --nats`). It sets server (the
# PID), url, data (the folder) and log, and nats (the NATS server's PID, or empty); on exit the
# servers are stopped and the folder, the log and any file added to scratch_files are removed.
# server_cpu prints the table server's CPU seconds so far, nats_cpu the NATS server's, and
# stored_entries the entries the store holds (each throw is one once everyone has joined).
scratch_files=()
nats=""

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_table_server() {
  local rooms=$1 clients=$2
  shift 2
  data=$(mktemp -d ${BENCH_DATA_DIR:+-p "$BENCH_DATA_DIR"})
  log=$(mktemp)
  local store=(--data "$data")
  if [ "${STORE:-sqlite}" = nats ]; then
    ensure_packages $NATS_PACKAGES
    local port
    port=$(free_port) nats_monitor=$(free_port)
    "$(command -v nats-server || echo /usr/sbin/nats-server)" -js -a 127.0.0.1 -p "$port" -m "$nats_monitor" -sd "$data" > /dev/null 2>&1 &
    nats=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    store=(--nats "nats://127.0.0.1:$port")
  fi
  "$bin" serve --listen 127.0.0.1:0 "${store[@]}" --per-address $((rooms * clients + 16)) "$@" > "$log" 2>&1 &
  server=$!
  trap 'kill $server ${nats:+$nats} 2>/dev/null; wait 2>/dev/null; rm -rf "$data" "$log" "${scratch_files[@]}"' EXIT
  for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$log")
  [ -n "$url" ] || { echo "error: the table server did not start:" >&2; cat "$log" >&2; exit 1; }
}

cpu_of() {
  awk -v t="$(getconf CLK_TCK)" '{print ($14+$15)/t}' "/proc/$1/stat"
}

server_cpu() {
  cpu_of "$server"
}

nats_cpu() {
  if [ -n "$nats" ]; then cpu_of "$nats"; else echo 0; fi
}

stored_entries() {
  if [ -n "$nats" ]; then
    # Every entry is one message of the bucket's stream (JetStream's monitoring page).
    python3 - "$nats_monitor" <<'PY'
import json, sys, urllib.request
page = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/jsz?streams=true"))
print(sum(s["state"]["messages"] for a in page.get("account_details", []) for s in a.get("stream_detail", [])))
PY
  else
    python3 - "$data" <<'PY'
import glob, sqlite3, sys
print(sum(sqlite3.connect(f"file:{f}?mode=ro", uri=True).execute("select count(*) from entries").fetchone()[0]
          for f in set(glob.glob(f"{sys.argv[1]}/**/*.sqlite", recursive=True))))
PY
  fi
}
