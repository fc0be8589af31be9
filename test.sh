#!/usr/bin/env bash
# Runs every test of the repository on a fresh machine: formatting, vet and
# tidy modules, the framework (with the race detector), the examples, the
# WebSocket echoes, the Redis stores (sessions, rate limit) and the cluster
# example behind nginx, the OpenTelemetry middleware, the benchmark suite (Go,
# Express and, where dotnet exists, ASP.NET Core apps, plus quick runs of
# the runner) and the browser test of the mvc-todo example.
#
# Each step is a function run by `step NAME FUNCTION [PROGRAM...]`: timed,
# and a failing step ends the run naming it. A PROGRAM the step needs
# (written program or program=debian-package,...) is installed from
# Debian's packages when missing (as root); when it cannot be had the step
# fails under CI (CI=true) and skips with a line elsewhere. A program the
# machine is declared not to have (VIREO_NOT_HERE=dotnet, set by .ci/run
# where dotnet is missing) is the one exception: what needs it prints a
# "not run here:" line in the summary. Go tests follow the same rule
# through internal/testtool; their output goes through testreport, which
# prints failures in full and collects skips for the summary.
#
# To add a step: write a function, then one `step` line at the bottom.
set -euo pipefail
cd "$(dirname "$0")"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$work/summary # "not run here:" and "skipped:" lines, for the end
timings=()

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }

ci() { [ "${CI:-}" = true ]; }

not_here() { # not_here PROGRAM: declared absent by VIREO_NOT_HERE
	case ",${VIREO_NOT_HERE:-}," in
	*",$1,"* | *", $1,"*) return 0 ;;
	esac
	return 1
}

apt_install() { # apt_install PACKAGE...: as root, serialised with internal/testtool's installs
	have apt-get && [ "$(id -u)" = 0 ] || return 1
	echo "installing the Debian packages $*"
	flock "${TMPDIR:-/tmp}/vireo-testtool-apt.lock" sh -c \
		'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' sh "$@" >/dev/null 2>&1
}

# need STEP PROGRAM[=PACKAGE,...]: makes sure PROGRAM is there for STEP;
# returns 0 when it is, 1 (a failure) under CI when it cannot be had, 2 (the
# step is skipped, with a line in the summary) otherwise.
need() {
	local step=$1 program=${2%%=*} packages=$2
	if [ "$packages" = "$program" ]; then packages=$program; else packages=${packages#*=}; fi
	have "$program" && return 0
	if not_here "$program"; then
		echo "not run here: step \"$step\": no $program on this machine (VIREO_NOT_HERE)" | tee -a "$summary"
		return 2
	fi
	# shellcheck disable=SC2086 # the package list is split on commas
	apt_install ${packages//,/ } && have "$program" && return 0
	if ci; then
		echo "CI=true and step \"$step\" needs $program, which is missing and could not be installed (Debian: apt-get install ${packages//,/ })"
		return 1
	fi
	echo "skipped: step \"$step\": $program not found (Debian: apt-get install ${packages//,/ })" | tee -a "$summary"
	return 2
}

# step NAME FUNCTION [PROGRAM...]: runs FUNCTION (with errexit) as one
# step, after the programs it needs; a failure ends the run naming it.
step() {
	local name=$1 fn=$2 start=$SECONDS rc=0 p
	shift 2
	printf '\n==== %s\n' "$name"
	for p in "$@"; do
		need "$name" "$p" || rc=$?
		[ "$rc" = 0 ] || break
	done
	if [ "$rc" = 0 ]; then
		# In the background, so that errexit holds inside the function
		# (bash ignores it in a function whose status is tested).
		(
			set -e
			"$fn"
		) &
		wait $! || rc=$?
	fi
	local took=$((SECONDS - start))
	case $rc in
	0) timings+=("$(printf '%6ds  %s' "$took" "$name")") ;;
	2) timings+=("$(printf '%6ds  %s (skipped)' "$took" "$name")") ;;
	*)
		timings+=("$(printf '%6ds  %s (FAILED)' "$took" "$name")")
		print_summary
		printf '\nFAILED: step "%s" (exit status %d)\n' "$name" "$rc"
		exit 1
		;;
	esac
	echo "(step \"$name\": ${took}s)"
}

print_summary() {
	printf '\n==== summary\n'
	printf '%s\n' "${timings[@]}"
	printf '%6ds  total\n' "$SECONDS"
	if [ -s "$summary" ]; then
		"$work/testreport" -summary "$summary"
	fi
}

# gotest ARGS...: go test -json ARGS through testreport, which prints the
# run as go test does and records its skips.
gotest() {
	go test -json "$@" 2>&1 | "$work/testreport" -record "$summary"
}

# gotest_v ARGS...: gotest that prints every test's output, as go test -v.
gotest_v() {
	go test -json "$@" 2>&1 | "$work/testreport" -v -record "$summary"
}

# --- steps -------------------------------------------------------------

go_version() {
	go version
	go env GOVERSION GOPROXY GOFLAGS
	go build -o "$work/testreport" ./internal/testtool/testreport
}

fmt_vet() {
	local unformatted
	unformatted=$(gofmt -l . | grep -v '/node_modules/' || true)
	if [ -n "$unformatted" ]; then
		echo "not gofmt-ed:"
		echo "$unformatted"
		return 1
	fi
	go vet ./...
	(cd _examples && go vet ./...)
}

# tidy_diff DIR: fails when DIR's go.mod or go.sum is not tidy. Only when
# GOPROXY is an on-disk bundle (file://, the offline fallback of .ci/run),
# whose modules tidy may not all find, does a module that tidy cannot load
# get the weaker check that go.mod and go.sum are complete.
tidy_diff() {
	local dir=$1 errfile=$work/tidy.err diff
	if diff=$(cd "$dir" && go mod tidy -diff 2>"$errfile"); then
		echo "$dir: tidy"
		return 0
	fi
	if [ -n "$diff" ]; then
		echo "$dir: go.mod/go.sum are not tidy (run go mod tidy there):"
		echo "$diff"
		return 1
	fi
	case "$(go env GOPROXY)" in
	file://*)
		echo "$dir: offline bundle: tidy cannot load every module ($(grep -m1 -o 'proxy/[^ :]*' "$errfile" || true)); checking that go.mod and go.sum are complete"
		echo "skipped: go mod tidy -diff in $dir: GOPROXY is the offline bundle" >>"$summary"
		(cd "$dir" && go list -mod=readonly -deps -test ./... >/dev/null)
		;;
	*)
		echo "$dir: go mod tidy -diff failed:"
		cat "$errfile"
		return 1
		;;
	esac
}

tidy() {
	local mod
	for mod in $(find . -name go.mod -not -path '*/node_modules/*' | sort); do
		tidy_diff "$(dirname "$mod")"
	done
}

framework() { gotest -race -count=1 ./...; } # core's TLS, h2c, redirect and upload tests run curl and nghttp
# The handle gate's portable path (every Context call pins), which -tags purego selects on every
# architecture instead of the amd64/arm64 goroutine check (core/goroutine_asm.go).
framework_purego() { gotest -race -count=1 -tags purego ./core/...; }

examples() { (cd _examples && gotest -race -count=1 ./...); }

websockets() { (cd internal/wstest && go vet ./... && gotest -race -count=1 ./...); }

# The Redis session store, and the engines' conformance suite's sessions
# tests on it on net/http, fast and h2c (internal/redisconformance, a
# module of its own: it imports the Redis client and both engines).
sessions_redis() {
	(cd sessions/redis && go vet ./... && gotest -race -count=1 ./...)
	(cd internal/redisconformance && go vet ./... && gotest -race -count=1 ./...)
}

# Issue 28: the Redis rate-limit store, and three instances behind nginx
# (the tests install redis-sentinel, redis-tools and nginx through
# internal/testtool).
redisconn() { (cd internal/redisconn && go vet ./... && gotest -race -count=1 ./...); }
ratelimit_redis() { (cd middleware/ratelimit/redis && go vet ./... && gotest -race -count=1 ./...); }

example_cluster() { (cd _examples/cluster && go vet ./... && gotest_v -count=1 ./...); } # -v: the figures of the kill and the rolling restart

# Issue 33: the RealWorld backend (its own module: sqlite, pgx, jwt); its
# tests run on SQLite and on a PostgreSQL they start (Debian's postgresql,
# installed through internal/testtool; required under CI=true).
example_realworld() { (cd _examples/realworld && go vet ./... && gotest -count=1 -timeout 20m ./...); }

example_sessions_redis() { (cd _examples/sessions-redis && go vet ./... && gotest -count=1 ./...); }

otel() { (cd otelvireo && go vet ./... && gotest -race -count=1 ./...); }
# Issue 23: the validator module, and the api-server example (its own module: it imports validator;
# its OpenAPI test installs @redocly/cli, swagger-parser and Ajv with npm ci in internal/openapicheck).
validator_module() { (cd validator && go vet ./... && gotest -race -count=1 ./...); }
example_api_server() { (cd _examples/api-server && go vet ./... && gotest -race -count=1 ./...); }

# h2: Vireo's own HTTP/2 path; its tests run h2spec (go install), curl and
# headless chromium.
h2path() { (cd h2 && go vet ./... && gotest -race -count=1 ./...); } # FuzzServeConn's seeds run here; fuzz it by hand: go test -fuzz FuzzServeConn -parallel 1

# Issue 26: the fasthttp engine (its own module: fasthttp is linked only by apps that choose it).
fast_engine() { (cd fast && go vet ./... && gotest -race -count=1 ./...); }

# Issue 25: ACME (autocert) end to end against Let's Encrypt's Pebble,
# which its test installs with go install and starts on loopback.
autotls_module() { (cd autotls && go vet ./... && gotest -race -count=1 ./...); }

example_observability() { (cd _examples/observability && go vet ./... && gotest -count=1 ./...); }

benchmarks() {
	if have dotnet; then
		# Native AOT (netcore-aot) compiles with clang and links zlib.
		need "benchmark suite" clang=clang,zlib1g-dev || [ $? = 2 ]
		[ -e /usr/include/zlib.h ] || apt_install zlib1g-dev || true
	fi
	(cd _benchmarks && go vet ./... && gotest -count=1 -timeout 30m ./...)
}

browser() { (cd _examples/mvc-todo/browsertest && go vet ./... && gotest -count=1 ./...); }

# Issue 25: the WebSocket chat (its own module: coder/websocket, chromedp);
# two headless Chromium tabs chat, a page of another origin is refused.
example_chat() { (cd _examples/chat && go vet ./... && gotest -race -count=1 ./...); }

step "go version" go_version
step "gofmt and go vet" fmt_vet
step "go mod tidy -diff in every module" tidy
step "framework: go test -race ./..." framework curl nghttp=nghttp2-client
step "framework, portable gate: go test -race -tags purego ./core/..." framework_purego curl nghttp=nghttp2-client
step "examples: cd _examples && go test -race ./..." examples
step "WebSocket echoes through every writer (internal/wstest)" websockets
step "sessions/redis (real redis-server, Redis Cluster, Sentinel; the conformance suite's sessions tests on every engine)" sessions_redis redis-server
step "internal/redisconn (the Redis options both stores share; a real redis-server)" redisconn redis-server
step "middleware/ratelimit/redis (real redis-server)" ratelimit_redis redis-server
step "examples: cluster (3 instances, nginx, redis-server)" example_cluster redis-server nginx
step "examples: sessions-redis (real redis-server)" example_sessions_redis redis-server
step "examples: realworld (RealWorld API on SQLite and PostgreSQL)" example_realworld
step "otelvireo (OpenTelemetry middleware, /metrics checked by promtool)" otel
step "h2: Vireo's own HTTP/2 path (h2spec, curl --http2, chromium, attack tests, timeouts, fuzz seeds)" h2path curl chromium
step "fast: the fasthttp engine (conformance with net/http, framing, kept values)" fast_engine
step "validator module (go-playground/validator)" validator_module
step "autotls: ACME against Pebble (go install), curl" autotls_module curl
step "examples: api-server (typed handlers, OpenAPI checked by npm validators)" example_api_server node=nodejs npm
step "examples: observability (OTLP collector stand-in, real Prometheus scraping)" example_observability
step "benchmark suite: apps, runner, quick runs" benchmarks node=nodejs npm valgrind redis-server luajit
step "browser test of mvc-todo (headless chromium)" browser chromium
step "examples: chat (WebSockets, headless chromium)" example_chat chromium

print_summary
printf '\nall steps passed\n'
