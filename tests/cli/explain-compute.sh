# pandia explain on the built-in compute workload (no synchronisation,
# private data): the digest's "embarrassingly parallel" faithfulness
# test (seed-speedup-stacks.md): at 0,1 the base is within 3% of N = 2
# and no loss reaches 0.1; with two threads per PU (0,0 and 0,0,1,1)
# what is lost is time sharing, N/2 of N.  Every stack adds up to N
# within 3% whatever the host; the timings skip (77, with the numbers)
# when the host was too busy to tell, or took the threads' time unseen
# (the stack's "other" in a workload that never blocks), and fail
# otherwise.  Also the
# files of -o and the text table.
# phase: timing: the measured stacks' base and losses on this host
set -u
. "$(dirname "$0")/explain.inc"
need_workload compute
W="$WL/compute"

# host_speedup: the whole process's wall time at 0 over its time at
# 0,1, as explain's base counts it, medians of 3, run without pandia
# (the workload pins itself)
wall3() {
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$W" --scale 0.3 "$@" >/dev/null
		awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { print e - s }'
	done | sort -g | sed -n 2p
}
host_speedup() {
	a=$(wall3 --threads 1 --cpus 0)
	b=$(wall3 --threads 2 --cpus 0,1)
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'
}

ok=
hs=
hs_all=
for try in 1 2; do
	# three runs of each, the median's stack: one run of 0.24 s on a
	# guest moves by a few percent
	measure -r 3 -p '0;0,1' -p '0,0;0,0,1,1' -o "$T/out" -- "$W" \
		--scale 0.3
	base=$(comp 0,1 measured base)
	bad=""
	shared=""
	within 1.94 "$base" 2.06 || bad="$bad base $base at 0,1 (want 2 +- 3%);"
	for k in serial lock barrier imbalance time_sharing other \
		contention; do
		v=$(comp 0,1 measured $k)
		echo "0,1 $k $v"
		near "$v" 0 0.1 || bad="$bad $k $v at 0,1 (want 0 +- 0.1);"
	done
	for c in 0,0:1 0,0,1,1:2; do
		b=$(comp "${c%:*}" measured base)
		ts=$(comp "${c%:*}" measured time_sharing)
		echo "${c%:*}: base $b, time sharing $ts (want ${c#*:} each)"
		# two threads per PU: how a VM's host schedules them
		# is its own, so these are noted (skip), not failed
		near "$b" "${c#*:}" 0.1 ||
			shared="$shared base $b at ${c%:*} (want ${c#*:} +- 0.1);"
		near "$ts" "${c#*:}" 0.1 ||
			shared="$shared time sharing $ts at ${c%:*};"
	done
	# the compute workload never blocks: off the CPU and out of the run
	# queue ("other") is time the hypervisor took unseen (no steal in
	# /proc/stat), which makes the timings say nothing about pandia
	unseen=$(comp 0,1 measured other)
	[ -z "$bad" ] && { ok=1; break; }
	# what this host gives two compute threads without pandia, measured
	# right after: a host that cannot reach 2 within 3% then says
	# nothing of the stack; one that can, and that pandia measured
	# within 3% of, drifted between the two (a guest's other tenants);
	# one that can, and pandia measured further off, is a failure
	hs=$(host_speedup)
	hs_all="$hs_all $hs"
	echo "the host without pandia: speedup $hs at 0,1"
	echo "try $try:$bad"
	# a busy host: no second try (it would be as busy)
	within 0.10 "$BUSY" 1000 && break
done
# the files: stacks.json as on stdout, the script, the figure
cmp -s "$T/out.json" "$T/out/stacks.json" || fail "stacks.json differs"
[ -s "$T/out/stacks.gp" ] || fail "no stacks.gp"
grep -q '"0,0,1,1 m"' "$T/out/stacks.gp" || fail "stacks.gp: no 0,0,1,1 bar"
if command -v gnuplot >/dev/null 2>&1; then
	head -c 8 "$T/out/stacks.png" | od -c | grep -q 'P   N   G' ||
		fail "stacks.png is not a PNG"
else
	grep -q "gnuplot not found" "$T/err" || fail "no gnuplot warning"
fi
for f in schema t1 t1_source counters; do
	"$JQ" "$f" <"$T/out.json" >/dev/null || fail "no $f in the JSON"
done
[ "$("$JQ" t1_source <"$T/out.json")" = run ] || fail "t1 not from the run"
[ "$("$JQ" stacks.1.kind <"$T/out.json")" = predicted ] ||
	fail "the predicted stack is not beside the measured one"
[ "$(comp 0,0,1,1 predicted time_sharing)" = 2 ] ||
	fail "predicted time sharing at 0,0,1,1: $(comp 0,0,1,1 predicted \
time_sharing), want 2"

# the text: one row per stack, measured and predicted, a sum column
"$P" explain -m "$T/m.json" -w "$T/w.json" --force -q -p 0,1 \
	--counters none -- "$W" --scale 0.02 >"$T/out.txt" 2>"$T/err" ||
	{ cat "$T/err"; fail "the text"; }
cat "$T/out.txt"
grep -q '^cpus  *N kind  *base .* sum$' "$T/out.txt" || fail "no header"
grep -q '^0,1  *2 measured  ' "$T/out.txt" || fail "no measured row"
grep -q '^0,1  *2 predicted ' "$T/out.txt" || fail "no predicted row"
grep -q '^counters  none: .*not split' "$T/out.txt" || fail "no counters"
grep -q '^t1  .* from the workload' "$T/out.txt" ||
	fail "t1 without a 1-thread placement is not the workload's"

# the timings last, so that a busy host skips only them
if [ -z "$ok" ] && pus_unequal; then
	skip "PUs 0 and 1 do not give two full PUs at once here" \
		"(compute's own speedup at 0,1 $PU_RATIO), so two threads" \
		"cannot reach 2: the digest's 2 +- 3% not checked:$bad"
fi
# the host's own speedup without pandia, every figure of it taken
# between and after pandia's (each try's, the pairs just made): where
# they span more than the 2 x 3% asked of pandia, the host's own
# repeatability is above it (a 2-vCPU guest gave 1.789 and 1.989 after
# two tries, pairs 2.09, 1.20 and 1.95, and pandia 1.924 and 1.885)
if [ -z "$ok" ] && [ -n "$hs_all" ]; then
	span=$(echo $hs_all ${ratios-} | tr ' ' '\n' | grep . | sort -g |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s %s", lo, hi }')
	within 0 "$(echo "$span" | awk '{ print $2 - $1 }')" 0.12 ||
		skip "the host's own speedup at 0,1 without pandia ranged" \
			"from ${span% *} to ${span#* } (after each try:$hs_all;" \
			"pairs:${ratios-}), more than the 3% asked; pandia" \
			"measured $base: not checked:$bad"
fi
if [ -z "$ok" ] && [ -n "$hs" ] && ! within 1.94 "$hs" 2.06; then
	skip "the host gave two compute threads only $hs without pandia" \
		"(pandia measured $base): the digest's 2 +- 3% not checked:$bad"
fi
# 0.12: on a 2-vCPU guest one pandia measurement and the bare
# program's right after differed by up to 9%, either way (1.870
# against 1.94 to 2.03 once; 1.951 against 1.876 and 1.895 against
# 2.066 in eight alternated pairs), though their medians agreed within
# 1% (docs/stacks.md, "Weak"): pandia's against the median of the
# host's own figures (after each try, and the pairs), not the last one
# (1.876 against 2.004 after the second try once, the others 1.926 to
# 1.975)
if [ -z "$ok" ] && [ -n "$hs" ]; then
	hmed=$(echo $hs_all ${ratios-} | tr ' ' '\n' | grep . | median)
	near "$base" "$hmed" 0.12 &&
		skip "pandia measured $base, the host without pandia $hmed" \
			"(median of$hs_all ${ratios-}), right after: the same" \
			"within 6%, a guest's drift between measurements; the" \
			"digest's 2 +- 3% not checked:$bad"
fi
if [ -z "$ok" ] && within 0.05 "$unseen" 1000; then
	skip "the host took the threads' time unseen (other $unseen of" \
		"the speedup at 0,1, in a workload that never blocks)," \
		"timing not checked:$bad"
fi
[ -n "$ok" ] || timing_fail "$bad"
[ -z "$shared" ] || skip "time sharing not as expected (the hypervisor" \
	"schedules the PUs' threads), not checked:$shared"
exit 0
