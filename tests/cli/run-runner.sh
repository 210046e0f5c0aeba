# pandia run --runner TEMPLATE: the placeholders are replaced, nothing is
# pinned here, the command is appended (or put at {cmd}), and the
# template's program may report stressor rates.
set -u
. tests/cli/run.inc

"$P" run -q -r 1 --no-warmup --cpus 0,0,1 --stress cpu@1 \
	--stress 'bw:L2@0,1' --show-output \
	--runner 'echo cpus={cpus} threads={threads} scpus={stress_cpus} skind={stress_kind} cmd:' \
	-- ./prog "an arg" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "runner"; }
grep -qx "cpus=0,0,1 threads=3 scpus=1,0,1 skind=cpu,bw:L2 cmd: ./prog an arg" \
	"$T/err" || { cat "$T/err"; fail "placeholders"; }

# {cmd} where the template wants it; rates from the template's output
"$P" run -q -r 2 --no-warmup --json --cpus 0 --stress cpu@1 \
	--runner 'sh -c "echo pandia-stress: 0 1.5e9; {cmd}"' \
	--time-from 'time:' -- echo "time: 0.5" >"$T/j" 2>"$T/err" ||
	{ cat "$T/err"; fail "runner with {cmd}"; }
[ "$(json_num "$T/j" median)" = 0.5 ] || { cat "$T/j"; fail "time via runner"; }
grep -q '"pin": "runner"' "$T/j" || fail "pin: runner"
sed -n '/"stressors"/,$p' "$T/j" | grep -q '"median": 1.5e9' ||
	{ cat "$T/j"; fail "stressor rate from the template"; }

# without stressors the stressor placeholders say none
"$P" run -q -r 1 --no-warmup --show-output --cpus 1 \
	--runner 'echo {stress_cpus} {stress_kind}' >/dev/null 2>"$T/err" ||
	fail "runner without command"
grep -qx "none none" "$T/err" || { cat "$T/err"; fail "none"; }
grep -q "warning" "$T/err" && { cat "$T/err"; fail "a warning without cause"; }

# a misspelt placeholder is left as written, and said once a pandia
"$P" run -q -r 2 --no-warmup --show-output --cpus 1 \
	--runner 'echo {cpu}' >/dev/null 2>"$T/err" || fail "runner {cpu}"
[ "$(grep -c "warning: the --runner template's '{cpu}' is not a placeholder (they are {cpus}, " "$T/err")" = 1 ] ||
	{ cat "$T/err"; fail "{cpu} not said once"; }
[ "$(grep -cx "{cpu}" "$T/err")" = 2 ] || { cat "$T/err"; fail "{cpu} not left"; }
"$P" run -q -r 1 --no-warmup --show-output --cpus 1 --time-from 'x ([0-9.]+)' \
	-- echo x 0.1 '{thread}' '${cpu}' >/dev/null 2>"$T/err" || fail "command {thread}"
grep -q "warning: the command's '{thread}' is not a placeholder" "$T/err" ||
	{ cat "$T/err"; fail "{thread} not said"; }
exit 0
