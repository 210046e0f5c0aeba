# pandia validate end to end on this host: the built-in compute
# workload (short: --scale 0.05, -r 1) at every canonical placement
# with up to 2 threads per PU of two cores, the defaults and the
# sweep; the files it writes and the fields scripts read.
# phase: timing: the median error of predictions against this host's times
set -u
. tests/cli/validate.inc

W="$B/workloads/compute"
[ -x "$W" ] || fail "$W is not built (run make)"
RE='time: ([0-9.]+)'

# t1 from one run, so that the predictions are in the right range
"$P" run --cpus 0 -r 1 --no-warmup --json --time-from "$RE" -- \
	"$W" --scale 0.05 >"$T/run.json" 2>"$T/err" ||
	{ cat "$T/err"; fail "pandia run compute"; }
t1=$(json_num "$T/run.json" median)
[ -n "$t1" ] || fail "no median in pandia run --json"
workload compute "$t1" 1 0 "[\"$W\", \"--scale\", \"0.05\"]"

PANDIA_TEST_TAG=$TAG "$P" validate -m "$T/m.json" -w "$T/compute.json" \
	--force -k 2 -r 1 --sweep --time-from "$RE" -o "$T/out" -- \
	"$W" --scale 0.05 >"$T/stdout" 2>"$T/stderr"
rc=$?
cat "$T/stdout" "$T/stderr"
[ $rc -eq 0 ] || fail "validate: exit status $rc"
none_left "validate"
grep -q "differs from" "$T/stderr" && fail "a warning about the command"

J="$T/out/validate.json"
C="$T/out/validate.csv"
[ -f "$J" ] || fail "no validate.json"
[ -f "$C" ] || fail "no validate.csv"
grep -q '"schema": "pandia-validate/1"' "$J" || fail "schema"
for k in median_error mean_error offset_error best_gap spearman; do
	json_has "$J" "$k" || fail "validate.json: no metrics.$k"
done
grep -q '"complete": true' "$J" || fail "validate.json: not complete"
for h in "all PUs, unpinned (OS scheduler)" "OMP_PROC_BIND=close" \
	"OMP_PROC_BIND=spread"; do
	grep -q "\"name\": \"$h\"" "$J" || fail "heuristic '$h' missing"
done
grep -q '"gap": -\{0,1\}[0-9]' "$J" || fail "no heuristic gap"
grep -q '"found_best": ' "$J" || fail "no sweep result"

# every canonical placement of 2 cores, up to 2 threads a PU, ran
for cpus in '0' '0,1' '0,0' '0,0,1' '0,0,1,1'; do
	grep -q "^[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,\"\{0,1\}$cpus\"\{0,1\},yes,.*,ok," \
		"$C" || fail "validate.csv: no measured row for $cpus"
done
grep -q ',no,.*,ok,' "$C" || fail "validate.csv: no unpinned row"
head -n 1 "$C" | grep -q '^x,threads,cores,sockets,per_pu,cpus,pinned,' ||
	fail "validate.csv: header"
# the errors are fractions, and sane ones for compute on an idle
# machine are far below 10; this only catches units (percent) mixed up
med=$(json_num "$J" median_error)
awk -v m="$med" 'BEGIN { exit !(m >= 0 && m < 10) }' ||
	fail "median_error $med is not a fraction"

# the report
grep -q "^error  *median" "$T/stdout" || fail "no error line"
grep -q "^best gap" "$T/stdout" || fail "no best gap line"
grep -q "OMP_PROC_BIND=spread" "$T/stdout" || fail "no defaults"
grep -q "^sweep" "$T/stdout" || fail "no sweep"

# the figure: drawn when gnuplot is here, else a warning
if command -v gnuplot >/dev/null 2>&1; then
	[ -s "$T/out/validate.png" ] || fail "no validate.png"
	head -c 8 "$T/out/validate.png" | od -c | grep -q 'P   N   G' ||
		fail "validate.png is not a PNG"
else
	grep -q "gnuplot not found" "$T/stderr" || fail "no gnuplot warning"
fi
[ -s "$T/out/validate.gp" ] || fail "no validate.gp"

# a different command than profiled: a warning, and it still runs
"$P" validate -m "$T/m.json" -w "$T/compute.json" --force \
	-p top:1 -r 1 --no-warmup --time-from "$RE" -q -- \
	"$W" --scale 0.04 >/dev/null 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "validate top:1"; }
grep -q "the command differs from the one" "$T/stderr" ||
	{ cat "$T/stderr"; fail "no warning about the command"; }

# no command: the workload's own, with --recorded only
"$P" validate -m "$T/m.json" -w "$T/compute.json" --force \
	-p top:1 -r 1 --no-warmup --time-from "$RE" -q \
	>/dev/null 2>"$T/stderr"
[ $? -eq 2 ] || { cat "$T/stderr"; fail "the recorded command ran unasked"; }
"$P" validate -m "$T/m.json" -w "$T/compute.json" --force --recorded \
	-p top:1 -r 1 --no-warmup --time-from "$RE" -q \
	>/dev/null 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "validate without a command"; }
grep -q "running the command" "$T/stderr" || fail "no note on the command"

# a dry run on a machine this host is not: the plan, nothing run
"$P" validate -n -m tests/data/machines/good.json \
	-w tests/data/workloads/full.json --force -k 2 -p sample:12 \
	>"$T/stdout" 2>"$T/stderr" || { cat "$T/stderr"; fail "dry run"; }
grep -q "placements (dry run: nothing was run)" "$T/stdout" ||
	fail "dry run: no summary"
grep -q "OMP_PROC_BIND=close" "$T/stdout" || fail "dry run: no defaults"
grep -q " pick" "$T/stdout" || fail "dry run: no pick"
[ "$(grep -c ' not run ' "$T/stdout")" -ge 12 ] ||
	fail "dry run: fewer than 12 placements"

# usage errors
"$P" validate -m "$T/m.json" -w "$T/compute.json" -p some -- true \
	2>"$T/stderr"
[ $? -eq 2 ] || fail "-p some: not a usage error"
grep -q "all, sample:N or top:K" "$T/stderr" || fail "-p some: message"
HOME="$T/home" XDG_DATA_HOME= "$P" validate -w "$T/compute.json" -- true \
	2>"$T/stderr"
[ $? -eq 1 ] || fail "no -m and no description of this host: not refused"
grep -q "no description of this host" "$T/stderr" || fail "no -m: message"
# the workload's machine is checked: refused without --force here
"$P" validate -m "$T/m.json" -w "$T/compute.json" -- true 2>"$T/stderr"
[ $? -eq 1 ] || fail "another host: not refused"
grep -q "describes another machine" "$T/stderr" || fail "host message"
exit 0
