# pandia validate with two workloads: the default divisions and
# --division, two commands after '--' (or each workload's own), both
# models' predictions beside the measured times, validate-corun.json,
# a dry run, and the errors.  Tiny runs of the built-in compute
# workload; no timing is asserted (the host is shared).
. tests/cli/validate.inc
J="$B/tests/progs/jsonq"
C="$B/workloads/compute"
[ -x "$C" ] || fail "$C is not built"

# wl NAME T1 SCALE: compute at --scale SCALE, both models' parameters
wl() {
	cat >"$T/$1.json" <<EOW
{
  "schema": "pandia-workload/1",
  "command": ["$C", "--scale", "$3"],
  "model": {"t1": $2, "p": 1.0, "o_s": 0, "l": 1, "b": 0,
            "demands": {"instructions": 4.0e9}},
  "models": {"mva": {"cpu_demand": $2, "mem_demand": 0}}
}
EOW
}
wl a 0.07 0.05
wl b 0.035 0.025

# each workload's own command: run only with --recorded
"$P" validate --force -q -r 1 --no-warmup --time-from 'time:' \
	-m "$T/m.json" -w "$T/a.json" -w "$T/b.json" -o "$T/out" \
	>"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || { cat "$T/stderr"; fail "recorded commands ran unasked"; }
grep -q "records the command" "$T/stderr" ||
	{ cat "$T/stderr"; fail "the recorded command not shown"; }
"$P" validate --force -q -r 1 --no-warmup --time-from 'time:' --recorded \
	-m "$T/m.json" -w "$T/a.json" -w "$T/b.json" -o "$T/out" \
	>"$T/stdout" 2>"$T/stderr" ||
	{ cat "$T/stdout" "$T/stderr"; fail "co-run exited $?"; }
grep -q '^division  *wl  *cpus  *measured  *pandia  *error  *mva  *error' \
	"$T/stdout" || { cat "$T/stdout"; fail "table header"; }
grep -q '^own PUs  *1  *0  ' "$T/stdout" || fail "own PUs, workload 1"
grep -q '^  *2  *1  ' "$T/stdout" || fail "own PUs, workload 2 on PU 1"
grep -q '^one PU shared  *1  *0 ' "$T/stdout" || fail "one PU shared"
grep -q '^pandia  *median |error| ' "$T/stdout" || fail "pandia summary"
grep -q '^mva  *median |error| ' "$T/stdout" || fail "mva summary"
F="$T/out/validate-corun.json"
[ "$("$J" schema <"$F")" = pandia-validate-corun/1 ] || fail "schema"
[ "$("$J" divisions name <"$F" | tr '\n' ,)" = "own PUs,one PU shared," ] ||
	fail "the default divisions"
"$J" divisions.1.workloads cpus measured <"$F" >"$T/rows" ||
	fail "measured times in the JSON"
[ "$(cut -f1 "$T/rows" | tr '\n' ,)" = "0,0," ] || fail "shared PU 0"
# the models predict twice the time alone on a shared PU
near() {
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d;
		exit !(d <= 1e-9 * w) }' || fail "$3 = $1, want $2"
}
near "$("$J" divisions.1.workloads.0.predicted.pandia <"$F")" 0.14 \
	"pandia: compute beside compute on one PU: 2 x 0.07"
near "$("$J" divisions.1.workloads.1.predicted.mva <"$F")" 0.07 \
	"mva: 2 x 0.035 on one PU"
"$J" divisions.0.workloads.0.error_percent.mva <"$F" >/dev/null ||
	fail "error_percent"
"$J" summary.pandia.median_abs_error_percent <"$F" >/dev/null ||
	fail "summary"
"$J" divisions.0.workloads.0.corun_restarts <"$F" >/dev/null ||
	fail "corun_restarts"

# --division, --model, commands given after '--' (each its own)
"$P" validate --force -q -r 1 --no-warmup --model mva \
	-m "$T/m.json" -w "$T/a.json" -w "$T/b.json" -d 0,1/1 -d 1/0 \
	-- "$C" --scale 0.02 -- "$C" --scale 0.01 >"$T/stdout" \
	2>"$T/stderr" || { cat "$T/stderr"; fail "--division exited $?"; }
grep -q '^0,1/1  *1  *0,1 ' "$T/stdout" || fail "division 0,1/1"
grep -q '^1/0  *1  *1 ' "$T/stdout" || fail "division 1/0"
grep -q 'pandia' "$T/stdout" && fail "--model mva: the MVA model only"
grep -q "workload 1  .*compute --scale 0.02$" "$T/stdout" ||
	fail "command A as given"
grep -q "workload 2  .*compute --scale 0.01$" "$T/stdout" ||
	fail "command B as given"

# a dry run: predictions only
"$P" validate -n -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" \
	>"$T/stdout" 2>"$T/stderr" || fail "dry run exited $?"
grep -q '^own PUs  *1  *0  *-  *0.07000 ' "$T/stdout" ||
	{ cat "$T/stdout"; fail "dry run row"; }
grep -q 'median |error|' "$T/stdout" && fail "dry run: no summary"

# errors
"$P" validate --force -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" \
	-- "$C" >"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || fail "one command for two workloads: exit 2"
grep -q "two workloads need two commands" "$T/stderr" ||
	fail "one command: message"
"$P" validate --force -m "$T/m.json" -w "$T/a.json" -d 0/1 \
	>"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || fail "--division with one workload: exit 2"
"$P" validate --force -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" \
	-w "$T/b.json" >"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || fail "three workloads: exit 2"
"$P" validate --force -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" \
	-d 0-1 >"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || fail "--division without '/': exit 2"
"$P" validate --force -n -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" \
	-d 0/5 >"$T/stdout" 2>"$T/stderr" && fail "PU 5"
grep -q "division '0/5': PU 5 is not in machine" "$T/stderr" ||
	fail "PU 5: message"
printf '{"schema": "pandia-workload/1", "models": {"other": {}}}\n' \
	>"$T/none.json"
"$P" validate --force -n --model mva -m "$T/m.json" -w "$T/a.json" \
	-w "$T/none.json" >"$T/stdout" 2>"$T/stderr" && fail "no models.mva"
grep -q "none.json': no models.mva" "$T/stderr" ||
	{ cat "$T/stderr"; fail "no models.mva: message"; }
# a co-runner that fails fails its runs, the others still go on
"$P" validate --force -q -r 1 --no-warmup -m "$T/m.json" \
	-w "$T/a.json" -w "$T/b.json" -d 0/1 -- "$C" --scale 0.05 -- \
	sh -c 'exit 3' >"$T/stdout" 2>"$T/stderr"
[ $? -eq 1 ] || fail "a failing co-runner: exit 1"
grep -q "the co-running command failed (status 3)" "$T/stderr" ||
	{ cat "$T/stderr"; fail "a failing co-runner: message"; }
# SIGKILL of pandia during a co-run: neither command, nor the children
# of the co-running one, nor a pinning file outlives it
mkdir -p "$T/tmp"
PANDIA_TEST_TAG=$TAG TMPDIR="$T/tmp" "$P" validate --force -q -r 1 \
	--no-warmup -m "$T/m.json" -w "$T/a.json" -w "$T/b.json" -d 0/1 \
	-- sh -c 'sleep 100; true' -- sh -c 'sleep 100 & sleep 100' \
	>/dev/null 2>"$T/stderr" &
pid=$!
# sleeps_at_least N: whether N tagged sleeps or more run
sleeps_at_least() {
	[ "$(tagged | grep -c 'sleep 100 *$')" -ge "$1" ]
}
wait_until 5 sleeps_at_least 3 ||
	{ tagged; fail "SIGKILL: the co-run did not start"; }
kill -KILL $pid
wait $pid 2>/dev/null
none_left "SIGKILL in a co-run"
wait_until 2 no_pin_files "$T/tmp" ||
	{ ls "$T/tmp"; fail "SIGKILL in a co-run: pinning files left (above)"; }
exit 0
