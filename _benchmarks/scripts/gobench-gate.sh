#!/usr/bin/env bash
# gobench-gate.sh: the Context gate's Go benchmarks at several commits, in
# interleaved rounds, compared with benchstat (issue 21's ns/op goals).
#
#   scripts/gobench-gate.sh [-n ROUNDS] OUTDIR REV [REV...]
#   scripts/gobench-gate.sh results/$(date -u +%FT%H-%M-%SZ)-gobench-gate f05c20d c317309 HEAD
#
# For each REV it checks the commit out in a temporary git worktree and
# builds core's test binary, and, where the commit has it,
# _benchmarks/router's (Vireo, httprouter and Gin in one binary on the 203
# routes of the GitHub API). Then ROUNDS times (default 10) it runs every
# binary once, one after the other, pinned to CPU 0: core's Static, Param1,
# Param3, GithubAll and Gate benchmarks, the router's GithubAll and
# Param1, each with -test.benchtime 1s, so that a drift of the machine
# falls on every commit alike. It writes core-REV.txt and router-REV.txt
# to OUTDIR, and benchstat's tables (the first REV as the base) to
# core.benchstat.txt and router.benchstat.txt. Run it on a quiet machine.
set -euo pipefail
ROUNDS=10
while getopts "n:" opt; do
	case $opt in
	n) ROUNDS=$OPTARG ;;
	*) sed -n '2,17p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
OUT=$1
shift
REPO=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trees=()
cleanup() {
	for t in "${trees[@]}"; do git -C "$REPO" worktree remove --force "$t" >/dev/null 2>&1 || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

names=()
for rev in "$@"; do
	name=$(git -C "$REPO" rev-parse --short "$rev")
	names+=("$name")
	tree=$tmp/$name
	git -C "$REPO" worktree add --detach "$tree" "$rev" >/dev/null
	trees+=("$tree")
	(cd "$tree/core" && go test -c -o "$tmp/core-$name.test" .)
	: >"$OUT/core-$name.txt"
	if [ -d "$tree/_benchmarks/router" ]; then
		(cd "$tree/_benchmarks" && go test -c -o "$tmp/router-$name.test" ./router)
		: >"$OUT/router-$name.txt"
	fi
done

bench() { taskset -c 0 "$@" -test.run '^$' -test.benchmem -test.count 1 -test.benchtime 1s; }
for i in $(seq "$ROUNDS"); do
	echo "round $i of $ROUNDS" >&2
	for name in "${names[@]}"; do
		# A Gate benchmark missing at a commit matches nothing there.
		(cd "$tmp/$name/core" && bench "$tmp/core-$name.test" -test.bench '^Benchmark(Static|Param1|Param3|GithubAll|GateParam|GateWriteString)$') >>"$OUT/core-$name.txt"
		if [ -x "$tmp/router-$name.test" ]; then
			(cd "$tmp/$name/_benchmarks/router" && bench "$tmp/router-$name.test" -test.bench '^Benchmark(GithubAll|Param1)$') >>"$OUT/router-$name.txt"
		fi
	done
done

benchstat() { go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "$@"; }
(cd "$OUT" && benchstat $(for n in "${names[@]}"; do echo "core-$n.txt"; done) >core.benchstat.txt)
routers=()
for n in "${names[@]}"; do [ -f "$OUT/router-$n.txt" ] && routers+=("router-$n.txt"); done
[ ${#routers[@]} -eq 0 ] || (cd "$OUT" && benchstat "${routers[@]}" >router.benchstat.txt)
cat "$OUT/core.benchstat.txt"
[ ! -f "$OUT/router.benchstat.txt" ] || cat "$OUT/router.benchstat.txt"
