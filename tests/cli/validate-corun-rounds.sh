# pandia validate -w A -w B -r N runs every division's two co-runs once
# per round, N rounds, so that a host whose speed moves moves every
# division alike: between two runs of one workload at one division
# every other run of the round is made.  Only the first round's runs
# follow a warm-up.  Each workload's times are kept in
# validate-corun.json ("times"), their median reported.
set -u
. tests/cli/validate.inc
J="$B/tests/progs/jsonq"
command -v bash >/dev/null || skip "no bash"

# a "workload" whose reported time is when it started, in seconds
# since T0, and which logs each start as measured (its output read by
# pandia: M) or co-running (its output thrown away: C); shell builtins
# and sleep only
cat >"$T/fake.sh" <<'EOS'
t=$EPOCHREALTIME
if [[ /proc/self/fd/1 -ef /dev/null ]]; then k=C; else k=M; fi
echo "$1 $k" >>"$LOG"
sleep 0.02
printf 'time: %d.%s\n' $((${t%.*} - T0)) "${t#*.}"
EOS
# wl NAME: the fake as NAME, both models' parameters
wl() {
	cat >"$T/$1.json" <<EOW
{
  "schema": "pandia-workload/1",
  "command": ["bash", "$T/fake.sh", "$1"],
  "model": {"t1": 0.02, "p": 1.0, "o_s": 0, "l": 1, "b": 0,
            "demands": {"instructions": 4.0e9}},
  "models": {"mva": {"cpu_demand": 0.02, "mem_demand": 0}}
}
EOW
}
wl a
wl b

T0=$(date +%s) LOG="$T/log" PANDIA_TEST_TAG=$TAG "$P" validate --force \
	-r 3 --time-from 'time: ([0-9.]+)' --recorded -m "$T/m.json" \
	-w "$T/a.json" -w "$T/b.json" -o "$T/out" \
	>"$T/stdout" 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "co-run validation exited $?"; }
grep -q "2 divisions, each workload beside the other, 3 runs each after a warm-up, one of each per round" \
	"$T/stderr" || { cat "$T/stderr"; fail "the first line does not say the runs go in rounds"; }
grep -q "round 3 of 3, 4/4: measured " "$T/stderr" ||
	fail "no measured line in round 3"
grep -q "round 2 of 3, 1/4: [0-9.]* s (the other started [1-9][0-9]* times\{0,1\} beside it)" \
	"$T/stderr" || fail "no time line in round 2"
grep -q "round 3 of 3, 4/4: measured .*; the other started [1-9][0-9]* times\{0,1\} beside it)" \
	"$T/stderr" || fail "round 3's line: how often the other started"

F="$T/out/validate-corun.json"
: >"$T/rows"
for d in 0 1; do
	"$J" divisions.$d.workloads measured times <"$F" >"$T/d" ||
		fail "no times in the JSON"
	awk -v d=$d '{ print d "." NR - 1 "\t" $0 }' "$T/d" >>"$T/rows"
done
[ "$(wc -l <"$T/rows")" -eq 4 ] || { cat "$T/rows"; fail "4 rows expected"; }
# each workload at each division: three times, their median reported,
# and between two of them the three other runs of the round
awk -F '\t' '
	{ k = split($3, t, ","); n[$1] = k; m[$1] = $2
	  for (i = 1; i <= k; i++) { all[++a] = t[i]; of[a] = $1 } }
	END {
		for (r in n) {
			if (n[r] != 3) { print r ": " n[r] " times"; bad = 1 }
		}
		for (i = 1; i <= a; i++)
			for (j = 1; j <= a; j++) {
				if (of[i] != of[j] || all[j] <= all[i]) continue
				between = 0; later = 0
				for (l = 1; l <= a; l++) {
					if (of[l] == of[i] && all[l] > all[i] && all[l] < all[j]) later = 1
					if (of[l] != of[i] && all[l] > all[i] && all[l] < all[j]) between++
				}
				if (!later && between < 3) {
					print of[i] ": runs at " all[i] " and " all[j] " with " between " others between"
					bad = 1
				}
			}
		exit bad
	}' "$T/rows" || { cat "$T/rows"; fail "not in rounds"; }
awk -F '\t' '{ split($3, t, ","); s = t[1] " " t[2] " " t[3]
	cmd = "printf \"%s\\n\" " s " | sort -g | sed -n 2p"
	cmd | getline med; close(cmd)
	if (med + 0 != $2 + 0) { print $1 ": measured " $2 ", median " med; bad = 1 } }
	END { exit bad }' "$T/rows" || fail "the reported time is not the median"

# the measured runs: three a workload and division, and one warm-up
# each, in the first round only
for w in a b; do
	made=$(grep -c "^$w M" "$T/log")
	[ "$made" -eq 8 ] ||
		fail "workload $w ran $made times measured or warming up, expected 8 (2 divisions x (1 warm-up + 3 rounds))"
done
[ "$("$J" repetitions <"$F")" = 3 ] || fail "repetitions in the JSON"
exit 0
