#!/bin/sh
# 40-accounting: what libpandia-pin.so's per-thread accounting costs.
#
# Each workload runs at --cpus 0,1, pinned by itself (its own --cpus
# {cpus}), once without the library (--pin none) and once with it
# (--pin threads: the library loaded, pinning the same PUs and timing
# every wait), alternately, ROUNDS times; the time is what the program
# prints ("time:"), and the median of each side is kept.  Printed: both
# medians and the slowdown with / without - 1.  Targets (issue 11): at
# most 1% on the compute workload, 3% on a mutex-heavy one.
#   compute:  build/workloads/compute, register-only arithmetic
#   mutex:    tests/progs/threadprog --locks --outside 300: two threads
#             each take one mutex about every half microsecond, an increment
#             inside, often contended (mutex-heavy, the target's case)
#   pingpong: the same with no work between the locks: a contended lock
#             every few tens of nanoseconds, the worst case there is
# Needs a quiet host: every other process on the two PUs shows up as
# noise.  B is the build directory.
set -u
B="${B:-build}"
ROUNDS="${ROUNDS:-7}"
P="$B/pandia"
[ -x "$P" ] && [ -x "$B/workloads/compute" ] &&
	[ -x "$B/tests/progs/threadprog" ] ||
	{ echo "40-accounting: build first (make all tests)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# one PIN ARGS...: the time of one run
one() {
	pin=$1
	shift
	"$P" run -q -r 1 --json --pin "$pin" --cpus 0,1 --time-from 'time:' \
		-- "$@" >"$T/j" 2>/dev/null || return 1
	sed -n 's/^  "median": *\([0-9.eE+-]*\),*$/\1/p' "$T/j"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { h = int(NR / 2)
		print NR % 2 ? v[h + 1] : (v[h] + v[h + 1]) / 2 }'
}

bench() {
	name=$1
	shift
	: >"$T/none"
	: >"$T/shim"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		one none "$@" >>"$T/none" || { echo "$name: failed"; return 1; }
		one threads "$@" >>"$T/shim" || { echo "$name: failed"; return 1; }
		i=$((i + 1))
	done
	a=$(median <"$T/none")
	b=$(median <"$T/shim")
	awk -v n="$name" -v a="$a" -v b="$b" -v r="$ROUNDS" 'BEGIN {
		printf "%-8s without %.4f s  with %.4f s  overhead %+.2f%% " \
		       "(medians of %d)\n", n, a, b, 100 * (b / a - 1), r }'
}

bench compute "$B/workloads/compute" --threads 2 --cpus '{cpus}' --work 300
bench mutex "$B/tests/progs/threadprog" --threads 2 --locks 1000000 \
	--outside 300 --cpus '{cpus}'
bench pingpong "$B/tests/progs/threadprog" --threads 2 --locks 4000000 \
	--cpus '{cpus}'
