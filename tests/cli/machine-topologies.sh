# Machines as they really are (issue 19), described from topologies made
# by hwloc's own tools (scripts/make-test-topologies) and predicted with
# a memory-bound workload: the DRAM resources and their capacities, the
# interconnect charged, the PU picked on a hybrid machine, and the cliffs
# (4,096 PUs, 32,768 PUs, a 1 MB host name).  The figures are those of
# docs/machine-format.md, "Machines as they are".
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null | head -60; exit 1; }
D=tests/data/topologies
A=tests/data/assume-full.json
W=tests/data/topology-workload.json

describe() {
	"$P" machine --topology "$1" --assume $A -o "$T/$2.json" \
		>"$T/out" 2>"$T/err" || fail "describe $1"
}
# the resources of one placement: "NAME LOAD of CAPACITY"
placement() {
	m=$1 pl=$2
	shift 2
	"$P" predict -m "$T/$m.json" -w $W --force --placement "$pl" "$@" \
		>"$T/out" 2>"$T/err" || fail "predict $m $pl"
}
has() { grep -q -- "$1" "$T/out" || fail "$2"; }
hasnt() { ! grep -q -- "$1" "$T/out" || fail "$2"; }

# 1. One node for four sockets, no memory size: one DRAM of 40 GB/s for
# the machine (not four invented ones), and a warning.
describe $D/4socket-nosize.xml nosize
grep -q 'warning: hwloc gives no memory size for the NUMA node' "$T/err" ||
	fail "no warning for a node without a memory size"
grep -q '"memory_bytes": null' "$T/nosize.json" || fail "memory_bytes null"
placement nosize 0,2,4,6
has 'predicted time 5 s' "one thread per socket shares the one node: 5 s"
has '^  DRAM node 0  *77.67 GB/s of 40.00 GB/s' "one DRAM, 40 GB/s"
[ "$(grep -c '^  DRAM node\|^  DRAM of' "$T/out")" -eq 1 ] ||
	fail "more than one DRAM resource"
hasnt 'interconnect' "nothing crosses sockets to the machine's node"

# 2. Socket 1's node excluded by the cpuset: its cores' memory is node
# 0's, charged to node 0 and to the link between the sockets.
describe $D/2socket-node-excluded.xml excl
grep -q 'socket 1 has cores with no NUMA node of their own' "$T/err" ||
	fail "no warning for cores without a node"
placement excl 0,2,8,10
has '^  DRAM node 0  *77.67 GB/s of 40.00 GB/s' "socket 1's pages on node 0"
has '^  interconnect sockets 0-1  *38.83 GB/s of 16.00 GB/s' \
	"socket 1's pages over the link"
has '^  interconnect link core{8,9}' "the core's own link charged"
hasnt 'DRAM of socket' "no invented DRAM"
"$P" predict -m "$T/excl.json" -w $W --force -t 2 --top 1 >"$T/out" \
	2>"$T/err" || fail "rank excl"
has '^best        2 threads on 0,2:' "2 threads: both on socket 0, by node 0"

# 3. A memory-only node (no core's own): --memory node:2 charges every
# socket's link to it.
describe $D/2socket-memonly.xml memonly
placement memonly 0,2 --memory node:2
has '^  DRAM node 2  *39.60 GB/s of 40.00 GB/s' "node 2 carries both"
has '^  interconnect socket 0 to memory-only nodes  *19.80 GB/s of 16.00 GB/s' \
	"socket 0's link to the memory-only node"
has '^  interconnect socket 1 to memory-only nodes' \
	"socket 1's link to the memory-only node"
placement memonly 0,1 --memory node:2
has 'predicted time 10 s' "two threads of socket 0 share its link: 10 s"

# 4. Nodes under groups: each in its package's socket.
describe $D/2socket-groups.xml groups
grep -q '"socket": -1' "$T/groups.json" && fail "a node with socket -1"
describe $D/groups-nopackage.xml nopack
grep -q '"socket": -1' "$T/nopack.json" && fail "a node with socket -1"

# 5. Three kinds of core: rates 5, 7.5 and 10 Gops/s by frequency, and
# -t 1 picks a PU of the fast kind (6), not PU 0 of the slow one.
describe $D/hybrid-3kinds.xml hybrid
grep -q '"kinds": \[' "$T/hybrid.json" || fail "core.kinds"
grep -q '"kind": 2' "$T/hybrid.json" || fail "a core's kind"
"$P" predict -m "$T/hybrid.json" -w $W --force -t 1 >"$T/out" 2>"$T/err" ||
	fail "-t 1 on the hybrid machine"
has '^best        1 thread on 6: 10.00 s' "-t 1: PU 6, the fast kind"
has '^ *2 *1 *1 *1 *13.33 .*slower core kind *4$' "the middle kind: 13.33 s"
has '^ *3 *1 *1 *1 *20.00 .*slower core kind *0$' "the slow kind: 20 s"
placement hybrid 0
has 'predicted time 20 s' "a thread alone on the slow kind: 2 x t1"
has 'instructions core{0}  *2.50 Gops/s of 5.00 Gops/s' \
	"the slow kind's rate, the thread's rate halved"

# 6. Cliffs.  A 4,096-PU machine: counted, not walked; refused at once
# when even one layout per kind of socket is too many.
describe 'pack:16 core:128 pu:2' big
timeout 10 "$P" predict -m "$T/big.json" -w $W --force \
	--max-placements 100000 >"$T/out" 2>"$T/err" && fail "not refused"
[ $? -eq 124 ] && fail "not refused within 10 s"
grep -q 'too many placements to rank: 134144 even with the sockets of each kind in one layout, more than --max-placements 100000' \
	"$T/err" || fail "the refusal says how many and what to do"
timeout 10 "$P" predict -m "$T/big.json" -w $W --force -t 100 --top 1 \
	>"$T/out" 2>"$T/err" || fail "-t 100 on 4,096 PUs"
# 32,768 PUs described in seconds (74 s before)
timeout 60 "$P" machine --topology 'pack:64 core:64 pu:8' --assume $A \
	>"$T/out" 2>"$T/err" || fail "pack:64 core:64 pu:8"
# a 1 MB host name: an error line of a few hundred bytes
awk 'BEGIN { printf "{\"schema\": \"pandia-assume/1\", \"host\": \""
	for (i = 0; i < 1000000; i++) printf "h"
	printf "\", \"core\": {\"peak_rate\": 1e10}, \"links\": {}}\n" }' \
	>"$T/big.assume.json"
"$P" machine --topology 'pack:1 core:8 pu:1' --assume "$T/big.assume.json" \
	-o "$T/bighost.json" >"$T/out" 2>"$T/err" || fail "1 MB host name"
"$P" predict -m "$T/bighost.json" -w $W >"$T/out" 2>"$T/err" &&
	fail "another host accepted"
[ "$(wc -L <"$T/err")" -lt 300 ] || fail "an error line of $(wc -L <"$T/err") bytes"
grep -q '(1000000 bytes)' "$T/err" || fail "the host name's length"
exit 0
