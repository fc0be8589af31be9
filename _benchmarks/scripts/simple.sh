#!/usr/bin/env bash
# simple.sh: load for the simple comparison: a plain handler answering GET /api/values/5 with "value".
#
# The original command line:
#   bombardier -c 125 -n 1000000 http://localhost:5000/api/values/5
# With --wrk, its wrk equivalent: wrk -t <load CPUs> -c 125 -d 10s --latency.
# Options: see lib.sh (--wrk, --url, --cpus, --dry-run, -c, -n, -d, -t).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_args "$@"
[ "$COOKIES" = 0 ] || { echo "--cookies is for sessions.sh only" >&2; exit 2; }
load /api/values/5 1000000
