# pandia profile on a busy host: the built-in serial workload
# (--serial 0.25, so p is 0.75) profiled (a) as the host is, and (b)
# while another tenant (tests/progs/disturb) keeps PU 1 busy in random
# spells of 0.2 to 1 s about half the time.  In (b) the profile either
# gives p within 0.05 of (a), or refuses with its message (and writes
# nothing); it never gives a wrong p silently.  When (a) itself is
# refused, the host is too busy to tell: skipped; (a) is made twice,
# and where the two differ by more than 0.05 the host's own
# repeatability is too poor to tell either: skipped, with the numbers.
# (b) is compared with the nearer of the two, each being what a quiet
# profile gave.  A (b) further than 0.05 from both, whose own stated
# 90% range (p_uncertainty) still reaches the nearer, is not silent:
# it passes, saying so.  On a 2-vCPU KVM guest 21 of 64 disturbed
# profiles were kept, p 0.578 to 0.753 stated +- 0.027 to 0.356, and
# quiet ones gave 0.50 to 0.79; a busy CI host put one (b) 0.058 from
# the quiet profiles' mean.  Outside both: a failure.
# phase: timing: p profiled from this host's times, with and without a tenant
. "$(dirname "$0")/profile.inc"
need_pus 0 1
readelf -d "$WL/serial" 2>/dev/null | grep -q 'NEEDED.*lib[a-z]*san' &&
	skip "a sanitized build: the profiles would measure the instrumentation"
[ -x "$WL/serial" ] || fail "$WL/serial is not built (run make)"
D="$B/tests/progs/disturb"
[ -x "$D" ] || fail "$D is not built (make tests)"

host_machine "$T/host.json" || fail "pandia machine --quick failed"

prof() {
	"$P" profile $Q -m "$T/host.json" --counters probe \
		--time-from 'time: ([0-9.]+)' -o "$T/$1.json" -- \
		"$WL/serial" --threads '{threads}' --serial 0.25 \
		--scale 0.25 >/dev/null 2>"$T/$1.err"
}

Q=-q
prof quiet
if [ $? -ne 0 ]; then
	cat "$T/quiet.err"
	grep -q "too uncertain\|not reliable" "$T/quiet.err" ||
		fail "(a) failed for another reason than uncertainty"
	[ -e "$T/quiet.json" ] && fail "(a) refused but wrote a description"
	skip "(a) was refused: the host is too busy to compare with"
fi
pa=$(wl_get "$T/quiet.json" p)
# (a) again: where two quiet profiles already differ by more than 0.05
# (a guest whose idle vCPU is slow to wake, by a varying amount), the
# host cannot show the 0.05 this test asks of (b)
prof quiet2
if [ $? -ne 0 ]; then
	cat "$T/quiet2.err"
	grep -q "too uncertain\|not reliable" "$T/quiet2.err" ||
		fail "(a) again failed for another reason than uncertainty"
	skip "(a) again was refused: the host is too busy to compare with"
fi
pa2=$(wl_get "$T/quiet2.json" p)
awk -v a="$pa" -v b="$pa2" 'BEGIN { d = a - b; if (d < 0) d = -d;
	exit !(d <= 0.05) }' ||
	skip "(a) twice gave p $pa and $pa2: this host's own repeatability" \
		"is above the 0.05 asked of (b), not checked"

"$D" 1 120 0.2 1 "$$" &
dpid=$!
Q=			# with its progress lines
prof busy
rc=$?
kill "$dpid" 2>/dev/null
wait "$dpid" 2>/dev/null
# a repetition made again says so, not "repetition 1 of 3" twice over
if grep -q "^pandia profile: run [0-9] of 6, repetition \([0-9]\) of [0-9] (" "$T/busy.err"; then
	grep "^pandia profile: run [0-9] of 6, repetition [0-9] of [0-9] (" \
		"$T/busy.err" | sed 's/, about.*//' | sort | uniq -d >"$T/dup"
	[ -s "$T/dup" ] && { cat "$T/dup"; fail "(b): a progress line repeated without 'again'"; }
fi
if [ $rc -ne 0 ]; then
	grep -q "too uncertain\|not reliable" "$T/busy.err" ||
		{ cat "$T/busy.err"; fail "(b) failed without saying why"; }
	[ -e "$T/busy.json" ] && fail "(b) refused but wrote a description"
	grep -q "profile again at a quieter time" "$T/busy.err" ||
		fail "(b): the refusal does not say what to do"
	echo "(a) p $pa, $pa2; (b) refused:" \
		"$(grep -m1 '^pandia:' "$T/busy.err" | head -c 300)"
	exit 0
fi
pb=$(wl_get "$T/busy.json" p)
ub=$(wl_get "$T/busy.json" p_uncertainty)
echo "(a) p $pa, $pa2; (b) p $pb +- $ub"
# d: (b)'s distance from the nearer quiet profile
d=$(awk -v a="$pa" -v a2="$pa2" -v b="$pb" 'BEGIN {
	d = a - b; if (d < 0) d = -d
	d2 = a2 - b; if (d2 < 0) d2 = -d2
	print d < d2 ? d : d2 }')
awk -v d="$d" 'BEGIN { exit !(d <= 0.05) }' && exit 0
# the runs' times of a description, one line a run
runs_of() {
	echo "$1:"
	grep -E '^      "(id|cpus|times)"' "$T/$1.json" | paste - - -
}
if ! awk -v d="$d" -v u="$ub" 'BEGIN { exit !(u != "null" && d <= u + 0) }'
then
	runs_of quiet
	runs_of quiet2
	runs_of busy
	fail "(b) gave p $pb +- $ub, $d from the nearer of the quiet" \
		"profiles' $pa and $pa2: outside 0.05 and its own range," \
		"without refusing"
fi
echo "(b) is $d from the nearer quiet profile: more than 0.05, within" \
	"the +- $ub it states"
