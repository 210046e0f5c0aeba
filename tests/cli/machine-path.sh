#!/bin/sh
# PANDIA_MACHINES: a colon-separated list of directories searched for
# '-m NAME' before the user's and the installed ones, so that the
# identical nodes of a cluster share one description; the first that
# has NAME.json wins, empty entries name no directory, and a name found
# nowhere is refused with every place looked in.
set -u
B="${B:-build}"
P="$B/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$T/a" "$T/b" "$T/home/.local/share/pandia/machines"
# describe TOPOLOGY FILE
describe() {
	"$P" machine --topology "$1" --assume tests/data/assume-full.json \
		-o "$2" >/dev/null 2>"$T/err" || fail "machine: $(cat "$T/err")"
}
describe 'pack:1 core:2 pu:1' "$T/b/node.json"
describe 'pack:2 core:2 pu:1' "$T/a/node.json"
describe 'pack:1 core:3 pu:1' "$T/home/.local/share/pandia/machines/node.json"

# show PANDIA_MACHINES: the PUs line of 'machine --show node'
show() {
	HOME="$T/home" XDG_DATA_HOME= PANDIA_MACHINES="$1" \
		"$P" machine --show node >"$T/out" 2>"$T/err" ||
		fail "PANDIA_MACHINES='$1': $(cat "$T/err")"
	sed -n 's/.* \([0-9]* PUs\) .*/\1/p' "$T/out"
}

[ "$(show "$T/b")" = "2 PUs" ] || fail "one directory: $(cat "$T/out")"
[ "$(show "$T/a:$T/b")" = "4 PUs" ] || fail "the first directory wins"
[ "$(show "$T/b:$T/a")" = "2 PUs" ] || fail "the first directory wins"
[ "$(show ":$T/nosuch::$T/b:")" = "2 PUs" ] ||
	fail "empty entries and a missing directory: $(cat "$T/out")"
# before the user's own directory, which is used without it
[ "$(show "")" = "3 PUs" ] || fail "unset: the user's directory"
[ "$(show "$T/nosuch")" = "3 PUs" ] || fail "after it, the user's directory"

# a name found nowhere: every place looked in, PANDIA_MACHINES's first
HOME="$T/home" XDG_DATA_HOME= PANDIA_MACHINES="$T/nosuch:$T/b" \
	"$P" machine --show other >"$T/out" 2>"$T/err" && fail "'other' found"
grep -q "no machine description 'other': not a file, and not in $T/nosuch/other.json, $T/b/other.json, $T/home/.local/share/pandia/machines/other.json, " \
	"$T/err" || fail "not found: $(cat "$T/err")"
# no -m and no description of this host: where they were looked for
HOME="$T/home" XDG_DATA_HOME= PANDIA_MACHINES="$T/a:$T/b" \
	"$P" predict -w tests/data/workloads/full.json >"$T/out" 2>"$T/err" &&
	fail "predict without a description of this host"
grep -q "looked up in $T/a:$T/b, $T/home/.local/share/pandia/machines and " \
	"$T/err" || fail "no -m: $(cat "$T/err")"
# a path is a path, whatever the search path holds
PANDIA_MACHINES="$T/a" "$P" machine --show "$T/b/node.json" >"$T/out" \
	2>"$T/err" || fail "a path: $(cat "$T/err")"
grep -q " 2 PUs " "$T/out" || fail "a path: $(cat "$T/out")"
exit 0
