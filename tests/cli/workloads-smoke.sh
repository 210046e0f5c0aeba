#!/bin/sh
# Every built-in workload: --help exits 0 and names the common options;
# a tiny run at 1 and 3 threads prints "check: ok" (where it checks its
# result), "threads: N" and a last line "time: SECONDS"; the thread
# count comes from --threads, --cpus, PANDIA_THREADS or OMP_NUM_THREADS;
# bad options exit 2.
. "$(dirname "$0")/workloads.inc"

tiny() {
	case $1 in
	compute) echo "--work 10" ;;
	stream) echo "--mib 4 --passes 2" ;;
	cachestream) echo "--kib 48 --passes 100" ;;
	serial) echo "--work 10 --phases 5" ;;
	balance) echo "--work 10 --phases 3 --chunks 20" ;;
	share) echo "--updates 100k" ;;
	hashjoin) echo "--build-rows 10k --probe-rows 50k" ;;
	chase) echo "--mib 4 --steps 100k" ;;
	esac
}

all="compute stream cachestream serial balance share hashjoin chase"
# shellcheck disable=SC2086
need_workload $all
need_pus 0
help="$WL_TMPDIR/help"

for w in $all; do
	"$WL/$w" --help >"$help" || fail "$w --help exits non-zero"
	for opt in --threads --cpus --scale --help; do
		grep -q -e "$opt" "$help" || fail "$w --help lacks $opt"
	done
	for n in 1 3; do
		# shellcheck disable=SC2046
		out=$("$WL/$w" --threads $n $(tiny "$w")) ||
			fail "$w --threads $n $(tiny "$w") failed"
		echo "$out" | grep -qx "threads: $n" ||
			fail "$w --threads $n does not say 'threads: $n'"
		echo "$out" | tail -n 1 | grep -Eqx 'time: [0-9]+\.[0-9]+' ||
			fail "$w: the last line is not 'time: SECONDS': $out"
		[ "$(echo "$out" | grep -c 'time: ')" -eq 1 ] ||
			fail "$w: more than one line contains 'time: '"
		if echo "$out" | grep -q '^check: ' &&
		   ! echo "$out" | grep -qx 'check: ok'; then
			fail "$w --threads $n: wrong result: $out"
		fi
	done
	# shellcheck disable=SC2046
	out=$(PANDIA_THREADS=2 OMP_NUM_THREADS=3 "$WL/$w" $(tiny "$w")) ||
		fail "$w with PANDIA_THREADS=2 failed"
	echo "$out" | grep -qx "threads: 2" ||
		fail "$w ignores PANDIA_THREADS=2"
	# shellcheck disable=SC2046
	out=$(env -u PANDIA_THREADS OMP_NUM_THREADS=3 "$WL/$w" $(tiny "$w")) ||
		fail "$w with OMP_NUM_THREADS=3 failed"
	echo "$out" | grep -qx "threads: 3" ||
		fail "$w ignores OMP_NUM_THREADS=3"
	# shellcheck disable=SC2046
	out=$(env -u PANDIA_THREADS -u OMP_NUM_THREADS "$WL/$w" $(tiny "$w")) ||
		fail "$w without a thread count failed"
	echo "$out" | grep -qx "threads: 1" ||
		fail "$w does not default to 1 thread"
	# shellcheck disable=SC2046
	out=$("$WL/$w" --cpus 0,0 $(tiny "$w")) || fail "$w --cpus 0,0 failed"
	echo "$out" | grep -qx "threads: 2" ||
		fail "$w --cpus 0,0 does not run 2 threads"
	for bad in "--no-such-option" "--threads 0" "--threads 2 --cpus 0" \
		   "--cpus 0,x" "--scale -1" "stray"; do
		# shellcheck disable=SC2086
		"$WL/$w" $bad >/dev/null 2>&1
		st=$?
		[ "$st" -eq 2 ] || fail "$w $bad exits $st, not 2"
	done
	echo "$w: ok"
done

# the schedules and the serial fraction are checked by value
"$WL/balance" --schedule other >/dev/null 2>&1
[ $? -eq 2 ] || fail "balance --schedule other is not a usage error"
"$WL/serial" --serial 1.5 >/dev/null 2>&1
[ $? -eq 2 ] || fail "serial --serial 1.5 is not a usage error"
exit 0
