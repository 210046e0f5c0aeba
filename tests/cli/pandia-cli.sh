# The pandia command: table, help, version, usage errors, stdout errors.
set -u
P="${B:-build}/pandia"
fail() { echo "FAIL: $*"; exit 1; }

"$P" --version | grep -Eq '^pandia [0-9]+\.[0-9]+' || fail "--version"
"$P" --help | grep -q 'commands:' || fail "--help"
for c in machine run profile predict validate tune extrapolate cpus explain; do
	a=$("$P" help "$c") || fail "help $c"
	b=$("$P" "$c" --help) || fail "$c --help"
	[ "$a" = "$b" ] || fail "'help $c' and '$c --help' differ"
	echo "$a" | head -n 1 | grep -q "^usage: pandia $c" ||
		fail "$c usage starts wrong"
	# the help is printed as it is, not through a format
	echo "$a" | grep -q '%%' && fail "$c --help shows '%%'"
	# every long option of the usage is in the man page
	man="docs/man/pandia-$c.1"
	[ -f "$man" ] || fail "no man page $man"
	for o in $(echo "$a" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$man" ||
		grep -q -- "$o" "$man" ||
			fail "$c: $o is not in $man"
	done
done
[ -f docs/man/pandia.1 ] || fail "no pandia.1"

"$P" 2>/dev/null; [ $? -eq 2 ] || fail "no command: exit 2"
"$P" frobnicate 2>err.$$; [ $? -eq 2 ] || fail "unknown command: exit 2"
grep -q "'frobnicate' is not a pandia command" err.$$ || fail "message"
"$P" machine --frob 2>err.$$; [ $? -eq 2 ] || fail "unknown option: exit 2"
grep -q "see 'pandia machine --help'" err.$$ || fail "usage hint"
# one wording for a bad option, in every command (one option layer)
for c in machine run profile predict validate tune extrapolate cpus explain; do
	"$P" $c --frob 2>err.$$
	[ $? -eq 2 ] || fail "$c --frob: exit status, expected 2"
	[ "$(cat err.$$)" = "pandia $c: unknown option '--frob'
see 'pandia $c --help'" ] || fail "$c --frob: said $(cat err.$$)"
	"$P" $c -Z 2>err.$$
	[ $? -eq 2 ] || fail "$c -Z: exit status, expected 2"
	grep -q "^pandia $c: unknown option '-Z'" err.$$ ||
		fail "$c -Z: said $(cat err.$$)"
done
rm -f err.$$

# a full disk on stdout is an error, not a silent truncation
if [ -w /dev/full ]; then
	"$P" --version >/dev/full 2>/dev/null && fail "/dev/full: exit 0"
fi
exit 0
