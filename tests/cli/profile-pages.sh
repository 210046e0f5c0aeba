#!/bin/sh
# Where first-touched pages are: in proportion to each socket's threads
# ("spread") or evenly over the nodes in use ("even").  Run 3 (as many
# threads on two sockets) cannot tell them apart; the check run uneven
# over the sockets can.  Through the mechanistic simulator
# (tests/progs/mechsim, pages=threads or pages=even, its pages written
# to {numa_maps}) on a described 2-socket machine of 2 x 4 cores.
. "$(dirname "$0")/mechsim.inc"
"$P" machine -q --topology 'pack:2 numa:1 core:4 pu:2' \
	--assume tests/data/assume-full.json -o "$T/m.json" \
	>/dev/null 2>"$T/err" || { cat "$T/err"; fail "machine"; }
M="$T/m.json"

# prof PAGES: stream profiled with the simulator's pages=PAGES
prof() {
	"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
		-o "$T/$1.json" --runner "$MS -m $M \
-w tests/data/mechsim/stream.sim --cpus {cpus} --stress-cpus {stress_cpus} \
--stress-kind {stress_kind} --numa-maps {numa_maps} --noise 0.005 \
--seed 7 --state $T/$1.state --variant pages=$1" >"$T/$1.out" \
		2>"$T/$1.err" || { cat "$T/$1.err"; fail "$1: profile failed"; }
	echo "pages=$1: memory $("$J" memory <"$T/$1.json")"
}

prof threads
[ "$("$J" memory <"$T/threads.json")" = spread ] ||
	fail "pages=threads: memory is not spread"
"$J" memory_found.even <"$T/threads.json" >/dev/null 2>&1 &&
	fail "pages=threads: memory_found.even present"

prof even
[ "$("$J" memory <"$T/even.json")" = even ] ||
	fail "pages=even: memory is not even"
run=$("$J" memory_found.even.run <"$T/even.json") ||
	fail "pages=even: no memory_found.even"
share=$("$J" memory_found.even.loaded_node_share <"$T/even.json")
echo "pages=even: $run showed $share of the pages on its loaded node"
awk -v s="$share" 'BEGIN { exit !(s > 0.45 && s < 0.55) }' ||
	fail "pages=even: loaded node's share $share is not about 1/2"

# predict reads it (the model's share per socket: tests/check_even.c)
"$P" predict -q -m "$M" -w "$T/even.json" -p 0,2,4,6,8 --force --explain \
	>"$T/p.out" 2>&1 || { cat "$T/p.out"; fail "predict with even"; }
grep -q ', memory even$' "$T/p.out" ||
	fail "predict does not say the memory is even"
exit 0
