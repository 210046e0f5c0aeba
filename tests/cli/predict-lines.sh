#!/bin/sh
# pandia predict --lines: every pin line whose tool this host has is run
# and puts each thread where pandia said (tests/progs/showaffinity, an
# OpenMP program, prints every thread's CPUs); the others are checked
# against their grammar.  The placement 1,0 (thread 0 on PU 1) tells
# the lines that keep the threads' order from those that take a set.
set -u
. tests/cli/predict-lines.inc

# runs NAME WANT: the line run, each OpenMP thread's CPUs as WANT says
# ("1 0": thread 0 on 1, thread 1 on 0; "set": both on 0,1)
runs() {
	l=$(line "$1")
	[ -n "$l" ] || fail "$1: no line printed"
	PATH="$B:$PATH" sh -c "$l" >"$T/run" 2>"$T/rerr" ||
		fail "$1: '$l' failed: $(cat "$T/rerr")"
	got=$(sed -n 's/^omp \([0-9]*\) cpus \(.*\)$/\1:\2/p' "$T/run" |
		sort | tr '\n' ' ')
	case $2 in
	set) want="0:0,1 1:0,1 " ;;
	*) want="0:$(echo "$2" | cut -d' ' -f1) 1:$(echo "$2" | cut -d' ' -f2) " ;;
	esac
	[ "$got" = "$want" ] || fail "$1: '$l' put the threads at $got, not $want"
	echo "ok: $1: $l"
}

runs taskset set
runs omp "1 0"
runs gomp "1 0"
# pandia run keeps the command's output to itself: its pinning is
# run-pin's; here its grammar
l=$(line run)
[ "$l" = "pandia run --cpus 1,0 -- $SA --omp --hold 0 --threads 2" ] ||
	fail "run: $l"
if command -v numactl >/dev/null 2>&1; then
	runs numactl set
else
	echo "numactl not installed: its line not run"
fi
if command -v hwloc-bind >/dev/null 2>&1; then
	runs hwloc set
else
	echo "hwloc-bind not installed: its line not run"
fi
if ldd "$SA" 2>/dev/null | grep -q libasan; then
	# likwid-pin preloads its library, which ASan will not follow
	echo "a sanitized build: likwid-pin's line not run"
elif command -v likwid-pin >/dev/null 2>&1 &&
	likwid-pin -q -c 0 true >/dev/null 2>&1; then
	runs likwid "1 0"
else
	echo "likwid-pin not installed or not working here: its line not run"
fi

# the lines no tool here runs: their grammar
l=$(line kmp)
[ "$l" = "OMP_NUM_THREADS=2 KMP_AFFINITY='granularity=fine,explicit,proclist=[1,0]' $SA --omp --hold 0 --threads 2" ] ||
	fail "kmp: $l"
l=$(line srun)
[ "$l" = "srun -n 1 --cpu-bind=mask_cpu:0x3 $SA --omp --hold 0 --threads 2" ] ||
	fail "srun: $l"
# systemd.exec(5): CPUAffinity= a list of CPUs, NUMAPolicy= and
# NUMAMask= the memory; docker run: --cpuset-cpus, --cpuset-mems
l=$(line systemd)
[ "$l" = "systemd-run --wait --pipe --same-dir -p CPUAffinity=0,1 -p NUMAPolicy=local $SA --omp --hold 0 --threads 2" ] ||
	fail "systemd: $l"
l=$(line docker)
[ "$l" = "docker run --rm --cpuset-cpus=0,1 IMAGE $SA --omp --hold 0 --threads 2" ] ||
	fail "docker: $l"
"$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 --memory node:0 \
	--lines systemd,docker >"$T/out" 2>"$T/err" ||
	fail "--memory node:0: $(cat "$T/err")"
grep -q "^  systemd-run .* -p CPUAffinity=0,1 -p NUMAPolicy=bind -p NUMAMask=0 " \
	"$T/out" && grep -q "^  docker run --rm --cpuset-cpus=0,1 --cpuset-mems=0 IMAGE " \
	"$T/out" || fail "the memory in systemd's and docker's lines: $(cat "$T/out")"
grep -q "docker run .*# a set: loses the thread order" "$T/out" ||
	fail "docker's line does not say it takes a set"
"$P" predict -m "$T/m.json" -w "$T/w.json" -p 1 --lines srun,hwloc \
	>"$T/out" 2>"$T/err" || fail "-p 1: $(cat "$T/err")"
grep -q "hwloc-bind --physical pu:1 -- " "$T/out" || fail "hwloc at 1"
grep -q "srun -n 1 --cpu-bind=mask_cpu:0x2 " "$T/out" || fail "srun at 1"

# the default: taskset, numactl, OpenMP's and pandia run's lines, and
# those of the tools on $PATH (none here, then hwloc-bind alone); JSON
# has the lines asked; a bad name
mkdir "$T/nobin" "$T/hwbin"
printf '#!/bin/sh\n' >"$T/hwbin/hwloc-bind"
chmod +x "$T/hwbin/hwloc-bind"
PATH="$T/nobin" "$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 \
	>"$T/out" 2>&1 || fail "default: $(cat "$T/out")"
grep -q "^  taskset -c " "$T/out" && grep -q "^  numactl " "$T/out" &&
	grep -q "^  pandia run --cpus " "$T/out" ||
	fail "the default lines: $(cat "$T/out")"
grep -q "GOMP_CPU_AFFINITY\|hwloc-bind\|likwid-pin\|srun" "$T/out" &&
	fail "no tool installed, yet the default shows its line"
PATH="$T/hwbin" "$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 \
	>"$T/out" 2>&1 || fail "default: $(cat "$T/out")"
grep -q "^  hwloc-bind --physical pu:1 pu:0 -- " "$T/out" ||
	fail "hwloc-bind installed, its line not in the default"
grep -q "likwid-pin\|srun" "$T/out" &&
	fail "the default shows the line of a tool not installed"
"$P" predict -m "$T/m.json" -w "$T/w.json" -p 1,0 --lines gomp,srun \
	--json >"$T/out" 2>"$T/err" || fail "--json: $(cat "$T/err")"
grep -q '"gomp": "OMP_NUM_THREADS=2 GOMP_CPU_AFFINITY=' "$T/out" &&
	grep -q '"srun": ' "$T/out" || fail "--json: the lines asked"
grep -q '"taskset"' "$T/out" && fail "--json: a line not asked"
"$P" predict -m "$T/m.json" -w "$T/w.json" --lines tasket \
	>"$T/out" 2>"$T/err" && fail "--lines tasket accepted"
grep -q "\-\-lines takes 'all' or a comma-separated list of taskset, .*, systemd, docker and run, not 'tasket'" "$T/err" ||
	fail "--lines tasket: $(cat "$T/err")"
# the header shows the command as the lines do, quoted for the shell:
# a script given to sh -c is one word, not five
sed "s|\"command\": \[.*\],|\"command\": [\"sh\", \"-c\", \"$SA --threads {threads} >/dev/null\"],|" \
	"$T/w.json" >"$T/sh.json"
grep -q '"-c"' "$T/sh.json" || fail "sh -c: not planted"
"$P" predict -m "$T/m.json" -w "$T/sh.json" --top 1 >"$T/out" \
	2>"$T/err" || fail "sh -c: $(cat "$T/err")"
grep -qF "workload  sh -c '$SA --threads {threads} >/dev/null': t1 1 s" \
	"$T/out" || fail "sh -c: the header's command: $(grep '^workload' "$T/out")"
exit 0
