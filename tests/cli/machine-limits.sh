# pandia machine --limits on recorded cgroup v2 trees (PANDIA_CGROUP_ROOT
# names the stand-in root): cpu.max "200000 100000" is a quota of 2
# PUs, "max" none, a parent's tighter quota binds, content that is no
# quota is an error naming its file; and measuring under a quota below
# one PU, or with a quota file that cannot be read, is refused before
# anything is measured, nothing written.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }

# tree NAME CPU.MAX-OF-a CPU.MAX-OF-a/b: a v2 tree, the process in /a/b
tree() {
	r=$T/$1
	mkdir -p "$r/proc/self" "$r/sys/fs/cgroup/a/b"
	echo "41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw" \
		>"$r/proc/self/mountinfo"
	echo "0::/a/b" >"$r/proc/self/cgroup"
	[ -n "$2" ] && echo "$2" >"$r/sys/fs/cgroup/a/cpu.max"
	[ -n "$3" ] && echo "$3" >"$r/sys/fs/cgroup/a/b/cpu.max"
	echo "$r"
}

r=$(tree two "max 100000" "200000 100000")
PANDIA_CGROUP_ROOT=$r "$P" machine --limits >"$T/out" 2>"$T/err" ||
	fail "--limits exited $?"
grep -qxF "CPU quota: 2 PUs' time per second ($r/sys/fs/cgroup/a/b/cpu.max)" \
	"$T/out" || fail "cpu.max 200000 100000 is not a quota of 2"
PANDIA_CGROUP_ROOT=$r "$P" machine --limits --json >"$T/out" 2>"$T/err" ||
	fail "--limits --json exited $?"
grep -q '"cpu_quota": 2' "$T/out" || fail "--json lacks the quota"

r=$(tree none "max 100000" "max 100000")
PANDIA_CGROUP_ROOT=$r "$P" machine --limits >"$T/out" 2>"$T/err" ||
	fail "--limits exited $?"
grep -qx "CPU quota: none" "$T/out" || fail "max is not 'none'"

r=$(tree parent "150000 100000" "400000 100000")
PANDIA_CGROUP_ROOT=$r "$P" machine --limits >"$T/out" 2>"$T/err" ||
	fail "--limits exited $?"
grep -qF "CPU quota: 1.5 PUs' time per second ($r/sys/fs/cgroup/a/cpu.max)" \
	"$T/out" || fail "the parent's tighter quota does not bind"

r=$(tree bad "" "lots")
PANDIA_CGROUP_ROOT=$r "$P" machine --limits >"$T/out" 2>"$T/err" &&
	fail "--limits accepted cpu.max 'lots'"
grep -qxF "pandia: $r/sys/fs/cgroup/a/b/cpu.max: not a CPU quota and period: 'lots'" \
	"$T/err" || fail "a bad cpu.max: no clear error naming it"
PANDIA_CGROUP_ROOT=$r "$P" machine --quick -q -o "$T/m.json" \
	>"$T/out" 2>"$T/err" && fail "measured with a bad cpu.max"
grep -q "a/b/cpu.max: not a CPU quota" "$T/err" ||
	fail "measuring with a bad cpu.max: no clear error"
[ -e "$T/m.json" ] && fail "a description was written with a bad cpu.max"

r=$(tree half "" "50000 100000")
PANDIA_CGROUP_ROOT=$r "$P" machine --quick -q -o "$T/m.json" \
	>"$T/out" 2>"$T/err" && fail "measured under a quota of half a PU"
grep -qF "CPU quota of 0.5 PUs' time per second ($r/sys/fs/cgroup/a/b/cpu.max): below one PU" \
	"$T/err" || fail "a quota of 0.5: no clear error"
[ -e "$T/m.json" ] && fail "a description was written under a quota of 0.5"
echo "machine --limits: v2 quotas read, bad ones named, nothing written"
