#!/bin/sh
# 10-bandwidth: pandia's stress kernels against likwid-bench, side by
# side in one run, and the repeatability of 'pandia machine --quick'.
#
# 1. Two consecutive 'pandia machine --quick' runs; for every figure
#    the spread |a - b| / mean(a, b) (target: within 5%).  Each figure
#    over 5% is measured again by its kernel alone, three times back to
#    back, to show how much the host itself moves meanwhile.
# 2. For L1, L2, L3 and DRAM, the single-thread load bandwidth of
#    pandia's kernel (bench/stress-bw, the code path 'pandia machine'
#    uses, at the working set the first run recorded) divided by
#    likwid-bench's load_avx on the same PU and the same working set
#    (target: at least 0.90).  Both count the bytes of the array swept:
#    likwid's "Data volume" is iterations x elements x 8 bytes, its
#    MByte/s is 1e6 bytes/s; pandia loads every byte of every line with
#    32-byte loads.  Both are timed with the wall clock here ('pandia
#    machine' itself uses the threads' CPU time, which other processes
#    on the PU do not inflate).  The two alternate ROUNDS times per level
#    and the best of each is kept, so both see the same machine state.
#
# B is the build directory (build/ by default).  Exits non-zero only
# when something could not be run; a missed target is printed.
set -u
B="${B:-build}"
ROUNDS="${ROUNDS:-3}"
pandia="$B/pandia"
bw="$B/bench/stress-bw"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

for p in "$pandia" "$bw" "$B/bench/machine-figures"; do
	if [ ! -x "$p" ]; then
		echo "10-bandwidth: $p is not built (run 'make bench')"
		exit 1
	fi
done

# ---- 1. two consecutive quick runs --------------------------------------

figures() {	# FILE.json -> "NAME VALUE WORKING_SET" lines, sorted
	"$B/bench/machine-figures" "$1" | awk '{ print $1, $2, $3 }' | sort
}

# drift NAME: the figure's kernel alone (the same PUs and working set,
# bench/stress-bw --quick, the code 'pandia machine' runs), three times
# back to back in separate processes, and the spread of their bests: how
# much the host itself moves with nothing of pandia's changing.
drift() {
	set -- $(awk -v n="$1" '$1 == n { print $1, $3, $4, $5 }' \
		"$tmp/jobs.txt")
	[ $# -eq 4 ] || return 0
	case $4 in
	*load_store*) k=load_store ;;
	*load*) k=load ;;
	*) k=cpu ;;
	esac
	vals=""
	for i in 1 2 3; do
		v=$("$bw" --quick "$k" "$2" "$3" 2>/dev/null |
		    awk '{ printf "%.0f", $1 }')
		[ -n "$v" ] || return 0
		vals="$vals $v"
	done
	echo "$1 $vals" | awk '{
		lo = hi = $2; s = 0
		for (i = 2; i <= 4; i++) {
			if ($i < lo) lo = $i; if ($i > hi) hi = $i; s += $i
		}
		printf("  %-24s %s alone, 3 runs: %.3f %.3f %.3f, spread " \
		       "%.1f%%\n", $1, "its kernel", $2 / 1e9, $3 / 1e9,
		       $4 / 1e9, 100 * (hi - lo) / (s / 3))
	}'
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) PUs" \
	"(other processes on these PUs add noise to both parts)"
echo
echo "two consecutive 'pandia machine --quick' runs"
t0=$(date +%s)
for run in a b; do
	if ! "$pandia" machine --quick -q -o "$tmp/$run.json" \
		>/dev/null 2>"$tmp/$run.err"; then
		echo "10-bandwidth: pandia machine --quick failed:"
		cat "$tmp/$run.err"
		exit 1
	fi
done
t1=$(date +%s)
figures "$tmp/a.json" >"$tmp/a.txt" || exit 1
"$B/bench/machine-figures" "$tmp/a.json" >"$tmp/jobs.txt" || exit 1
figures "$tmp/b.json" >"$tmp/b.txt" || exit 1
echo "  ($(( (t1 - t0) / 2 )) s per run)"
printf '  %-24s %14s %14s %8s\n' figure "first run" "second run" spread
join "$tmp/a.txt" "$tmp/b.txt" | awk '
	{	# NAME A WS_A B WS_B
		s = $2 - $4; if (s < 0) s = -s
		m = ($2 + $4) / 2
		sp = m > 0 ? s / m : 0
		if (sp > worst) worst = sp
		printf("  %-24s %14.3f %14.3f %7.1f%%%s\n", $1, $2 / 1e9,
		       $4 / 1e9, 100 * sp, (sp > 0.05) ? "  over 5%" : "")
		if (sp > 0.05)
			print $1 >missed
	}
	END {
		printf("  worst spread %.1f%% (target: every figure within " \
		       "5%%): %s\n", 100 * worst,
		       (worst <= 0.05) ? "met" : "MISSED")
	}' missed="$tmp/missed"
echo "  (bandwidths in GB/s, core rates in Gops/s)"
if [ -s "$tmp/missed" ]; then
	echo "  the figures over 5%, measured again with nothing but the host"
	echo "  changing (if these move as much, the miss is the host's):"
	while read -r name; do
		drift "$name"
	done <"$tmp/missed"
fi
echo

# ---- 2. pandia / likwid-bench load_avx, one thread ----------------------

echo "single-thread load bandwidth: pandia / likwid-bench load_avx"
if ! command -v likwid-bench >/dev/null 2>&1; then
	echo "  likwid-bench is not installed (Debian package 'likwid');"
	echo "  ratios not measured"
	exit 1
fi
# likwid-bench reads /proc/cpuinfo and the hwloc topology itself; run
# it once small to see whether it works here and on which PU its
# workgroup S0:SIZE:1 runs.
if ! likwid-bench -t load_avx -w S0:16kB:1 >"$tmp/probe" 2>&1; then
	echo "  likwid-bench does not run on this machine:"
	sed 's/^/    /' "$tmp/probe" | tail -n 5
	echo "  ratios not measured"
	exit 1
fi
pu=$(sed -n 's/.*running on hwthread \([0-9]*\).*/\1/p' "$tmp/probe" |
     head -n 1)
if [ -z "$pu" ]; then
	echo "  cannot tell which PU likwid-bench ran on:"
	sed 's/^/    /' "$tmp/probe" | tail -n 5
	exit 1
fi

likwid_bw() {	# SIZE -> bytes/s, or nothing
	likwid-bench -t load_avx -w "S0:${1}B:1" 2>&1 |
		awk '/^MByte\/s:/ { printf "%.0f\n", $2 * 1e6 }'
}

max() {
	echo "$1 $2" | awk '{ print ($1 > $2) ? $1 : $2 }'
}

pandia_bw() {	# SIZE -> bytes/s (best of the quick repetitions)
	"$bw" --quick --wall load "$1" "$pu" 2>>"$tmp/notes" |
		awk '{ printf "%.0f\n", $1 }'
}

printf '  %-5s %12s %12s %12s %7s\n' level "working set" "pandia GB/s" \
	"likwid GB/s" ratio
for level in L1 L2 L3 dram; do
	ws=$(awk -v n="$level.per_core" '$1 == n { print $3 }' "$tmp/a.txt")
	if [ -z "$ws" ]; then
		echo "  $level: not in the machine description, skipped"
		continue
	fi
	ws=$(printf '%.0f' "$ws")
	best_p=0
	best_l=0
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		p=$(pandia_bw "$ws")
		l=$(likwid_bw "$ws")
		if [ -z "$p" ] || [ -z "$l" ]; then
			echo "  $level: a run failed (pandia '$p', likwid '$l')"
			status=1
			break
		fi
		best_p=$(max "$p" "$best_p")
		best_l=$(max "$l" "$best_l")
		r=$((r + 1))
	done
	[ "$best_l" = 0 ] && continue
	echo "$level $ws $best_p $best_l" | awk '{
		ratio = $3 / $4
		if ($2 >= 1048576)
			size = sprintf("%.0f MiB", $2 / 1048576)
		else
			size = sprintf("%.0f KiB", $2 / 1024)
		printf("  %-5s %12s %12.2f %12.2f %7.3f%s\n", $1, size,
		       $3 / 1e9, $4 / 1e9, ratio,
		       (ratio < 0.9) ? "  below 0.9" : "")
	}' | tee -a "$tmp/ratios"
done
echo "  (same PU $pu, best of $ROUNDS alternating runs each)"
# stress-bw says when other processes took turns on the PU; likwid-bench
# cannot, but shared the same conditions.
if [ -s "$tmp/notes" ]; then
	sed -n 's/.*(ours \([0-9]*\)% of the time at worst).*/\1/p' \
		"$tmp/notes" | sort -n | head -n 1 | while read -r low; do
		echo "  other processes took turns on PU $pu: pandia's" \
		     "threads had it $low% of the time at worst"
	done
fi
[ -s "$tmp/ratios" ] && awk '
	{ if (NR == 1 || $6 < low) low = $6 }
	END {
		printf("  lowest ratio %.3f (target: at least 0.90 for every " \
		       "level): %s\n", low, (low >= 0.9) ? "met" : "MISSED")
	}' "$tmp/ratios"
exit $status
