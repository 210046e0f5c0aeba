# Every command's --help and its man page list the same long options:
# those of the help's option lines ("  -x, --name ..." or
# "      --name ...") and those of the man page's OPTIONS items (the tag
# line after each .TP).  A difference either way fails, naming it.
set -u
P="${B:-build}/pandia"
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$P" ] || fail "$P is not built (run make)"

# the long options of 'pandia CMD --help', one a line, sorted
help_opts() {
	"$P" "$1" --help |
		grep -E '^  (-[A-Za-z0-9], )?--[a-z]|^      --[a-z]' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# the long options of the man page's OPTIONS section: the tag of every
# .TP item (-- written \-\- in roff)
man_opts() {
	awk '
		/^\.SH / { in_opts = ($2 == "OPTIONS") ; next }
		in_opts && /^\.TP/ { tag = 1; next }
		in_opts && tag { print; tag = 0 }
	' "$1" | sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

status=0
for c in machine run profile predict validate tune extrapolate cpus explain; do
	man="docs/man/pandia-$c.1"
	[ -f "$man" ] || fail "no man page $man"
	h=$(help_opts "$c") || fail "$c --help"
	m=$(man_opts "$man")
	[ -n "$h" ] || fail "$c --help lists no long option"
	only_help=$(printf '%s\n' "$h" | grep -vxF -e "$m" || true)
	only_man=$(printf '%s\n' "$m" | grep -vxF -e "$h" || true)
	if [ -n "$only_help" ]; then
		echo "FAIL: $c: in --help, not in $man:" $only_help
		status=1
	fi
	if [ -n "$only_man" ]; then
		echo "FAIL: $c: in $man, not in --help:" $only_man
		status=1
	fi
done
[ $status -eq 0 ] && echo "help and man pages list the same options"
exit $status
