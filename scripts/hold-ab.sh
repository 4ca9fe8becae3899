#!/bin/bash
# Two checkouts' hold routes loaded at the same time, each by its own load
# tool with ../shared/bench/sidebyside.sh's hold load (16 users, spread,
# HOLD_RATE=0 HOLD_SEATS_PER_ADDRESS=0, SEAT_GAPS=allow unless set): server
# CPU per request of each, by /proc. On a shared, noisy machine the noise
# then falls on both, where runs of the script in turns differ by more than
# the change (docs/PERFORMANCE.md). Both share the cores, so the figures are
# higher than the script's.
# Usage: scripts/hold-ab.sh CHECKOUT_A CHECKOUT_B [reps, default 3]
set -u
A=$1; B=$2; REPS=${3:-3}
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
for x in A B; do d=${!x}; (cd "$d" && make -s build BIN="$W/bo$x" >/dev/null) || exit 1; done
(cd "$B" && go build -o "$W/loadtest" ./cmd/loadtest) || exit 1
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
tck=$(getconf CLK_TCK)
for rep in $(seq $REPS); do
  declare -A pid prt c0
  for x in A B; do
    rm -f "$W"/$x.db*
    "$W/bo$x" seed --shows 4 --rows 20 --cols 25 --database-url "sqlite:$W/$x.db" > "$W/shows$x" 2>/dev/null
    prt[$x]=$(port)
    HOLD_RATE=0 HOLD_SEATS_PER_ADDRESS=0 SEAT_GAPS=${SEAT_GAPS:-allow} ADDR=127.0.0.1:${prt[$x]} DATABASE_URL="sqlite:$W/$x.db" SEED_DEMO=false PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 "$W/bo$x" serve >"$W/serve$x.log" 2>&1 &
    pid[$x]=$!
  done
  for x in A B; do for i in $(seq 50); do curl -sf "http://127.0.0.1:${prt[$x]}/readyz" >/dev/null && break; sleep 0.1; done; done
  for x in A B; do c0[$x]=$(cpu ${pid[$x]}); done
  for x in A B; do "$W/loadtest" -url "http://127.0.0.1:${prt[$x]}" -show "$(sed -n 1p "$W/shows$x")" -users 16 -duration 10s -mode spread -release 0 > "$W/lt$x.txt" 2>&1 & done
  wait $(jobs -p | grep -v -e ${pid[A]} -e ${pid[B]}) 2>/dev/null
  line="rep $rep"
  for x in A B; do
    c1=$(cpu ${pid[$x]}); n=$(awk '/requests in/{print $1}' "$W/lt$x.txt"); r=$(awk '$1=="held"{print $3}' "$W/lt$x.txt")
    line="$line | $x $(python3 -c "print(round((${c1}-${c0[$x]})*1e6/$tck/max($n,1)))")µs ${r}/s"
    kill ${pid[$x]}; wait ${pid[$x]} 2>/dev/null
  done
  echo "$line"
done
