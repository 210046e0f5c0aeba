#!/bin/sh
# A DRAM stressor's buffer (the profile's DRAM probe) sweeps 4 times the
# last-level cache, or, where the machine description read an array of
# a cache larger a core than any processor has at DRAM's rate, 4 times
# that array: one core reaches less of such a cache (a PVM guest's 508
# MiB L3 for each vCPU).  Through 'pandia run -m' with a described
# two-core machine whose L3 is 100 MiB a core, figures assumed (no
# array: 400 MiB) and then with its L3 array, 25 MiB, read at 31 GB/s
# beside DRAM's 32 (100 MiB); read at 40 GB/s, a cache (400 MiB).  The
# summary says which.
. "$(dirname "$0")/run.inc"
need_pus 0 1

cat >"$T/assume.json" <<'EOT'
{
  "schema": "pandia-assume/1",
  "cpu_model": "test CPU",
  "host": "testhost",
  "source": "round figures for tests",
  "core": {"peak_rate": 1.0e10},
  "links": {
    "L1": {"per_core_bw": 2.0e11, "aggregate_bw": 2.0e11},
    "L2": {"per_core_bw": 1.0e11, "aggregate_bw": 1.0e11},
    "L3": {"per_core_bw": 3.1e10, "aggregate_bw": 3.1e10},
    "dram": {"per_core_bw": 3.2e10, "aggregate_bw": 4.0e10}
  }
}
EOT
"$P" machine --topology 'Package:1 [NUMANode(memory=1073741824)] L3Cache:2(size=104857600) L2Cache:1(size=1048576) L1dCache:1(size=32768) Core:1 PU:1' \
	--assume "$T/assume.json" -o "$T/assumed.json" >/dev/null \
	2>"$T/m.err" || { cat "$T/m.err"; fail "cannot describe the machine"; }

# described L3 ARRAY BW: the description with the L3 per-core figure's
# array and rate set (the line after the L3 link's "level")
described() {
	awk -v ws="$2" -v bw="$3" '
	prev ~ /"level": "L3"/ && /"per_core_bw"/ {
		l3 = 1; sub(/3\.1e\+?10/, bw)
	}
	l3 && /"working_set_bytes"/ && !done {
		sub(/0\.0/, ws); done = 1
	}
	{ prev = $0; print }' "$T/assumed.json" >"$T/$1.json"
	grep -q "\"working_set_bytes\": $2," "$T/$1.json" ||
		fail "$1: the L3 array was not set"
}
described missed 26214400 3.1e10
described cache 26214400 4.0e10

# buffer NAME: the DRAM stressor's working set with -m NAME.json
buffer() {
	"$P" run --cpus 0 --stress bw:dram@1 -r 1 --no-warmup -q \
		-m "$T/$1.json" --json -- true >"$T/$1.run" 2>"$T/$1.err" ||
		{ cat "$T/$1.err"; fail "$1: pandia run failed"; }
	sed -n 's/^ *"working_set": \([0-9]*\),*$/\1/p' "$T/$1.run" | head -n 1
}
for want in "assumed 419430400" "missed 104857600" "cache 419430400"; do
	set -- $want
	got=$(buffer "$1")
	echo "$1: DRAM buffer $got bytes"
	[ "$got" = "$2" ] || fail "$1: DRAM buffer $got bytes, not $2"
done

for name in assumed missed cache; do
	"$P" machine --show "$T/$name.json" >"$T/$name.show" 2>&1 ||
		{ cat "$T/$name.show"; fail "$name: --show failed"; }
	grep -q "L3 100 MiB x 2, shared by 1 core: more a core than any processor has" \
		"$T/$name.show" || { cat "$T/$name.show"; fail "$name: L3 line"; }
done
grep -q "its 25 MiB array a core read at DRAM's rate: one core reaches less of it" \
	"$T/missed.show" || { cat "$T/missed.show"; fail "missed: not said"; }
if grep -q "reaches less" "$T/assumed.show" "$T/cache.show"; then
	fail "a level read above DRAM, or assumed, said to be missed"
fi
echo "run-reach: ok"
