# pandia run --membind / --interleave / --localalloc / --preferred: the
# policy is set in the command before it starts (set_mempolicy through
# libnuma), so its pages follow it.  Seen twice: by the command in its
# own /proc/self/numa_maps, and by this test in /proc/PID/numa_maps
# while the command sleeps.  Node 0 exists on every Linux host, so this
# runs on a one-node host too (issue 15).
set -u
. tests/cli/run.inc
SM="$B/tests/progs/showmempolicy"
[ -x "$SM" ] || fail "$SM is not built (run make tests)"
need_pus 0
[ -e /proc/self/numa_maps ] ||
	skip "this kernel shows no /proc/PID/numa_maps (CONFIG_NUMA off)"

# policy NAME WANT OPTIONS...: the command's own reading shows WANT
policy() {
	name=$1 want=$2
	shift 2
	"$P" run -q -r 1 --no-warmup --show-output --cpus 0 "$@" -- \
		"$SM" 4 >"$T/out" 2>"$T/err" ||
		{ cat "$T/err"; fail "$name: pandia run failed"; }
	line=$(grep '^numa_maps: ' "$T/err")
	echo "$name: $line"
	echo "$line" | grep -q " $want" ||
		fail "$name: the command's mapping is not '$want': $line"
}
policy default 'default '
policy membind 'bind:0 ' --membind 0
policy interleave 'interleave:0' --interleave all
policy localalloc 'local ' --localalloc
policy preferred 'prefer:0 ' --preferred 0
grep -q '^memory: *--preferred 0' "$T/out" ||
	fail "the text output does not name the policy"

# the same seen from outside, while the command sleeps: its pid, that
# of the tagged process whose program is showmempolicy
command_seen() {
	pid=$(tagged | awk '$2 ~ /(^|\/)showmempolicy$/ { print $1; exit }')
	[ -n "$pid" ]
}
for spec in "bind:0|--membind|0" "interleave:0|--interleave|all"; do
	want=${spec%%|*} rest=${spec#*|}
	opt=${rest%%|*} nodes=${rest#*|}
	PANDIA_TEST_TAG=$TAG "$P" run -q -r 1 --no-warmup --cpus 0 \
		"$opt" "$nodes" -- "$SM" 4 3 >/dev/null 2>&1 &
	bg=$!
	pid=
	wait_until 5 command_seen
	[ -n "$pid" ] || { kill $bg 2>/dev/null; fail "$opt: no command seen"; }
	sleep 0.3
	n=$(grep -c " $want" "/proc/$pid/numa_maps" 2>/dev/null)
	echo "$opt $nodes: pid $pid, $n mapping(s) with '$want' in" \
		"/proc/$pid/numa_maps"
	wait $bg || fail "$opt: pandia run failed"
	[ "${n:-0}" -ge 1 ] || fail "$opt $nodes: /proc/$pid/numa_maps shows" \
		"no '$want'"
done

# what libnuma refuses, said by pandia (no libnuma warning)
"$P" run -q --cpus 0 --membind 4095 -- true 2>"$T/err" &&
	fail "--membind 4095 was accepted"
grep -q "not NUMA nodes of this host" "$T/err" || { cat "$T/err";
	fail "--membind 4095: no message"; }
grep -q libnuma "$T/err" && fail "libnuma printed its own warning"
"$P" run -q --cpus 0 --preferred 0,0-0 -- true >/dev/null 2>&1 ||
	fail "--preferred 0,0-0 is one node"
# the JSON names it
"$P" run -q -r 1 --json --cpus 0 --interleave all -- true >"$T/j" ||
	fail "--json"
grep -q '"memory_policy": "--interleave all"' "$T/j" ||
	fail "run --json does not name the memory policy"
exit 0
