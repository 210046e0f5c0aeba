#!/bin/sh
# pandia profile on this host, without counters (--counters probe),
# with the built-in workloads (issue 5, "must show"):
#   - compute (perfectly parallel): p >= 0.95;
#   - serial --serial 0.25: p within 0.05 of 0.75;
#   - balance: the static partition's l is below the dynamic queue's by
#     at least 0.3.
# Timings on a shared 2-core VM are noisy: every profile runs at
# niceness -20 where allowed, repeats runs that other processes
# disturbed (pandia profile does), and a check that fails is tried once
# more.  Before and after every profile, 'pandia run' times the compute
# workload on PU 0 and on PUs 0,1 (three interleaved pairs): a VM whose
# host runs its two PUs in turn, not together, shows a ratio well below
# 2 there, and no profile can measure p then (a ratio of 1.9 alone moves
# the serial workload's p by 0.05).  When a check still fails and pandia
# said other processes took the PUs, or that ratio was below 1.9, or the
# uncertainty pandia gives the parameter (from the spread of its
# repetitions) is larger than the tolerance checked, the test is
# skipped with that reason, not failed: it cannot tell a wrong profile
# from a noisy machine then.  A profile pandia refuses as too uncertain
# is skipped likewise (the refusal is what a busy host should get).
# phase: timing: p and l profiled from this host's times
. "$(dirname "$0")/profile.inc"
need_pus 0 1
readelf -d "$WL/serial" 2>/dev/null | grep -q 'NEEDED.*lib[a-z]*san' &&
	skip "a sanitized build: the profiles would measure the instrumentation"
for w in compute serial balance; do
	[ -x "$WL/$w" ] || fail "$WL/$w is not built (run make)"
done

host_machine "$T/host.json" || fail "pandia machine --quick failed"
busy=

# prof NAME WORKLOAD ARG...: profile it into $T/NAME.json ($REPS times)
REPS=3
prof() {
	name=$1 w=$2
	shift 2
	"$P" profile -q -m "$T/host.json" --counters probe --nice -20 -r $REPS \
		--time-from 'time: ([0-9.]+)' -o "$T/$name.json" -- \
		"$WL/$w" --threads '{threads}' "$@" >/dev/null 2>"$T/$name.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "too uncertain to rank\|is not reliable" "$T/$name.err"; then
		# pandia refused a disturbed profile, as it should
		cat "$T/$name.err"
		skip "$name: the host is too busy: pandia refused the profile" \
			"($(grep -o '[a-z0-9]* = [0-9.e+-]*[^:]*' \
			"$T/$name.err" | head -n 1))"
	fi
	[ $rc -eq 0 ] || { cat "$T/$name.err"; fail "$name: profile failed"; }
	if grep -q "other processes took" "$T/$name.err"; then
		busy="$busy $name"
	fi
	echo "$name: p $(wl_get "$T/$name.json" p)," \
		"l $(wl_get "$T/$name.json" l)," \
		"b $(wl_get "$T/$name.json" b)," \
		"t1 $(wl_get "$T/$name.json" t1) s"
}

# health: the median over 3 interleaved pairs of t(PU 0) / t(PUs 0,1)
# for the compute workload, through 'pandia run' alone
one_time() {
	"$P" run -q --cpus "$1" --no-warmup -r 1 --json \
		--time-from 'time: ([0-9.]+)' -- "$WL/compute" --work 40 \
		--threads '{threads}' 2>/dev/null |
		sed -n 's/^ *"median": *\([0-9.eE+-]*\).*/\1/p'
}
health() {
	for i in 1 2 3; do
		a=$(one_time 0)
		b=$(one_time 0,1)
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) print a / b
			else print 0 }'
	done | sort -n | sed -n 2p
}

# checked NAME: after a profile, note when the VM was not healthy
checked() {
	h1=$1 h2=$(health)
	echo "$2: two PUs ran compute ${h1}x and ${h2}x as fast as one" \
		"(before, after)"
	within 1.9 "$h1" 100 && within 1.9 "$h2" 100 ||
		busy="$busy $2(two PUs gave ${h1}x, ${h2}x)"
}

# noisy NAME PARAM TOL: note when pandia's uncertainty of PARAM is above TOL
noisy() {
	u=$(wl_get "$T/$1.json" "$2_uncertainty")
	within 0 "${u:-0}" "$3" ||
		busy="$busy $1(its $2 is +- $u as measured)"
}

# verdict WHAT: skip when the machine was busy, else fail
verdict() {
	if [ -n "$busy" ]; then
		skip "$* (too noisy to tell:$busy)"
	fi
	fail "$*"
}

ok= busy=
for try in 1 2; do
	h=$(health)
	prof compute compute --work 100
	checked "$h" compute
	p=$(wl_get "$T/compute.json" p)
	within 0.95 "$p" 1 && { ok=1; break; }
	noisy compute p 0.05
done
[ -n "$ok" ] || verdict "compute: p $p is below 0.95"

ok= busy=
for try in 1 2 3; do
	h=$(health)
	# its lock and barriers cost about 0.02 of p on this VM: a larger
	# amount of work, and more repetitions
	REPS=7
	prof serial serial --serial 0.25 --work 200 --phases 10
	REPS=3
	checked "$h" serial
	p=$(wl_get "$T/serial.json" p)
	within 0.70 "$p" 0.80 && { ok=1; break; }
	noisy serial p 0.05
done
[ -n "$ok" ] || verdict "serial --serial 0.25: p $p is not within 0.05 of 0.75"

ok= busy=
for try in 1 2; do
	h=$(health)
	prof static balance --schedule static --work 100 --phases 10
	prof dynamic balance --schedule dynamic --work 100 --phases 10
	checked "$h" balance
	ls=$(wl_get "$T/static.json" l)
	ld=$(wl_get "$T/dynamic.json" l)
	awk -v s="$ls" -v d="$ld" 'BEGIN { exit !(s != "null" &&
		d != "null" && d - s >= 0.3) }' && { ok=1; break; }
	noisy static l 0.15
	noisy dynamic l 0.15
done
[ -n "$ok" ] || verdict "balance: l static $ls, dynamic $ld: not 0.3 apart"
exit 0
