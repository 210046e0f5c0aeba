# Real programs at a placement: zstd -T2 and xz -T2 at --cpus 0,1.
# Each runs helper threads besides its two compressing workers (zstd: 4
# created, xz: 2); --pin workers (the default) must put the two created
# threads with the most CPU time on PUs 0 and 1, one each.  Not the
# main thread, which feeds them: it stays a helper even where it is the
# busiest (docs/running.md, rule 2), as on a 2-vCPU PVM guest where
# reading zstd's input took it 0.10 s of CPU against their 0.055.
# phase: timing: the threads with the most CPU time on this host
set -u
. tests/cli/run.inc
need_pus 0 1
TO="$B/tests/progs/threadsof"
[ -x "$TO" ] || fail "$TO is not built (run make tests)"
for prog in zstd xz; do
	command -v $prog >/dev/null 2>&1 ||
		skip "$prog is not installed (scripts/install-deps installs it)"
done

# compressible input, enough for two jobs of each: zstd -T2 -6 -B1M
# cuts jobs of 1 MiB (31 of them, shared evenly: at its default level 3
# and jobs of 8 MiB, four, one compressing thread took three in some
# runs on the PVM guest, 0.071 s of CPU against 0.023, and the roles
# changed from run to run; here each takes about 0.16 s, five times the
# main thread's), xz -1 blocks of 3 MiB
seq 1 4000000 >"$T/in"

# top2 JSON: "CPU CPU" of the two created threads (index above 0) with
# the most cpu_time
top2() {
	"$TO" "$1" | awk '$1 > 0' | sort -k7 -g -r | head -n 2 |
		awk '{ printf "%s ", $4 }'
}

check() {
	name=$1
	shift
	"$P" run -q -r 2 --json --cpus 0,1 -- "$@" >"$T/j" 2>"$T/err" ||
		{ cat "$T/err"; fail "$name: pandia run"; }
	"$TO" "$T/j" >"$T/threads" || fail "$name: threads[]"
	echo "$name: index pid tid cpu start end cpu_time runq mutex cond" \
		"barrier join sem other worker"
	cat "$T/threads"
	case "$(top2 "$T/j")" in
	"0 1 "|"1 0 ") echo "$name: the two busiest created threads on PUs 0 and 1" ;;
	*) fail "$name: the two busiest created threads are on PUs '$(top2 "$T/j")'" ;;
	esac
	# exactly two workers, the rest helpers floating on the set
	[ "$(awk '$15 == 1' "$T/threads" | wc -l)" -eq 2 ] ||
		fail "$name: expected 2 workers"
	awk '$15 == 0 && $4 != -1 { bad = 1 } END { exit bad }' \
		"$T/threads" || fail "$name: a helper was pinned to a PU"
	[ "$(wc -l <"$T/threads")" -gt 2 ] ||
		fail "$name: expected helper threads besides the workers"
	grep -q '"misplaced": 0' "$T/j" || fail "$name: misplaced threads"
	grep -q '"role_changes": 0' "$T/j" || fail "$name: roles changed"
}

check zstd zstd -q -f -T2 -6 -B1M "$T/in" -o /dev/null
check xz xz -q -T2 -1 -c "$T/in"
exit 0
