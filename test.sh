#!/usr/bin/env bash
# Runs every test of the repository on a fresh machine: the framework
# (with the race detector), the examples, the Redis session store, the
# benchmark suite (Go, Express and, where dotnet exists, ASP.NET Core apps,
# plus a quick run of the runner) and the browser test of the mvc-todo
# example. What a step needs (redis-server, chromium, node_modules) it
# installs from the package registries; a step whose runtime cannot be had
# says so and skips, it never fakes a pass.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==== %s\n' "$*"; }

have() { command -v "$1" >/dev/null 2>&1; }

apt_install() { # apt_install BINARY PACKAGE...: installs when BINARY is missing
	local bin=$1
	shift
	have "$bin" && return 0
	if have apt-get && [ "$(id -u)" = 0 ]; then
		step "installing $*"
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >/dev/null 2>&1 ||
			echo "could not install $* (tests that need it will skip and say so)"
	else
		echo "$bin is missing and cannot be installed here (tests that need it will skip and say so)"
	fi
}

step "go version"
go version

step "gofmt and go vet"
unformatted=$(gofmt -l . | grep -v '/node_modules/' || true)
if [ -n "$unformatted" ]; then
	echo "not gofmt-ed:"
	echo "$unformatted"
	exit 1
fi
go vet ./...
(cd _examples && go vet ./...)

step "go mod tidy -diff in every module"
tidy_diff() { # tidy_diff DIR: fails when DIR's go.mod or go.sum is not tidy
	local dir=$1 errfile diff
	errfile=$(mktemp)
	if diff=$(cd "$dir" && go mod tidy -diff 2>"$errfile"); then
		echo "$dir: tidy"
	elif [ -n "$diff" ]; then
		echo "$dir: go.mod/go.sum are not tidy (run go mod tidy there):"
		echo "$diff"
		rm -f "$errfile"
		return 1
	elif grep -q 'go-offline/proxy' "$errfile"; then
		# Offline (../shared/go-offline): tidy also loads the tests of every
		# dependency, whose modules the bundle does not hold.
		# What can be checked offline: nothing the module builds or tests
		# lacks a requirement or a go.sum line (-mod=readonly fails then).
		echo "SKIP: go mod tidy -diff in $dir: the offline module bundle lacks a module tidy loads ($(grep -m1 -o 'proxy/[^ :]*' "$errfile" | sed 's|^proxy/||')); checking only that go.mod and go.sum are complete"
		if ! (cd "$dir" && go list -mod=readonly -deps -test ./... >/dev/null); then
			rm -f "$errfile"
			return 1
		fi
	else
		echo "$dir: go mod tidy -diff failed:"
		cat "$errfile"
		rm -f "$errfile"
		return 1
	fi
	rm -f "$errfile"
}
for mod in $(find . -name go.mod -not -path '*/node_modules/*' | sort); do
	tidy_diff "$(dirname "$mod")"
done

step "framework: go test -race ./..."
go test -race -count=1 ./...

step "examples: cd _examples && go test -race ./..."
(cd _examples && go test -race -count=1 ./...)

apt_install redis-server redis-server
if have dotnet; then
	# Native AOT (the netcore-aot app) compiles with clang and links zlib.
	apt_install clang clang zlib1g-dev
	[ -e /usr/include/zlib.h ] || apt_install zlib.h zlib1g-dev # no binary to look for: checks the header
fi

step "sessions/redis (real redis-server, Redis Cluster, Sentinel)"
(cd sessions/redis && go vet ./... && go test -race -count=1 ./...)

# Issue 28: the Redis rate-limit store, and three instances behind nginx
# (the tests install redis-sentinel, redis-tools and nginx through
# internal/testtool).
step "middleware/ratelimit/redis (real redis-server)"
(cd middleware/ratelimit/redis && go vet ./... && go test -race -count=1 ./...)
step "examples: cluster (3 instances, nginx, redis-server)"
(cd _examples/cluster && go vet ./... && go test -count=1 -v ./...) # -v: the figures of the kill and the rolling restart

if [ -d _examples/sessions-redis ]; then
	step "examples: sessions-redis (real redis-server)"
	(cd _examples/sessions-redis && go vet ./... && go test -count=1 ./...)
fi

step "otelvireo (OpenTelemetry middleware, /metrics checked by promtool)"
(cd otelvireo && go vet ./... && go test -race -count=1 ./...)

step "examples: observability (OTLP collector stand-in, real Prometheus scraping)"
(cd _examples/observability && go vet ./... && go test -count=1 ./...)

step "benchmark suite: apps, runner, quick runs"
if ! have dotnet; then
	echo "SKIP: dotnet not found: the ASP.NET Core apps are not built or checked (TestDotnetApps skips; the runner reports them as skipped)"
fi
if have dotnet && ! have clang; then
	echo "SKIP: clang not found: netcore-aot (Native AOT) is not built (TestDotnetAOTApp skips; the runner reports it as skipped)"
fi
if ! have valgrind; then
	echo "SKIP: valgrind not found: the callgrind tests of the runner skip"
fi
(cd _benchmarks && go vet ./... && go test -count=1 -timeout 30m ./...)

step "browser test of mvc-todo (headless chromium)"
bash _examples/run-browser-tests.sh

step "all tests passed"
