#!/bin/sh
# The lines that pin a job's ranks, run on this host: Open MPI's mpirun
# with pandia's rankfile and with --map-by, MPICH's mpiexec, each with
# tests/progs/showaffinity (an OpenMP program; each rank a copy that
# prints "rank R omp I cpus LIST"), and every thread checked where
# pandia said: 1 rank x 2 threads at placement 1,0 (pandia predict's
# lines) and 2 ranks x 1 thread (tests/progs/joblines, the same code
# for several ranks).  Also predict's KMP_AFFINITY line under LLVM's
# libomp (preloaded in place of libgomp).  Packages: openmpi-bin,
# mpich, libomp-dev (scripts/install-deps).
set -u
. tests/cli/predict-lines.inc
JL="$B/tests/progs/joblines"
export SA
# we run as root, as CI does: Open MPI refuses unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$JL" ] || fail "$JL is not built (make tests)"

# runs WHAT LINE WANT: LINE run in $T; every thread's CPUs, as
# "RANK.THREAD:CPUS" sorted, must be WANT
runs() {
	[ -n "$2" ] || fail "$1: no line"
	(cd "$T" && timeout 20 sh -c "$2") >"$T/run" 2>"$T/rerr" ||
		fail "$1: '$2' failed: $(cat "$T/rerr")"
	got=$(sed -n 's/^rank \([0-9]*\) omp \([0-9]*\) cpus \(.*\)$/\1.\2:\3/p' \
		"$T/run" | sort | tr '\n' ' ')
	[ "$got" = "$3" ] ||
		fail "$1: '$2' put the threads at '$got', not '$3'"
	printf 'ok: %s: %s\n' "$1" "$2"
}

# joblines NAME LIST...: the NAME line for ranks at LIST...
joblines() {
	n=$1
	shift
	"$JL" 0,1 "$@" | sed -n "s/^$n //p"
}

if command -v ompi_info >/dev/null 2>&1 && command -v mpirun >/dev/null &&
	mpirun --version 2>/dev/null | grep -q "Open MPI"; then
	runs "ompi, 1x2" "$(line ompi)" "0.0:0,1 0.1:0,1 "
	runs "mapby, 1x2" "$(line mapby)" "0.0:0,1 0.1:0,1 "
	runs "ompi, 1x1" "$(line ompi 1)" "0.0:1 "
	runs "ompi, 2x1" "$(joblines ompi 1 0)" "0.0:1 1.0:0 "
	runs "mapby, 2x1" "$(joblines mapby 0 1)" "0.0:0 1.0:1 "
	# ranks out of the logical order: no --map-by line, and why
	[ "$(joblines mapby 1 0)" = - ] || fail "mapby at 1 0"
	"$P" predict -m "$T/m.json" -w "$T/w.json" -p 1 --lines mapby \
		>"$T/out" 2>&1 || fail "-p 1: $(cat "$T/out")"
	grep -q "# no mpirun --map-by line: the ranks are not" "$T/out" ||
		fail "no --map-by line, not said why: $(cat "$T/out")"
else
	skip "Open MPI's mpirun is not installed (openmpi-bin)"
fi
if command -v mpiexec.mpich >/dev/null 2>&1; then
	runs "mpich, 1x2" "$(line mpich)" "0.0:0,1 0.1:0,1 "
	runs "mpich, 1x1" "$(line mpich 1)" "0.0:1 "
	runs "mpich, 2x1" "$(joblines mpich 1 0)" "0.0:1 1.0:0 "
else
	skip "MPICH's mpiexec.mpich is not installed (mpich)"
fi

# KMP_AFFINITY's proclist, under LLVM's runtime, which reads it
# (libgomp does not): thread 0 on PU 1, thread 1 on PU 0, each alone
# (granularity fine: with the default, core, libomp 14 bound both to
# PUs 0 and 1 on a PVM guest whose topology it read as one core of two
# threads)
omp=$(ls /usr/lib/llvm-*/lib/libomp.so.5 2>/dev/null | tail -n 1)
[ -n "$omp" ] || skip "LLVM's libomp is not installed (libomp-dev)"
if ldd "$SA" 2>/dev/null | grep -q libasan; then
	echo "a sanitized build: libomp not preloaded"
else
	l=$(line kmp)
	LD_PRELOAD="$omp" sh -c "$l" >"$T/run" 2>"$T/rerr" ||
		fail "kmp: '$l' failed: $(cat "$T/rerr")"
	got=$(sed -n 's/^omp \([0-9]*\) cpus \(.*\)$/\1:\2/p' "$T/run" |
		sort | tr '\n' ' ')
	[ "$got" = "0:1 1:0 " ] ||
		fail "kmp: '$l' under $omp put the threads at '$got'"
	printf 'ok: kmp under %s: %s\n' "$omp" "$l"
fi

# the default shows the MPI lines only where their tools are
mkdir "$T/nobin"
PATH="$T/nobin" "$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 \
	>"$T/out" 2>&1 || fail "default: $(cat "$T/out")"
grep -q "mpirun\|mpiexec" "$T/out" &&
	fail "no MPI installed, yet the default shows its lines"
"$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 --lines ompi,mpich \
	--json >"$T/out" 2>"$T/err" || fail "--json: $(cat "$T/err")"
grep -q '"rankfile": "rank 0=localhost slot=0,1\\n"' "$T/out" &&
	grep -q '"mpich": "mpiexec.mpich -n 1 -bind-to user:0+1 ' "$T/out" ||
	fail "--json: the MPI lines: $(cat "$T/out")"
exit 0
