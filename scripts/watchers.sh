#!/bin/bash
# A watcher's poll of the seat map fragment against the same bytes served as a
# constant (../shared/bench/constserve), while holds change seats about a
# hundred times a second: server CPU per request of each, by /proc, and the
# ratio (SPEC §18's goal: at most 2).
# Usage: scripts/watchers.sh [CHECKOUT, default .]   (needs wrk and the shared bench)
set -eu
P=$(cd "${1:-.}" && pwd); here=$(cd "${BENCH:-$P/../shared/bench}" && pwd)
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
(cd "$here/constserve" && go build -o "$W/constserve" .)
(cd "$P" && make -s build BIN="$W/boxoffice" >/dev/null && go build -o "$W/loadtest" ./cmd/loadtest)
"$W/boxoffice" seed --shows 2 --rows 20 --cols 25 --database-url "sqlite:$W/p.db" > "$W/shows" 2>/dev/null
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
pp=$(port)
HOLD_RATE=0 HOLD_SEATS_PER_ADDRESS=0 SEAT_GAPS=allow ADDR=127.0.0.1:$pp DATABASE_URL="sqlite:$W/p.db" SEED_DEMO=false \
  PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 "$W/boxoffice" serve >"$W/serve.log" 2>&1 &
spid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$pp/readyz" >/dev/null && break; sleep 0.1; done
show=$(sed -n 1p "$W/shows"); url="http://127.0.0.1:$pp/shows/$show/seats"
curl -s "$url" > "$W/frag.html"
"$W/loadtest" -url "http://127.0.0.1:$pp" -show "$show" -users 2 -think 10ms -duration 12s -mode spread -release 0 > "$W/lt.txt" 2>&1 &
lt=$!; sleep 1
c0=$(cpu $spid); n=$(wrk -t2 -c64 -d8s "$url" | awk '/requests in/{print $1}'); c1=$(cpu $spid)
wait $lt; holds=$(awk '/requests in/{print $1}' "$W/lt.txt")
kill $spid; wait $spid 2>/dev/null || true
cp_=$(port); "$W/constserve" -file "$W/frag.html" -addr 127.0.0.1:$cp_ >/dev/null 2>&1 & hp=$!; sleep 0.5
k0=$(cpu $hp); m=$(wrk -t2 -c64 -d8s "http://127.0.0.1:$cp_/" | awk '/requests in/{print $1}'); k1=$(cpu $hp)
python3 -c "
t=$(getconf CLK_TCK); poll=($c1-$c0)*1e6/t/max($n,1); const=($k1-$k0)*1e6/t/max($m,1)
print(f'fragment $(wc -c <"$W/frag.html")B | watcher polls {$n/8:.0f}/s, {poll:.0f}µs server CPU each, $holds holds in 12 s meanwhile | constant {$m/8:.0f}/s, {const:.0f}µs | ratio {poll/const:.2f}')"
