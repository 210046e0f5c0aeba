#!/bin/sh
# A cache level hwloc describes with more of it a core than any cache
# made (a hypervisor's figure: here an L3 of 1 GiB for four one-PU
# cores) is not probed: its probes' buffers would sit in DRAM and
# measure DRAM again.  The same machine with a 16 MiB L3 probes it.
# Through the simulated workload (tests/progs/simworkload, 1% noise),
# default profiles: the runs recorded, the L3 demand's status, and the
# machine's summary line for that L3.
. "$(dirname "$0")/profile.inc"
[ -x "$SIM" ] || fail "$SIM is not built (run make tests)"

hidden "$T/hidden.json" 0.95 0.1 0.5 0.5 \
	'"instructions": 4e9, "dram": 2e9'
sed 's/"L3": 16777216/"L3": 1073741824/' tests/data/assume-full.json \
	>"$T/assume-virtual.json"
grep -q '"L3": 1073741824' "$T/assume-virtual.json" ||
	fail "tests/data/assume-full.json no longer gives the L3 16 MiB"

for kind in real virtual; do
	assume=tests/data/assume-full.json
	[ $kind = virtual ] && assume="$T/assume-virtual.json"
	m="$T/$kind.json"
	"$P" machine --topology \
		"Package:1 [NUMANode(memory=1073741824)] Core:4 PU:1" \
		--assume "$assume" -o "$m" >/dev/null 2>"$T/$kind.merr" ||
		{ cat "$T/$kind.merr"; fail "$kind: cannot describe it"; }
	"$P" machine --show "$m" >"$T/$kind.show" 2>&1 ||
		{ cat "$T/$kind.show"; fail "$kind: --show failed"; }
	"$P" profile -q -m "$m" -r 3 --counters probe \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$kind.w.json" \
		--runner "$SIM -m $m -w $T/hidden.json --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--noise 0.01 --seed 5 --state $T/$kind.state" \
		>"$T/$kind.out" 2>"$T/$kind.err" ||
		{ cat "$T/$kind.err"; fail "$kind: pandia profile failed"; }
	got=$(sed -n 's/^      "id": "\(.*\)",$/\1/p' "$T/$kind.w.json" |
		tr '\n' ' ')
	echo "$kind: runs $got"
	eval "runs_$kind=\"\$got\""
done

[ "$runs_real" = "run1 probe-L3 probe-dram run2 run4 run5 run6 run8 drift " ] ||
	fail "real: runs '$runs_real'"
[ "$runs_virtual" = "run1 probe-dram run2 run4 run5 run6 run8 drift " ] ||
	fail "virtual: runs '$runs_virtual', not without probe-L3"
grep -q '"L3": "not measured: hwloc describes more of it a core than any cache made (a hypervisor.s figure)' \
	"$T/virtual.w.json" ||
	{ grep -n '"L3"' "$T/virtual.w.json"; fail "virtual: L3's status"; }
grep -q "d\[L3\]  *not measured: hwloc describes more of it a core" \
	"$T/virtual.out" ||
	{ cat "$T/virtual.out"; fail "virtual: the summary does not say why"; }
grep -q "L3 1.0 GiB x 1, shared by 4 cores: more a core than any cache made" \
	"$T/virtual.show" || { cat "$T/virtual.show"; fail "virtual: --show"; }
if grep -q "than any cache made" "$T/real.show" "$T/real.w.json"; then
	fail "real: a 16 MiB L3 called a hypervisor's"
fi
# the DRAM demand is measured in both, by the same probe run
for kind in real virtual; do
	d=$(wl_get "$T/$kind.w.json" demands.dram)
	echo "$kind: dram demand $d (hidden 2e9)"
	[ "$d" != null ] || fail "$kind: no DRAM demand"
done
echo "profile-virtual: ok"
