#!/usr/bin/env bash
# sessions.sh: load for the sessions comparison: GET /setget sets "key" to
# "value" in the session, reads it back and writes it.
#
# Two runs, as the suite reports them:
#   cookie-less (default), the original command line:
#     bombardier -c 125 -n 5000000 http://localhost:5000/setget
#   bombardier keeps no cookies, so every request creates a new session;
#   with --wrk, the same with wrk -t <load CPUs> -c 125 -d 10s.
#
#   cookie-keeping (--cookies): clients send their session cookie back.
#   With --wrk (recommended), scripts/sessions-cookie.lua gives each
#   connection its own session (see that file). With bombardier, which cannot
#   keep per-connection cookies, one session is obtained first with curl and
#   every connection sends that one cookie: -H 'Cookie: <name>=<value>'.
# Options: see lib.sh (--wrk, --cookies, --url, --cpus, --dry-run, -c, -n, -d, -t).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_args "$@"

if [ "$COOKIES" = 0 ]; then
	load /setget 5000000
	exit 0
fi

if [ "$TOOL" = wrk ]; then
	threads=${THREADS:-$(load_cpu_count)}
	if [ "$CONNECTIONS" -lt "$threads" ]; then
		echo "-c ($CONNECTIONS) must be at least -t ($threads)" >&2
		exit 2
	fi
	# wrk gives each thread connections/threads connections: one session each.
	WRK_SCRIPT_ARGS=("$((CONNECTIONS / threads))")
	THREADS=$threads load /setget 0 -s "$SCRIPTS_DIR/sessions-cookie.lua"
	exit 0
fi

echo "+ curl -s -D - -o /dev/null $URL/setget  # obtain one session cookie"
if [ "$DRY_RUN" = 1 ]; then
	cookie='<name>=<value>'
else
	cookie=$(curl -s -D - -o /dev/null "$URL/setget" | tr -d '\r' |
		sed -n 's/^[Ss]et-[Cc]ookie: *\([^;]*\).*/\1/p' | head -n 1)
	if [ -z "$cookie" ]; then
		echo "GET $URL/setget set no cookie: is a sessions app running there?" >&2
		exit 1
	fi
fi
load /setget 5000000 -H "Cookie: $cookie"
