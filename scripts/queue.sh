#!/bin/bash
# A waiting visitor's refresh of the on-sale queue (SPEC §18) against the same
# bytes served as a constant (../shared/bench/constserve): server CPU per
# request of each, by /proc. One process, one show behind an on-sale admitting
# 1 a minute, a few visitors joined; wrk then reloads the queue page's live
# region (/queue/{id}/status, what the page refreshes) and the whole page with
# the cookies of one visitor whose place is known, as the page's own refresh
# does. Prints one line per route.
# Usage: scripts/queue.sh [CHECKOUT, default .]   (needs wrk and the shared bench)
set -eu
P=$(cd "${1:-.}" && pwd); here=$(cd "${BENCH:-$P/../shared/bench}" && pwd)
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
(cd "$here/constserve" && go build -o "$W/constserve" .)
(cd "$P" && make -s build BIN="$W/boxoffice" >/dev/null)
"$W/boxoffice" seed --shows 1 --rows 20 --cols 25 --database-url "sqlite:$W/p.db" > "$W/shows" 2>/dev/null
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
csrf() { sed -n 's/.*<meta name="csrf-token" content="\([^"]*\)".*/\1/p' | head -1; }
pp=$(port); base="http://127.0.0.1:$pp"
ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=correct-horse-battery ADDR=127.0.0.1:$pp DATABASE_URL="sqlite:$W/p.db" \
  SEED_DEMO=false PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 "$W/boxoffice" serve >"$W/serve.log" 2>&1 &
spid=$!
for _ in $(seq 50); do curl -sf "$base/readyz" >/dev/null && break; sleep 0.1; done
show=$(sed -n 1p "$W/shows")
a="$W/admin.jar"
tok=$(curl -s -c "$a" -b "$a" "$base/admin/login" | csrf)
curl -s -o /dev/null -c "$a" -b "$a" -d "email=admin@example.com&password=correct-horse-battery&_csrf=$tok" "$base/admin/login"
tok=$(curl -s -c "$a" -b "$a" "$base/admin/onsales" | csrf)
opens=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
loc=$(curl -s -o /dev/null -w '%{redirect_url}' -c "$a" -b "$a" \
  --data-urlencode "name=Queue bench" --data-urlencode "opens_at=$opens" -d "show=$show&rate=1&pass_ttl=15m&_csrf=$tok" "$base/admin/onsales")
id=${loc##*/}
[ -n "$id" ] || { echo "no on-sale made: $loc" >&2; exit 1; }
for v in 1 2 3 4 5; do
  j="$W/v$v.jar"
  tok=$(curl -s -c "$j" -b "$j" -H "X-Forwarded-For: 10.0.0.$v" "$base/queue/$id" | csrf)
  curl -s -o /dev/null -c "$j" -b "$j" -d "_csrf=$tok" "$base/queue/$id/join"
done
sleep 8 # past T0 and its settling margin: the places are drawn
j="$W/v5.jar"
curl -s -c "$j" -b "$j" "$base/queue/$id" > "$W/page.html"
curl -s -c "$j" -b "$j" "$base/queue/$id/status" > "$W/status.html"
state=$(sed -n 's/.*data-queue-state="\([a-z]*\)".*/\1/p' "$W/status.html" | head -1)
cookie=$(awk '!/^#/ || /^#HttpOnly_/ {if (NF>=7) printf "%s=%s; ", $6, $7}' "$j")
for route in status page; do
  [ $route = status ] && url="$base/queue/$id/status" || url="$base/queue/$id"
  c0=$(cpu $spid); n=$(wrk -t2 -c64 -d8s -H "Cookie: $cookie" "$url" | awk '/requests in/{print $1}'); c1=$(cpu $spid)
  cp_=$(port); "$W/constserve" -file "$W/$route.html" -addr 127.0.0.1:$cp_ >/dev/null 2>&1 & hp=$!; sleep 0.5
  k0=$(cpu $hp); m=$(wrk -t2 -c64 -d8s "http://127.0.0.1:$cp_/" | awk '/requests in/{print $1}'); k1=$(cpu $hp)
  kill $hp; wait $hp 2>/dev/null || true
  python3 -c "
t=$(getconf CLK_TCK); q=($c1-$c0)*1e6/t/max($n,1); k=($k1-$k0)*1e6/t/max($m,1)
print(f'queue $route ($state) $(wc -c <"$W/$route.html")B | {$n/8:.0f}/s, {q:.0f}µs server CPU each | constant {$m/8:.0f}/s, {k:.0f}µs | ratio {q/k:.2f}')"
done
