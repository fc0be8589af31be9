# lib.sh: what the comparison scripts share; sourced, not run.
#
# It parses the common options, builds bombardier from the _benchmarks
# module when bin/bombardier is missing (its version is pinned by go.sum via
# tools.go, so no global install is used), pins the load generator to its
# CPUs with taskset when available, and prints every command before running
# it. These scripts only generate load: start the app first (each app listens
# on 127.0.0.1:$PORT, 5000 by default), ideally pinned to the other CPUs, or
# let the runner (go run ./cmd/bench) do all of it.
#
# Options (also settable as environment variables):
#   --wrk            use wrk instead of bombardier            (TOOL=wrk)
#   --url URL        base URL of the app                      (URL, default http://localhost:5000)
#   --cpus LIST      taskset CPU list of the load generator   (LOAD_CPUS, default: the last CPU)
#   --dry-run        print the commands without running them  (DRY_RUN=1)
#   -c N             connections                              (CONNECTIONS, default 125)
#   -n N             bombardier: number of requests           (REQUESTS, default: the original's)
#   -d DURATION      wrk: duration                            (DURATION, default 10s)
#   -t N             wrk: threads                             (THREADS, default: the number of load CPUs)
#   --cookies        sessions only: the cookie-keeping run    (COOKIES=1)

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPTS_DIR="$BENCH_DIR/scripts"

TOOL=${TOOL:-bombardier}
URL=${URL:-http://localhost:5000}
CONNECTIONS=${CONNECTIONS:-125}
REQUESTS=${REQUESTS:-}
DURATION=${DURATION:-10s}
THREADS=${THREADS:-}
COOKIES=${COOKIES:-0}
DRY_RUN=${DRY_RUN:-0}
LOAD_CPUS=${LOAD_CPUS:-}
WRK_SCRIPT_ARGS=()

usage() {
	sed -n '/^# Options/,/^$/p' "$SCRIPTS_DIR/lib.sh" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

parse_args() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--wrk) TOOL=wrk ;;
		--bombardier) TOOL=bombardier ;;
		--url) URL=${2:?--url needs a value}; shift ;;
		--cpus) LOAD_CPUS=${2:?--cpus needs a value}; shift ;;
		--dry-run) DRY_RUN=1 ;;
		--cookies) COOKIES=1 ;;
		-c) CONNECTIONS=${2:?-c needs a value}; shift ;;
		-n) REQUESTS=${2:?-n needs a value}; shift ;;
		-d) DURATION=${2:?-d needs a value}; shift ;;
		-t) THREADS=${2:?-t needs a value}; shift ;;
		-h | --help) usage ;;
		*) echo "unknown option: $1" >&2; usage ;;
		esac
		shift
	done
	URL=${URL%/}
	case "$TOOL" in bombardier | wrk) ;; *) echo "TOOL must be bombardier or wrk, not $TOOL" >&2; exit 2 ;; esac
}

# pin_prefix prints the taskset prefix for the load generator, or nothing
# when taskset is missing or the machine has a single CPU (pinning both
# server and load to one CPU would only hide contention, not avoid it).
pin_prefix() {
	command -v taskset >/dev/null 2>&1 || return 0
	local cpus
	cpus=$(nproc 2>/dev/null || echo 1)
	if [ -z "$LOAD_CPUS" ]; then
		[ "$cpus" -gt 1 ] || return 0
		LOAD_CPUS=$((cpus - 1))
	fi
	printf 'taskset -c %s ' "$LOAD_CPUS"
}

# load_cpu_count prints how many CPUs LOAD_CPUS names (such as "3", "2-3"
# or "0,2-3"), or 1 when unset.
load_cpu_count() {
	local n=0 part
	[ -n "$LOAD_CPUS" ] || { echo 1; return; }
	IFS=, read -ra parts <<<"$LOAD_CPUS"
	for part in "${parts[@]}"; do
		if [[ $part == *-* ]]; then
			n=$((n + ${part#*-} - ${part%-*} + 1))
		else
			n=$((n + 1))
		fi
	done
	echo "$n"
}

# run prints a command and runs it, unless this is a dry run.
run() {
	printf '+'
	printf ' %q' "$@"
	printf '\n'
	[ "$DRY_RUN" = 1 ] || "$@"
}

ensure_bombardier() {
	BOMBARDIER="$BENCH_DIR/bin/bombardier"
	if [ ! -x "$BOMBARDIER" ]; then
		(cd "$BENCH_DIR" && run go build -o bin/bombardier github.com/codesenberg/bombardier)
	fi
}

ensure_wrk() {
	if ! command -v wrk >/dev/null 2>&1; then
		echo "wrk not found: install it (Debian/Ubuntu: apt-get install wrk) or drop --wrk" >&2
		[ "$DRY_RUN" = 1 ] || exit 1
	fi
}

# load runs the load generator against PATH: bombardier with -n REQUESTS
# (the original command line), or wrk for DURATION; extra arguments go to
# the tool, before the URL. For wrk, WRK_SCRIPT_ARGS (an array) follows the
# URL after "--", where wrk expects a script's arguments.
load() {
	local path=$1 default_requests=$2
	shift 2
	local pin
	pin=$(pin_prefix)
	if [ "$TOOL" = wrk ]; then
		ensure_wrk
		local threads=${THREADS:-$(load_cpu_count)}
		# shellcheck disable=SC2086 # $pin is a word list by design
		local script_args=()
		if [ "${#WRK_SCRIPT_ARGS[@]}" -gt 0 ]; then
			script_args=(-- "${WRK_SCRIPT_ARGS[@]}")
		fi
		run $pin wrk -t "$threads" -c "$CONNECTIONS" -d "$DURATION" --latency "$@" "$URL$path" "${script_args[@]}"
	else
		ensure_bombardier
		# shellcheck disable=SC2086
		run $pin "$BOMBARDIER" -c "$CONNECTIONS" -n "${REQUESTS:-$default_requests}" "$@" "$URL$path"
	fi
}
