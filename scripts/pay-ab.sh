#!/bin/bash
# The Pay route (POST /holds/{id}/pay, the sandbox provider: 303 to its
# checkout page) of two checkouts side by side: server CPU per Pay, and per
# hold, of each. Both binaries serve at once, each on its own fresh SQLite
# file (500-seat shows, HOLD_RATE=0 HOLD_SEATS_PER_ADDRESS=0
# SEAT_GAPS=allow), and scripts/payab loads both at the same time: N fresh
# visitors (own cookie jar) each get the seat map, hold 2 seats, get the
# checkout and Pay with its form as a browser sends it (_csrf, email, and
# each seat's type_<seatID> as selected where the checkout has them), each
# step one batch for all visitors, the server's CPU read from /proc before
# and after each batch; so the Pay figure is the Pays' alone. The server's
# idle background (printed first) is in the figures too.
# A checkout may be a directory or a revision of this repository (e.g.
# ea8a4f2): a revision is built in a temporary detached worktree, with
# node_modules and static/vendor copied from this checkout, removed at the
# end. Each rep starts both servers afresh; reps alternate which of the two
# the load lists first.
# Usage: scripts/pay-ab.sh CHECKOUT_A CHECKOUT_B [N, default 300] [reps, default 1]
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
N=${3:-300}; REPS=${4:-1}
W=$(mktemp -d)
trees=()
cleanup() {
  kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
  for t in "${trees[@]}"; do git -C "$R" worktree remove --force "$t"; done
  rm -rf "$W"
}
trap cleanup EXIT
build() { # arg out: builds checkout or revision arg into out
  local d=$1
  if [ ! -d "$d" ]; then
    git -C "$R" rev-parse --verify -q "$1^{commit}" >/dev/null || { echo "$1: neither a directory nor a revision" >&2; return 1; }
    d="$W/tree-$1"
    git -C "$R" worktree add -q --detach "$d" "$1" || return 1
    trees+=("$d")
    # Copied, not linked: their new mtimes are what tells make that npm ci
    # is not needed.
    [ -d "$R/node_modules" ] && cp -r "$R/node_modules" "$d/"
    mkdir -p "$d/static/vendor" && cp "$R"/static/vendor/*.js "$d/static/vendor/" 2>/dev/null
  fi
  (cd "$d" && make -s build BIN="$2" >/dev/null)
}
build "$1" "$W/boA" || exit 1
build "$2" "$W/boB" || exit 1
(cd "$R" && go build -o "$W/payab" ./scripts/payab) || exit 1
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
tck=$(getconf CLK_TCK)
shows=$(( (N + 249) / 250 ))
declare -A name=([A]="$1" [B]="$2")
for rep in $(seq "$REPS"); do
  declare -A pid prt c0
  for x in A B; do
    rm -rf "$W/$x"; mkdir "$W/$x"
    "$W/bo$x" seed --shows "$shows" --rows 20 --cols 25 --database-url "sqlite:$W/$x/p.db" > "$W/$x/shows" 2>/dev/null || { echo "seed $x failed" >&2; exit 1; }
    prt[$x]=$(port)
    HOLD_RATE=0 HOLD_SEATS_PER_ADDRESS=0 SEAT_GAPS=allow ADDR=127.0.0.1:${prt[$x]} DATABASE_URL="sqlite:$W/$x/p.db" \
      SEED_DEMO=false PAYMENT_WEBHOOK_SECRET=0123456789abcdef0123 "$W/bo$x" serve >"$W/$x/serve.log" 2>&1 &
    pid[$x]=$!
  done
  for x in A B; do for _ in $(seq 100); do curl -sf "http://127.0.0.1:${prt[$x]}/readyz" >/dev/null && break; sleep 0.1; done; done
  for x in A B; do c0[$x]=$(cpu ${pid[$x]}); done
  sleep 3
  idle="rep $rep idle:"
  for x in A B; do idle="$idle $x $(python3 -c "print(f'{($(cpu ${pid[$x]})-${c0[$x]})*1e3/$tck/3:.1f}')") ms/s"; done
  echo "$idle"
  args=()
  order="A B"; [ $((rep % 2)) = 0 ] && order="B A"
  for x in $order; do args+=("$x=${name[$x]}" "http://127.0.0.1:${prt[$x]}" "${pid[$x]}" "$W/$x/shows"); done
  "$W/payab" -n "$N" "${args[@]}" | sed "s/^/rep $rep /" || { for x in A B; do tail -5 "$W/$x/serve.log" >&2; done; exit 1; }
  for x in A B; do kill ${pid[$x]}; wait ${pid[$x]} 2>/dev/null; done
done
