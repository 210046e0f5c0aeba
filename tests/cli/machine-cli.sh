# pandia machine --topology/--assume/--show, and its errors.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$P" machine --topology tests/data/topologies/4socket-smt.xml \
	--assume tests/data/assume-full.json -o "$T/m.json" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "describe 4-socket"; }
grep -q '4 sockets, 4 NUMA nodes, 16 cores, 32 PUs (0-31), 2 PUs per core' \
	"$T/out" || { cat "$T/out"; fail "summary"; }
"$P" machine --show "$T/m.json" >"$T/show" || fail "--show"
grep -q 'interconnect' "$T/show" || fail "--show prints links"
# to stdout by default, valid JSON with the fields scripts read
"$P" machine --topology 'pack:2 core:18 pu:2' \
	--assume tests/data/assume-full.json >"$T/s.json" || fail "stdout"
grep -q '"schema": "pandia-machine/1"' "$T/s.json" || fail "schema"
grep -q '"peak_rate": ' "$T/s.json" || fail "core.peak_rate"
grep -q '"per_core_bw": ' "$T/s.json" || fail "per_core_bw"

# --topology alone: no CPU model in a synthetic string, so the figures
# are unknown, written as such and said so
HOME="$T/home" XDG_DATA_HOME= "$P" machine --topology 'pack:2 core:2 pu:1' \
	>"$T/alone.json" 2>"$T/err" || fail "--topology alone"
grep -q 'every bandwidth are unknown' "$T/err" || fail "says unknown"
grep -q '"peak_rate": null' "$T/alone.json" || fail "peak_rate null"
"$P" machine --show "$T/alone.json" | grep -q 'core rate *unknown' ||
	fail "--show of unknown figures"
# the example of --help, with the shipped assume files
for a in machines/*.assume.json; do
	"$P" machine --topology 'pack:2 core:18 pu:2' --assume "$a" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "--help example $a"; }
done

# usage errors: exit 2
"$P" machine --assume tests/data/assume-full.json --quick 2>"$T/err"
[ $? -eq 2 ] || fail "--assume with --quick: exit 2"

# a bad --assume file: file, line, column, field
printf '{"schema": "pandia-assume/1",\n "core": {"peak_rate": -3},\n "links": {}}\n' >"$T/bad.json"
"$P" machine --topology 'pack:1 core:2 pu:1' --assume "$T/bad.json" \
	-o "$T/never.json" 2>"$T/err"
[ $? -eq 1 ] || fail "bad assume: exit 1"
grep -q "bad.json:2:24: core.peak_rate: must be positive (at least 1), got -3" "$T/err" ||
	{ cat "$T/err"; fail "bad assume message"; }
[ ! -e "$T/never.json" ] || fail "a file was written despite the error"

# a malformed description: named with line and column
"$P" machine --show tests/data/machine-bad/06-pu-twice.json 2>"$T/err"
[ $? -eq 1 ] || fail "bad description: exit 1"
grep -q '06-pu-twice.json:13:23: pus\[4\]: PU 3 is listed twice' "$T/err" ||
	fail "bad description message"

# cannot write: an error, and nothing half-written
"$P" machine --topology 'pack:1 core:2 pu:1' --assume tests/data/assume-full.json \
	-o /nonexistent/dir/m.json 2>"$T/err" >/dev/null
[ $? -eq 1 ] || fail "unwritable: exit 1"
grep -q "/nonexistent/dir/m.json" "$T/err" || fail "unwritable message"
exit 0
