#!/bin/sh
# A runner template's placeholders cannot break out of the quoting
# they land in (common/shellword.c, shell_subst_template()): a command
# whose words hold $(...), backquotes, both quotes, ';', '&&', a
# newline and a glob, run through templates of every quoting form, is
# echoed word for word and never creates the canary file; a template
# whose quotes do not close is refused up front; a command too long
# for one argument of sh -c is refused with the limit named.
. tests/cli/run.inc
C="$T/canary"
# the words: each tries another way out
W1="\$(touch $C)"
W2="\`touch $C\`"
W3="'; touch $C; '"
W4="\"; touch $C; \""
W5="x && touch $C"
W6="a
touch $C"
W7="*"
W8='\'
for tmpl in '{cmd}' "sh -c '{cmd}'" 'sh -c "{cmd}"' "sh -c 'eval \"{cmd}\"'" \
	"sh -c \"eval '{cmd}'\"" "sh -c \"sh -c \\\"{cmd}\\\"\"" \
	'env X=1 {cmd}' "sh -c 'exec {cmd}'"; do
	rm -f "$C" "$T/out"
	"$P" run -q -r 1 --no-warmup --cpus 0 --show-output --runner "$tmpl" \
		-- printf '[%s]\n' "$W1" "$W2" "$W3" "$W4" "$W5" "$W6" "$W7" \
		"$W8" >/dev/null 2>"$T/out" ||
		{ cat "$T/out"; fail "template $tmpl: the run failed"; }
	[ -e "$C" ] && fail "template $tmpl: the canary was created"
	printf '[%s]\n' "$W1" "$W2" "$W3" "$W4" "$W5" "$W6" "$W7" "$W8" \
		>"$T/want"
	grep -v '^pandia' "$T/out" >"$T/got"
	cmp -s "$T/got" "$T/want" ||
		{ diff "$T/want" "$T/got"; fail "template $tmpl: the words changed"; }
	echo "ok: $tmpl"
done
# quotes that do not close: refused, nothing run
"$P" run -q -r 1 --no-warmup --cpus 0 --runner "sh -c '{cmd}" -- \
	touch "$C" >/dev/null 2>"$T/err" && fail "an open quote was taken"
grep -q "a single quote is not closed: pandia cannot tell how its placeholders are quoted" \
	"$T/err" || { cat "$T/err"; fail "an open quote: no reason"; }
[ -e "$C" ] && fail "an open quote: the command ran"
# too long for one argument: two words of 70000 bytes, each taken
# alone, make a line of the template longer than Linux takes in one
# argument (sh -c LINE): refused up front, the limit named
long=$(head -c 70000 /dev/zero | tr '\0' x)
"$P" run -q -r 1 --no-warmup --cpus 0 --runner 'sh -c {cmd}' -- \
	echo "$long" "$long" >/dev/null 2>"$T/err" &&
	fail "a 140000-byte line was taken"
grep -q "the runner's command line is 1400[0-9]* bytes with the command in it: Linux takes at most 131071 in one argument" \
	"$T/err" || { cat "$T/err"; fail "too long: the limit not named"; }
exit 0
