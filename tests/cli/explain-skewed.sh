# pandia explain on skewed work (tests/progs/skewed: thread i does
# (i + 1) w per phase), the digest's faithfulness tests
# (seed-speedup-stacks.md): with a blocking pthread barrier between
# phases, barrier waits + imbalance = (N - 1) / 2 within 0.1 and the
# base (N + 1) / 2, at N = 2 on 0,1; without a barrier (join only),
# imbalance = (N - 1) / 2.  At N = 4 with two threads per PU (0,0,1,1)
# the digest's (N - 1) / 2 = 1.5 assumes a PU per thread; time sharing
# changes it, and the closed form of this placement is checked instead:
# PU 0 runs the shares of w and 2w (done at 2w and 3w), PU 1 those of
# 3w and 4w (done at 6w and 7w), so a phase takes 7w for 10w of work:
# base 10/7, time sharing (w + w + 3w + 3w) / 7w = 8/7, barrier +
# imbalance (5w + 4w + w) / 7w = 10/7, each within 0.1.  Every stack
# adds up to N whatever the host; the timings skip (77) on a busy host.
# phase: timing: the measured barrier waits and imbalance on this host
set -u
. "$(dirname "$0")/explain.inc"
S="$B/tests/progs/skewed"
[ -x "$S" ] || fail "$S is not built (run make tests)"

# check CPUS KEY... WANT: the sum of the KEYs of CPUS's measured stack
# is WANT within 0.1; else BAD gets why
check() {
	c=$1
	shift
	sum=0 keys=""
	while [ $# -gt 1 ]; do
		sum=$(awk -v a="$sum" -v b="$(comp "$c" measured "$1")" \
			'BEGIN { printf "%.4f", a + b }')
		keys="$keys${keys:++}$1"
		shift
	done
	echo "$c: $keys $sum (want $1)"
	near "$sum" "$1" 0.1 || BAD="$BAD $c: $keys $sum, want $1;"
}

for case in barrier no-barrier four; do
	for try in 1 2; do
		BAD=""
		case $case in
		barrier)
			measure -p '0;0,1' -- "$S" --shares 2 --threads \
				'{threads}' --work 20 --phases 10
			check 0,1 barrier imbalance 0.5
			check 0,1 base 1.5
			;;
		no-barrier)
			measure -p '0;0,1' -- "$S" --shares 2 --threads \
				'{threads}' --work 20 --phases 10 --no-barrier
			check 0,1 imbalance 0.5
			check 0,1 barrier 0
			check 0,1 base 1.5
			;;
		four)
			measure -p '0;0,0,1,1' -- "$S" --shares 4 --threads \
				'{threads}' --work 15 --phases 8
			check 0,0,1,1 barrier imbalance 1.4286
			check 0,0,1,1 time_sharing 1.1429
			check 0,0,1,1 base 1.4286
			;;
		esac
		[ -z "$BAD" ] && break
		echo "$case, try $try:$BAD"
		# a busy host: no second try (it would be as busy)
		within 0.10 "$BUSY" 1000 && break
	done
	[ -z "$BAD" ] || timing_later "$case:$BAD"
done
skip_if_noted
exit 0
