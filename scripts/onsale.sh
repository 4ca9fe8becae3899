#!/bin/bash
# An on-sale crowd (SPEC §18): BROWSERS browsers (default 5000) arrive over
# RAMP (default 60s) at one 20×25 show served by two boxoffice processes on
# one SQLite file; BUYERS of them (default 0.3) hold the best seats for a
# party of 1–4 in one step, the others watch the map, polling it every 5 s as
# the page does. Every browser has its own cookies and X-Forwarded-For
# address (the processes trust loopback), and HOLD_RATE=0
# HOLD_SEATS_PER_ADDRESS=0 take the per-address limits out of the way. With
# ONSALE=N (a minute) the show is behind an on-sale opening 10 s in, and the
# browsers wait in its queue first. Prints the load tool's report: latencies
# (route count per-s p50 p90 p99 max), polls 304/200, buyers who lost every
# try, when the show sold out, timeouts and 5xx, and the CPU of the tool
# beside each process's. Don't run the 5,000 on a shared 2-core machine more
# than once in a while.
# Usage: [BROWSERS=N] [BUYERS=F] [RAMP=D] [ONSALE=N] scripts/onsale.sh [CHECKOUT, default .] [DURATION, default 3m]
set -eu
P=$(cd "${1:-.}" && pwd); DUR=${2:-3m}
BROWSERS=${BROWSERS:-5000}; BUYERS=${BUYERS:-0.3}; RAMP=${RAMP:-60s}; ONSALE=${ONSALE:-0}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
(cd "$P" && make -s build BIN="$W/boxoffice" >/dev/null && go build -o "$W/loadtest" ./cmd/loadtest)
onsale=()
if [ "$ONSALE" != 0 ]; then onsale=(-onsale "$ONSALE" -onsale-opens 10s); fi
"$W/loadtest" journey -bin "$W/boxoffice" -db "$W/onsale.db" -procs 2 -rows 20 -cols 25 \
  -browsers "$BROWSERS" -buyers "$BUYERS" -ramp "$RAMP" -duration "$DUR" -progress 10s \
  -env HOLD_RATE=0 -env HOLD_SEATS_PER_ADDRESS=0 "${onsale[@]}"
