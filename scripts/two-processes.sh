#!/bin/bash
# Two boxoffice processes on one SQLite file, one load tool (USERS, default 16,
# spread mode, no rate limit) against each, for DURATION; prints each load
# tool's first line and its "held" row (count per-s p50 p90 p99 max).
# Usage: [USERS=N] scripts/two-processes.sh [CHECKOUT, default .] [DURATION, default 60s]
set -eu
P=$(cd "${1:-.}" && pwd); DUR=${2:-60s}; USERS=${USERS:-16}
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
(cd "$P" && make -s build BIN="$W/boxoffice" >/dev/null && go build -o "$W/loadtest" ./cmd/loadtest)
"$W/boxoffice" seed --shows 2 --rows 20 --cols 25 --database-url "sqlite:$W/p.db" > "$W/shows" 2>/dev/null
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
ports=()
for i in 1 2; do
  p=$(port); ports+=("$p")
  HOLD_RATE=0 SEAT_GAPS=allow HOLD_SEATS_PER_ADDRESS=0 ADDR=127.0.0.1:$p DATABASE_URL="sqlite:$W/p.db" \
    SEED_DEMO=false PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 "$W/boxoffice" serve >"$W/serve$i.log" 2>&1 &
done
for p in "${ports[@]}"; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
done
for i in 1 2; do
  "$W/loadtest" -url "http://127.0.0.1:${ports[$((i-1))]}" -show "$(sed -n ${i}p "$W/shows")" \
    -users "$USERS" -duration "$DUR" -mode spread -release 0 > "$W/lt$i.txt" 2>&1 &
done
wait $(jobs -p | tail -2) 2>/dev/null || true
sleep 1
for i in 1 2; do
  echo "process $i: $(head -1 "$W/lt$i.txt")"
  grep -E '^(held|count|[[:space:]]+count)' "$W/lt$i.txt" | head -2
done
