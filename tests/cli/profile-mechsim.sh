#!/bin/sh
# pandia profile and validate through a runner template against the
# mechanistic simulator (tests/progs/mechsim, not the model's formulas;
# issue 15) on the paper's X5-2: the memory policy read from the pages
# the simulator writes to {numa_maps} (first touch: spread; private:
# local; interleaved, with the DRAM probes' estimate corrected for the
# node they see), the form of o_s chosen by run 7 (a fixed share of
# partners: per remote fraction; an exchange with every partner: per
# remote thread), b recorded on the core's part, and a quick validation
# (60 sampled placements) within the issue's median error of 5%, and
# another beside two busy loops: no simulated run made again for this
# host's load.
. "$(dirname "$0")/mechsim.inc"

# prof NAME: profile tests/data/mechsim/NAME.sim into $T/NAME.json
prof() {
	"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
		-o "$T/$1.json" --runner "$MS -m $M \
-w tests/data/mechsim/$1.sim --cpus {cpus} --stress-cpus {stress_cpus} \
--stress-kind {stress_kind} --numa-maps {numa_maps} --noise 0.005 \
--seed 7 --state $T/$1.state" >"$T/$1.out" 2>"$T/$1.err" ||
		{ cat "$T/$1.err"; fail "$1: pandia profile failed"; }
	echo "$1: memory $("$J" memory <"$T/$1.json"), o_s" \
		"$("$J" model.o_s <"$T/$1.json")" \
		"$("$J" model.o_s_form <"$T/$1.json" 2>/dev/null)," \
		"b_form $("$J" model.b_form <"$T/$1.json")"
}

# want NAME PATH VALUE
want() {
	got=$("$J" "$2" <"$T/$1.json" 2>/dev/null)
	[ "$got" = "$3" ] || fail "$1: $2 is '$got', not '$3'"
}

prof comm
want comm memory spread
want comm memory_found.policy spread
want comm model.o_s_form per_remote_fraction
want comm model.b_form core
grep -q '"o_s_per_remote_thread":' "$T/comm.json" ||
	fail "comm: run 7 does not record both fits"
grep -q "o_s's form: 2 threads, 1 on each of sockets 0 and 1" \
	"$T/comm.json" || fail "comm: no run 7"

prof lockstep
want lockstep memory local
want lockstep memory_found.policy local
want lockstep model.o_s_form per_remote_thread

prof hashjoin
want hashjoin memory interleave
d=$("$J" model.demands.dram <"$T/hashjoin.json")
# 3e9 bytes per unit of work at a rate of 1 / 1.15 (remote stalls)
near "$d" 2.61e9 || fail "hashjoin: DRAM demand $d, not about 2.61e9 " \
	"(the probes of one socket see half of it)"
grep -q 'the probes of socket 0 saw 50% of it' "$T/hashjoin.json" ||
	fail "hashjoin: the DRAM demand does not say it was corrected"

# --memory: recorded as given, nothing read
"$P" profile -q -m "$M" -r 1 --counters probe --time-from "$RE" \
	--memory node:1 -o "$T/n1.json" --runner "$MS -m $M \
-w tests/data/mechsim/compute.sim --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps}" >/dev/null 2>"$T/n1.err" ||
	{ cat "$T/n1.err"; fail "--memory node:1"; }
want n1 memory node:1
grep -q memory_found "$T/n1.json" && fail "--memory: pages were read"

# a quick validation against the simulator
"$P" validate -q -m "$M" -w "$T/comm.json" -p sample:60 -r 1 \
	--no-warmup --time-from "$RE" -o "$T/v" --runner "$MS -m $M \
-w tests/data/mechsim/comm.sim --cpus {cpus} --noise 0.002 --seed 9 \
--state $T/comm.vstate" >"$T/v.out" 2>"$T/v.err" ||
	{ cat "$T/v.err"; fail "validate --runner failed"; }
med=$("$J" metrics.median_error <"$T/v/validate.json")
echo "comm: validated, median error $med"
awk -v m="$med" 'BEGIN { exit !(m <= 0.05) }' ||
	fail "comm: median error $med above 5%"

# with this host's PUs kept busy: through a runner, this host's load is
# not the runs' (one run each, none made again for it; the runs last
# long enough for /proc/stat to show the load)
busy() { while :; do :; done; }
busy & b1=$!
busy & b2=$!
"$P" validate -m "$M" -w "$T/comm.json" -p sample:12 -r 1 \
	--no-warmup --time-from "$RE" -o "$T/vb" --runner "sleep 0.15; \
$MS -m $M -w tests/data/mechsim/comm.sim --cpus {cpus} --noise 0.002 \
--seed 9 --state $T/comm.bstate" >"$T/vb.out" 2>"$T/vb.err"
rc=$?
kill "$b1" "$b2"
[ $rc -eq 0 ] || { cat "$T/vb.err"; fail "validate --runner (busy) failed"; }
grep 'measuring it again' "$T/vb.err" &&
	fail "validate --runner: a simulated run made again for this host's load"
rows=$("$J" rows threads <"$T/vb/validate.json" | wc -l)
runs=$(cat "$T/comm.bstate")
[ "$rows" -ge 12 ] && [ "$runs" = "$rows" ] ||
	fail "validate --runner: $runs simulated runs for $rows placements"
exit 0
