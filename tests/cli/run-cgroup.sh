# pandia in a cgroup the test makes (as root, as CI is): a CPU quota of
# one PU (cgroup v1 cpu.cfs_quota_us = cpu.cfs_period_us, or v2
# cpu.max "100000 100000" where v1 has no cpu controller) and, where a
# cpuset controller can be had, a cpuset of PU 0.  'pandia machine
# --limits' reads both, 'pandia run' warns that its threads share the
# quota and refuses a placement on a PU outside the cpuset with the
# allowed set named, as profile does (and a description of the whole
# host), 'pandia predict' predicts for the recorded quota,
# and 'pandia machine' refuses to measure under a quota below one PU,
# writing nothing.  The cgroups are removed at exit.  Skips (77) when
# not root or no cgroup can be made.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
CPU= SET=
cleanup() {
	[ -n "$CPU" ] && rmdir "$CPU" 2>/dev/null
	[ -n "$SET" ] && [ "$SET" != "$CPU" ] && rmdir "$SET" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root: cannot make a cgroup"

# the mount point of the v1 hierarchy with controller $1, from
# mountinfo (fields after " - ": fstype, source, super options)
v1_mount() {
	awk -v c="$1" '{
		for (i = 1; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ ("," c ","))
			{ print $5; exit }
	}' /proc/self/mountinfo
}
v2_mount() {
	awk '{
		for (i = 1; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) == "cgroup2") { print $5; exit }
	}' /proc/self/mountinfo
}

name=pandia-test.$$
V1CPU=$(v1_mount cpu)
if [ -n "$V1CPU" ]; then
	CPU=$V1CPU/$name
	mkdir "$CPU" 2>/dev/null || { CPU=; skip "cannot make $V1CPU/$name"; }
	echo 100000 >"$CPU/cpu.cfs_period_us" &&
		echo 100000 >"$CPU/cpu.cfs_quota_us" ||
		skip "cannot set the quota of $CPU"
	QFILE=$CPU/cpu.cfs_quota_us
	V1SET=$(v1_mount cpuset)
	if [ -n "$V1SET" ] && mkdir "$V1SET/$name" 2>/dev/null; then
		SET=$V1SET/$name
		if ! { echo 0 >"$SET/cpuset.cpus" &&
		       cat "$V1SET/cpuset.mems" >"$SET/cpuset.mems"; } \
		       2>/dev/null; then
			rmdir "$SET"
			SET=
		fi
	fi
else
	V2=$(v2_mount)
	[ -n "$V2" ] || skip "no cgroup hierarchy is mounted"
	grep -qw cpu "$V2/cgroup.controllers" 2>/dev/null ||
		skip "the cgroup v2 hierarchy at $V2 has no cpu controller"
	echo +cpu >"$V2/cgroup.subtree_control" 2>/dev/null ||
		skip "cannot enable the cpu controller under $V2"
	echo +cpuset >"$V2/cgroup.subtree_control" 2>/dev/null
	CPU=$V2/$name
	mkdir "$CPU" 2>/dev/null || { CPU=; skip "cannot make $V2/$name"; }
	echo "100000 100000" >"$CPU/cpu.max" ||
		skip "cannot set $CPU/cpu.max"
	QFILE=$CPU/cpu.max
	[ -f "$CPU/cpuset.cpus" ] && echo 0 >"$CPU/cpuset.cpus" 2>/dev/null &&
		SET=$CPU
fi

# run "$@" in the cgroups: a shell that moves itself in, then execs
incg() {
	sh -c 'for d in "$1" "$2"; do
		[ -n "$d" ] && { echo $$ >"$d/cgroup.procs" || exit 99; }
	done
	shift 2; exec "$@"' incg "$CPU" "$SET" "$@"
}

incg "$P" machine --limits >"$T/out" 2>"$T/err" ||
	fail "machine --limits in the cgroup exited $?"
grep -qxF "CPU quota: 1 PUs' time per second ($QFILE)" "$T/out" ||
	fail "machine --limits does not see the quota of $QFILE"
if [ -n "$SET" ]; then
	grep -q "^allowed PUs: 0 (1," "$T/out" ||
		fail "machine --limits does not see the cpuset of PU 0"
fi

# run: two threads share the quota of one PU, said
incg "$P" run -c 0,0 -r 1 -- true >"$T/out" 2>"$T/err" ||
	fail "run -c 0,0 in the cgroup exited $?"
grep -q "CPU quota of 1 PUs' time per second ($QFILE): the placement's 2 threads share it" \
	"$T/err" || fail "run does not say the quota binds"

# run: a PU outside the cpuset is refused, the allowed set named
if [ -n "$SET" ] && [ "$(nproc --all)" -ge 2 ]; then
	incg "$P" run -c 0,1 -r 1 -- true >"$T/out" 2>"$T/err" &&
		fail "run -c 0,1 outside the cpuset was not refused"
	grep -qF "PU 1 of the placement is not available here (this process may use PUs 0:" \
		"$T/err" || fail "run's refusal does not name the allowed set"
	[ -s "$T/out" ] && fail "a refused run wrote to stdout"
	# profile: a description of the whole host is refused, the allowed
	# set named; with --force its first run outside it, nothing written
	if command -v lstopo-no-graphics >/dev/null 2>&1; then
		x=$T/$(hostname).xml
		lstopo-no-graphics --of xml "$x" &&
			"$P" machine --topology "$x" -o "$T/host.json" \
			>/dev/null 2>&1 || fail "cannot describe this host"
		incg "$P" profile -q -m "$T/host.json" -o "$T/w.json" \
			-- true >"$T/out" 2>"$T/err" &&
			fail "profile of the whole host in a cpuset of PU 0"
		grep -qF "(this process may use PUs 0: its cgroup cpuset" \
			"$T/err" || fail "profile's refusal does not name the set"
		incg "$P" profile -q --force -m "$T/host.json" -o "$T/w.json" \
			-- true >"$T/out" 2>"$T/err" &&
			fail "profile --force ran outside the cpuset"
		grep -q "is not available here (this process may use PUs 0:" \
			"$T/err" || fail "profile --force: the set is not named"
		[ -e "$T/w.json" ] && fail "a refused profile wrote its file"
	fi
else
	echo "note: no cpuset cgroup here; the refusal is not tested"
fi

# predict: the limits the cgroup set, recorded in a description, make
# one thread as fast as two, and two threads' bottleneck the quota
incg "$P" machine --limits --json >"$T/limits.json" 2>"$T/err" ||
	fail "machine --limits --json exited $?"
grep -q '"cpu_quota": 1' "$T/limits.json" || fail "--json lacks the quota"
"$P" machine --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m2.json" \
	>/dev/null 2>&1 || fail "machine --topology exited $?"
{
	sed -n '1p' "$T/m2.json"
	printf '  "limits": '
	sed '$s/$/,/' "$T/limits.json"
	sed '1d' "$T/m2.json"
} >"$T/m2q.json"
"$P" predict -q -m "$T/m2q.json" -w tests/data/quota-workload.json --force \
	>"$T/out" 2>"$T/err" || fail "predict with the recorded quota exited $?"
awk '$1 == "1" && NF >= 8 { print $2; exit }' "$T/out" | grep -qx 1 ||
	fail "under a quota of one PU, one thread is not ranked first"
grep -q '^ *2 *2 *2 *1 .*cpu quota' "$T/out" ||
	fail "two threads' bottleneck is not the quota"

# machine: a quota below one PU is refused before measuring
echo 50000 >"$QFILE" 2>/dev/null || echo "50000 100000" >"$QFILE"
incg "$P" machine --quick -q -o "$T/under.json" >"$T/out" 2>"$T/err" &&
	fail "machine measured under a quota of half a PU"
grep -q "CPU quota of 0.5 PUs' time per second ($QFILE): below one PU" \
	"$T/err" || fail "machine's refusal does not say why"
[ -e "$T/under.json" ] && fail "machine wrote a description anyway"
echo "in a cgroup: the quota and the cpuset seen, a PU outside refused"
