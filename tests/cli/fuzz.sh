# The loaders under the fuzzer, briefly (make fuzz runs it long), the
# seven kinds, co-run pairs included: the
# wrong-but-accepted values of issue 18 refused with one line each, no
# sanitizer report, nothing wrong accepted.  Sanitized when make check
# built $B/fuzz.
set -u
B="${B:-build}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out"; exit 1; }

[ -x "$B/fuzz/tests/progs/fuzz" ] || [ -x "$B/tests/progs/fuzz" ] ||
	{ echo "no fuzzer built (make tests or make fuzz-build)"; exit 77; }
FUZZ_N=300 FUZZ_DIR="$T" sh scripts/fuzz >"$T/out" 2>&1 ||
	fail "the fuzzer objected"
for w in 'links\[0\].unit = \[1\]' 'links\[0\].unit = "furlongs"' \
	'caches.L1 = -1' 'caches\[0\].cores = \[\]' 'model.t1 = 1e-320'; do
	grep -q "^refused .*$w: " "$T/out" || fail "not refused: $w"
done
[ "$(grep -c ' 300 inputs from .* 0 wrong accepted, 0 bad errors' \
	"$T/out")" -eq 7 ] || fail "figures"
grep -q "^fuzz: $B/fuzz/" "$T/out" ||
	echo "note: the fuzzer ran without sanitizers (make fuzz-build)"
exit 0
