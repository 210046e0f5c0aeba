# pandia predict refuses bad input: a workload profiled elsewhere
# (unless --force), PUs not in the machine, empty placements, usage.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/err" 2>/dev/null; exit 1; }
M=machines/paper-figure3.json
W=tests/data/paper-section4-workload.json

# profiled on another machine: refused, naming what differs
sed 's/"host": "paper-figure3"/"host": "elsewhere"/' $W >"$T/w.json"
"$P" predict -m $M -w "$T/w.json" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "another machine: exit 1"
grep -q "was profiled on another machine than '$M': host 'paper-figure3' is not 'elsewhere'" \
	"$T/err" || fail "names the host"
grep -q -- "--force" "$T/err" || fail "mentions --force"
"$P" predict -m $M -w "$T/w.json" --force --top 1 >"$T/out" 2>"$T/err" ||
	fail "--force predicts"
grep -q 'warning: workload .* was profiled on another machine' "$T/err" ||
	fail "--force warns"

# a PU that is not in the machine, named
"$P" predict -m $M -w $W --placement 0,9 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "PU 9: exit 1"
grep -q "placement '0,9': PU 9 is not in machine '$M' (its PUs are 0-7)" \
	"$T/err" || fail "names PU 9"
# empty or malformed placements: usage errors
"$P" predict -m $M -w $W --placement '' >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "empty placement: exit 2"
grep -q 'empty PU list' "$T/err" || fail "empty placement message"
"$P" predict -m $M -w $W --placement 0,a >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "malformed placement: exit 2"

# usage
# no -m and no description of this host: how to make one
HOME="$T/home" XDG_DATA_HOME= "$P" predict -w $W >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "no -m: exit 1"
grep -q "no description of this host.*pandia machine" "$T/err" ||
	fail "-m message"
# a name that is nowhere: where it was looked for
HOME="$T/home" XDG_DATA_HOME= "$P" predict -m nosuch -w $W >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "-m nosuch: exit 1"
grep -q "no machine description 'nosuch'.*$T/home/.local/share/pandia/machines/nosuch.json" \
	"$T/err" || fail "-m nosuch message"
# a shipped machine by its name
"$P" predict -m paper-figure3 -w $W --top 1 >"$T/out" 2>"$T/err" ||
	fail "-m paper-figure3"
"$P" predict -m $M -w $W --trace >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "--trace alone: exit 2"
"$P" predict -m $M -w $W --memory far >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "--memory far: exit 2"
"$P" predict -m $M -w $W --threads 9 >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "9 threads on 8 PUs: exit 1"
grep -q 'no placement has 9 threads' "$T/err" || fail "9 threads message"
# a malformed workload: file, line, column, field
"$P" predict -m $M -w tests/data/workload-bad/04-p-above-one.json \
	>"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "bad workload: exit 1"
grep -q '04-p-above-one.json:24:10: model.p: must be between 0 and 1' \
	"$T/err" || fail "bad workload message"

# help: the same text both ways, on stdout
"$P" predict --help >"$T/h1" || fail "--help"
"$P" help predict >"$T/h2" || fail "help predict"
cmp -s "$T/h1" "$T/h2" || fail "--help and help differ"
grep -q '^usage: pandia predict \[-m MACHINE\] -w WORKLOAD' "$T/h1" || fail "usage"
echo ok
# a fraction written with the rounding of text is taken (1.0000001
# was refused as "must be between 0 and 1, got 1")
sed 's/"p": 0.9,/"p": 1.0000001,/' tests/data/paper-section4-workload.json \
	>"$T/p1.json"
grep -q '"p": 1.0000001' "$T/p1.json" || fail "p not planted"
"$P" predict -m machines/paper-figure3.json -w "$T/p1.json" --top 1 \
	>/dev/null 2>"$T/err" || fail "p = 1.0000001 refused"
