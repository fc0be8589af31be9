#!/usr/bin/env bash
# share.sh: where a Go app's CPU time goes under load, by layer, from a
# sampled profile: the kernel, net/http, the app with its framework, and
# the Go runtime.
#
#   scripts/share.sh [-d SECONDS] [-c CONNECTIONS] APP PATH [FRAMEWORK_RE]
#   scripts/share.sh vireo-mvc /api/values/5
#
# It builds apps/APP into bin/APP, starts it on CPU 0 (on $PORT, default 5600), loads
# PATH from CPU 1 with bombardier, and records the app with `perf record
# -g -e cpu-clock -C 0` for SECONDS (default 10, after 2 s of warm-up). Every
# sample is put in one class by its call stack, in this order:
#
#   kernel    the sample is in a system call (the network stack, futexes,
#             epoll), or in the kernel with no frame of the app's below it;
#             a timer interrupt that landed on the app's code counts as that
#             code;
#   app       some frame belongs to the app or its framework (main.,
#             github.com/vireo-go/vireo, or FRAMEWORK_RE): the handler and
#             everything it calls, the runtime's allocation included;
#   net/http  otherwise some frame is net/http, net/textproto or net/url:
#             the server's own work, connection reading, parsing, writing;
#   runtime   the rest: the scheduler, netpoll, the garbage collector.
#
# It prints each class's share of all samples and of the user-space ones
# (all but kernel). The net/http row is the share of time that an engine
# below net/http replaces (issue 26's "the share of time net/http takes").
# perf needs kernel.perf_event_paranoid <= 1 or root; Go binaries keep
# frame pointers, so -g unwinds them.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=10
CONNS=125
while getopts "d:c:" opt; do
	case $opt in
	d) DURATION=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	*) sed -n '2,30p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,30p' "$0" >&2; exit 2; }
APP=$1 URLPATH=$2 FRAMEWORK_RE=${3:-}
PORT=${PORT:-5600}
command -v perf >/dev/null || { echo "share.sh: perf not found (apt-get install linux-perf)" >&2; exit 1; }

cd "$BENCH_DIR"
mkdir -p bin
go build -o "bin/$APP" "./apps/$APP"
[ -x bin/bombardier ] || go build -o bin/bombardier github.com/codesenberg/bombardier
work=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
data=${KEEP_PERF:-$work/perf.data} # KEEP_PERF=file keeps the profile
PORT=$PORT taskset -c 0 "bin/$APP" >"$work/app.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
	curl -fsS -o /dev/null "http://127.0.0.1:$PORT$URLPATH" 2>/dev/null && break
	sleep 0.05
done
curl -fsS -o /dev/null "http://127.0.0.1:$PORT$URLPATH"
total=$((DURATION + 3))
taskset -c 1 bin/bombardier -c "$CONNS" -d "${total}s" -p r "http://127.0.0.1:$PORT$URLPATH" >"$work/load.txt" 2>&1 &
load=$!
sleep 2
# CPU 0 as a whole, not -p: Go starts threads while it runs, and a thread
# made after perf attached to the process would not be sampled.
perf record -q -g -e cpu-clock -F 1999 -C 0 -o "$data" -- sleep "$DURATION" 2>/dev/null
wait "$load"
perf script -i "$data" --pid "$pid" -F ip,sym,dso 2>/dev/null | awk -v fw="$FRAMEWORK_RE" -f "$BENCH_DIR/scripts/share.awk"
grep -E "Reqs/sec|2xx" "$work/load.txt" | sed 's/^ */load: /'
