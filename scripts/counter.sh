#!/bin/bash
# How long a sale at the box office (SPEC §16) takes, in requests and in
# server CPU, against the real binary: one process on a fresh SQLite file
# with 500-seat shows (20×25, as many as the sales need), a staff account
# signed in once, then N sales of 4 seats for cash, each two requests as
# the counter's forms post them: the counter hold (POST
# /admin/boxoffice/holds, 303 to the hold's page) and Sell (POST
# /admin/boxoffice/holds/{id}/sell, 303 to the sale's page); the hold's id
# is read from the first answer's Location, no redirect is followed. Then
# N more sales as the staff member's browser makes them, following every
# redirect and coming back to the map for the next customer: the hold, its
# sale form, Sell, the sale's page (ticket code, QR code) and the map, the
# pages compressed as a browser asks for them.
# The server's CPU is its user+system time from /proc/PID/stat before and
# after each run (clock ticks, 10 ms each: use a few hundred sales); curl's
# own CPU is not in it, the server's idle background is (printed first, per
# second). Prints one line per run, and the server's CPU by step.
# Usage: scripts/counter.sh [CHECKOUT, default .] [N, default 300]
set -eu
P=$(cd "${1:-.}" && pwd); N=${2:-300}
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
(cd "$P" && make -s build BIN="$W/boxoffice" >/dev/null)
db="sqlite:$W/c.db"
shows=$(( (2 * N * 4 + 499) / 500 ))
"$W/boxoffice" seed --shows "$shows" --rows 20 --cols 25 --database-url "$db" > "$W/shows" 2>/dev/null
echo 'counter-bench-password' | "$W/boxoffice" admin add --email staff@example.com --role staff --database-url "$db" >/dev/null
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
csrf() { sed -n 's/.*<meta name="csrf-token" content="\([^"]*\)".*/\1/p' | head -1; }
pp=$(port); base="http://127.0.0.1:$pp"
ADDR=127.0.0.1:$pp DATABASE_URL="$db" SEED_DEMO=false PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 \
  "$W/boxoffice" serve >"$W/serve.log" 2>&1 &
spid=$!
for _ in $(seq 100); do curl -sf "$base/readyz" >/dev/null && break; sleep 0.1; done
j="$W/staff.jar"
c() { curl -s -c "$j" -b "$j" "$@"; }
tok=$(c "$base/admin/login" | csrf)
c -o /dev/null --data-urlencode "email=staff@example.com" --data-urlencode "password=counter-bench-password" -d "_csrf=$tok" "$base/admin/login"
# Each show's seats in map order, 4 to a sale (the single-gap rule does not
# apply at the counter): "show seat seat seat seat" lines.
: > "$W/sales"
while read -r show; do
  page=$(c "$base/admin/boxoffice?show=$show")
  tok=$(echo "$page" | csrf)
  echo "$page" | grep -o 'name="seat" value="[^"]*"' | sed 's/.*value="\([^"]*\)"/\1/' |
    paste -d' ' - - - - | sed "s/^/$show /" >> "$W/sales"
done < "$W/shows"
[ -n "$tok" ] || { echo "not signed in: no CSRF token on the box office" >&2; exit 1; }
[ "$(wc -l < "$W/sales")" -ge $((2 * N)) ] || { echo "too few seats for $N sales twice" >&2; exit 1; }
hold() { # show seat…: POSTs the counter hold, prints the hold's path
  local show=$1; shift
  local args=(-d "_csrf=$tok" -d "show=$show")
  for s in "$@"; do args+=(-d "seat=$s"); done
  c -o /dev/null -w '%{http_code} %{redirect_url}' "${args[@]}" "$base/admin/boxoffice/holds"
}
fail() { echo "sale $1: $2" >&2; tail -5 "$W/serve.log" >&2; exit 1; }
ticks() { local f; read -r -a f < /proc/$spid/stat; echo $((f[13] + f[14])); }
declare -A spent
step() { # name: adds the server's ticks since the last step to name's
  local now; now=$(ticks); spent[$1]=$(( ${spent[$1]:-0} + now - last )); last=$now
}
run() { # mode first-line: N sales from line first of $W/sales; prints the
  # requests, then the server's ticks per step
  local mode=$1 from=$2 reqs=0 i=0 last
  last=$(ticks)
  while read -r show s1 s2 s3 s4; do
    i=$((i + 1))
    read -r code loc <<<"$(hold "$show" $s1 $s2 $s3 $s4)"
    step hold
    [ "$code" = 303 ] && [[ $loc == */admin/boxoffice/holds/* ]] || fail $i "hold answered $code $loc"
    loc=${loc#"$base"}; reqs=$((reqs + 1))
    if [ "$mode" = browser ]; then c -o /dev/null -f --compressed "$base$loc" || fail $i "sale form"; step form; reqs=$((reqs + 1)); fi
    read -r code sale <<<"$(c -o /dev/null -w '%{http_code} %{redirect_url}' -d "_csrf=$tok" -d method=cash "$base$loc/sell")"
    step sell
    [ "$code" = 303 ] && [[ $sale == */admin/boxoffice/bookings/* ]] || fail $i "Sell answered $code $sale"
    reqs=$((reqs + 1))
    if [ "$mode" = browser ]; then
      c -o /dev/null -f --compressed "$sale" || fail $i "sale page"
      step page
      c -o /dev/null -f --compressed "$base/admin/boxoffice?show=$show" || fail $i "map"
      step map
      reqs=$((reqs + 2))
    fi
  done < <(sed -n "$from,$((from + N - 1))p" "$W/sales")
  echo "$reqs"
  for k in hold form sell page map; do [ -n "${spent[$k]:-}" ] && printf '%s=%s ' $k "${spent[$k]}"; done
  echo
}
report() { # label requests ticks seconds
  python3 -c "
t=$(getconf CLK_TCK); n=$N; r=$2; cpu=$3/t; s=$4
print(f'$1: {n} sales, {r/n:.0f} requests each | server CPU {cpu*1e3/n:.2f} ms a sale, {cpu*1e6/r:.0f} µs a request | wall {s*1e3/n:.1f} ms a sale (curl included)')"
}
# The server's own background (mail outbox, pruning, …) while nobody asks:
# its CPU per second of wall time, in the figures below as well.
c0=$(cpu $spid); sleep 5; c1=$(cpu $spid)
python3 -c "print(f'idle: server CPU {($c1-$c0)*1e3/$(getconf CLK_TCK)/5:.1f} ms a second')"
for mode in posts browser; do
  first=1; [ $mode = browser ] && first=$((N + 1))
  c0=$(cpu $spid); t0=$(date +%s.%N)
  out=$(run $mode $first)
  c1=$(cpu $spid); t1=$(date +%s.%N)
  reqs=$(echo "$out" | sed -n 1p)
  label="hold + Sell (2 POSTs)"; [ $mode = browser ] && label="as the browser (redirects followed, back to the map)"
  report "$label" "$reqs" "$((c1 - c0))" "$(python3 -c "print($t1-$t0)")"
  # Each step's share, from the ticks read around each request (10 ms
  # each: over a few hundred sales their sum is close enough).
  echo "$out" | sed -n 2p | python3 -c "
import sys; t=$(getconf CLK_TCK); n=$N
print('  server CPU by step, ms a sale:', ', '.join(f'{k} {int(v)*1e3/t/n:.2f}' for k, v in (kv.split('=') for kv in sys.stdin.read().split())))"
done
