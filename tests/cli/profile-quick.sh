#!/bin/sh
# pandia profile --quick leaves out the runs of a parameter that changes
# no placement with one thread per PU: on one socket of one-PU cores,
# runs 4, 5 and 8 (l, where the serial work runs) and 6 (b); on two sockets without SMT, run 6 only;
# with SMT, none.  Through the simulated workload (tests/progs/
# simworkload, 1% noise), on described machines: the runs recorded, p
# given back within 0.02, l and b said to be not measured and why,
# predict and validate silent about them with one thread per PU and
# warning with -k 2; the default profile still makes every run.  The
# same rule decides the refusal of an uncertain l: kept (said, and
# carried in predict -k 2's ranges) where l changes no placement of one
# thread per PU, refused where it does.
. "$(dirname "$0")/profile.inc"
[ -x "$SIM" ] || fail "$SIM is not built (run make tests)"

hidden "$T/hidden.json" 0.95 0.1 0.5 0.5 \
	'"instructions": 4e9, "dram": 2e9'

# describe NAME TOPOLOGY
describe() {
	"$P" machine --topology "$2" --assume tests/data/assume-full.json \
		-o "$T/$1.json" >/dev/null 2>"$T/$1.merr" ||
		{ cat "$T/$1.merr"; fail "$1: cannot describe $2"; }
}

# profile NAME MACHINE [OPTION...]: the description in $T/NAME.w.json
# ($REPS: -r 3, or nothing for the profile's own choice)
REPS="-r 3"
profile() {
	name=$1 machine=$2
	shift 2
	rm -f "$T/$name.state"
	"$P" profile -q -m "$machine" $REPS --counters probe "$@" \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$name.w.json" \
		--runner "$SIM -m $machine -w $T/hidden.json --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--noise 0.01 --seed 5 --state $T/$name.state" \
		>"$T/$name.out" 2>"$T/$name.err" ||
		{ cat "$T/$name.err"; fail "$name: pandia profile failed"; }
}

# runs FILE: the ids of the runs recorded, on one line
runs() {
	sed -n 's/^      "id": "\(.*\)",$/\1/p' "$1" | tr '\n' ' '
}

# expect_runs NAME WANT
expect_runs() {
	got=$(runs "$T/$1.w.json")
	echo "$1: runs $got"
	[ "$got" = "$2" ] || fail "$1: runs '$got', not '$2'"
}

p_near() {	# NAME: p within 0.02 of the hidden 0.95
	p=$(wl_get "$T/$1.w.json" p)
	echo "$1: p $p (hidden 0.95)"
	within 0.93 "$p" 0.97 || fail "$1: p $p is not within 0.02 of 0.95"
}

# --- one socket, four one-PU cores: l and b decide nothing ----------
describe flat "Package:1 [NUMANode(memory=1073741824)] Core:4 PU:1"
REPS=
profile flatq "$T/flat.json" --quick
REPS="-r 3"
expect_runs flatq "run1 probe-dram run2 drift "
p_near flatq
for prm in l b; do
	v=$(wl_get "$T/flatq.w.json" "$prm")
	[ "$v" = null ] || fail "flatq: $prm is $v, not left unmeasured"
done
grep -q '"l_status": "not measured: --quick left out runs 4, 5 and 8' \
	"$T/flatq.w.json" || fail "flatq: l's status does not say why"
grep -q '"b_status": "not measured: --quick left out run 6' \
	"$T/flatq.w.json" || fail "flatq: b's status does not say why"
grep -q 'l  *not measured: --quick left out runs 4, 5 and 8' "$T/flatq.out" ||
	{ cat "$T/flatq.out"; fail "flatq: the summary does not show l's why"; }

"$P" predict -m "$T/flat.json" -w "$T/flatq.w.json" >"$T/pr.out" \
	2>"$T/pr.err" || { cat "$T/pr.err"; fail "predict failed"; }
grep -q 'rank' "$T/pr.out" || fail "predict printed no ranking"
if grep -E '(l|b) was not measured' "$T/pr.err"; then
	fail "predict warns of l or b, which change no placement it ranks"
fi
"$P" predict -k 2 -m "$T/flat.json" -w "$T/flatq.w.json" >"$T/pr2.out" \
	2>"$T/pr2.err" || { cat "$T/pr2.err"; fail "predict -k 2 failed"; }
for prm in l b; do
	grep -q "warning: $prm was not measured (--quick left out.*-k 2)" \
		"$T/pr2.err" || { cat "$T/pr2.err"
		fail "predict -k 2 does not warn that $prm was not measured"; }
done

# validate says the same as predict (a dry run: nothing measured)
"$P" validate -n -m "$T/flat.json" -w "$T/flatq.w.json" >/dev/null \
	2>"$T/va.err" || { cat "$T/va.err"; fail "validate -n failed"; }
if grep -E '(l|b) was not measured' "$T/va.err"; then
	fail "validate warns of l or b, which change no placement it runs"
fi
"$P" validate -n -k 2 -m "$T/flat.json" -w "$T/flatq.w.json" >/dev/null \
	2>"$T/va2.err" || { cat "$T/va2.err"; fail "validate -n -k 2 failed"; }
grep -q "warning: l was not measured (--quick left out" "$T/va2.err" ||
	{ cat "$T/va2.err"; fail "validate -k 2 does not warn that l was not measured"; }
# one repetition per run, but run 1 again at the end: the host's drift
# gives every parameter a range, and predict states one
grep -q "s from the parameters' uncertainty" "$T/pr.out" ||
	{ cat "$T/pr.out"; fail "predict states no range from the drift"; }

# the default profile of the same machine makes every run
profile flat "$T/flat.json"
expect_runs flat "run1 probe-L3 probe-dram run2 run4 run5 run6 run8 drift "
for prm in l b; do
	v=$(wl_get "$T/flat.w.json" "$prm")
	[ "$v" != null ] || fail "flat: $prm was not measured without --quick"
done

# --- two sockets without SMT: l decides, b does not ------------------
describe two "Package:2 [NUMANode(memory=1073741824)] Core:2 PU:1"
profile twoq "$T/two.json" --quick
# check1: both cores of socket 0 and one of socket 1, the uneven
# placement the profile's even runs never test
expect_runs twoq "run1 probe-dram run2 run3 run4 run5 run7 run8 check1 drift "
grep -q '"purpose": "check: uneven over two sockets' "$T/twoq.w.json" ||
	fail "twoq: check1 is not the uneven placement"
p_near twoq
l=$(wl_get "$T/twoq.w.json" l)
[ "$l" != null ] || fail "twoq: l was left out on two sockets"
[ "$(wl_get "$T/twoq.w.json" b)" = null ] || fail "twoq: b was measured"

# --- one socket with SMT: every run --------------------------------
describe smt "Package:1 [NUMANode(memory=1073741824)] Core:4 PU:2"
profile smtq "$T/smt.json" --quick
# check3: every core, half of them with a second thread, where threads
# sharing a core meet threads alone (no run shares some cores only);
# check2 where b and memory bandwidth, which the runs cannot tell apart,
# differ most
expect_runs smtq "run1 probe-dram run2 run4 run5 run6 run8 check1 check2 check3 drift "
grep -q '"purpose": "check: half the cores shared, where threads sharing a core meet threads alone on theirs, 6 threads on 1 socket"' \
	"$T/smtq.w.json" || fail "smtq: no check run on the half-shared placement"
p_near smtq
for prm in l b; do
	v=$(wl_get "$T/smtq.w.json" "$prm")
	[ "$v" != null ] || fail "smtq: $prm was left out with SMT"
done
# --- l uncertain by more than 0.3 (10% noise; seeds chosen so that
# only l is) -------------------------------------------------------
# where l changes no placement of one thread per PU, the default
# profile keeps it, says so, and predict -k 2 carries it in its ranges
# (--no-check: no run 1 again at the end, whose drift, at 10% noise,
# would make t1 as uncertain as l)
noisy() {	# NAME MACHINE SEED
	rm -f "$T/$1.state"
	"$P" profile -q -m "$2" -r 3 --counters probe --no-check \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$1.w.json" \
		--runner "$SIM -m $2 -w $T/hidden.json --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--noise 0.1 --seed $3 --state $T/$1.state" >"$T/$1.out" 2>"$T/$1.err"
}
noisy flatn "$T/flat.json" 1 ||
	{ cat "$T/flatn.err"; fail "flatn: the profile was refused"; }
grep -q "l = [0-9.]* +- [0-9.]* (the repetitions' spread) is uncertain (more than 0.3): kept, since l changes no placement with one thread per PU" \
	"$T/flatn.err" || { cat "$T/flatn.err"; fail "flatn: l's uncertainty not said"; }
u=$(wl_get "$T/flatn.w.json" l_uncertainty)
echo "flatn: l $(wl_get "$T/flatn.w.json" l) +- $u, kept"
within 0.3 "$u" 100 || fail "flatn: l's uncertainty $u is not above 0.3"
"$P" predict -k 2 --json -m "$T/flat.json" -w "$T/flatn.w.json" \
	>"$T/prn.json" 2>"$T/prn.err" || { cat "$T/prn.err"; fail "predict -k 2 failed"; }
# 5 threads on 4 PUs: one PU time-shared, the threads unequal (l)
awk '/"threads": 5,/ { f = 1 } f && /"time_low"/ { lo = $2 + 0 }
	f && /"time_high"/ { hi = $2 + 0; exit }
	END { print "flatn: 5 threads, range " lo " to " hi
		exit !(hi > 1.2 * lo) }' "$T/prn.json" ||
	fail "flatn: l's uncertainty is not in the range of 5 threads on 4 PUs"
# where l decides (two sockets), the same noise is refused
describe two4 "Package:2 [NUMANode(memory=1073741824)] Core:4 PU:1"
if noisy two4n "$T/two4.json" 2; then
	fail "two4n: an l too uncertain to rank with was written"
fi
grep -q "l = [0-9.]* +- [0-9.]* (the repetitions' spread) is too uncertain to rank placements" \
	"$T/two4n.err" || { cat "$T/two4n.err"; fail "two4n: not refused for l"; }
[ ! -e "$T/two4n.w.json" ] || fail "two4n: a refused profile was written"
exit 0
