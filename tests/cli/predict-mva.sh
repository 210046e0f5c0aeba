# pandia predict --model mva through the command: the digest's
# faithfulness tests (shared/seeds/seed-mva.md, section 9) on machines
# from synthetic topologies and workload files with models.mva, within
# 0.1%: copies of one job (--copies), the multi-class W1 (several -w),
# the textbook checks; co-runs at given placements and ranked divisions
# with both models; the parameters derived from a profile's runs; the
# errors.
set -u
P="${B:-build}/pandia"
Q="${B:-build}/tests/progs/jsonq"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }

for n in 4 12; do
	"$P" machine --topology "pack:1 core:$n pu:1" \
		--assume tests/data/assume-full.json -o "$T/m$n.json" \
		>"$T/out" 2>"$T/err" || fail "machine of $n cores"
done

# wl NAME CPU MEM DISK: a workload file with models.mva only
wl() {
	printf '{\n  "schema": "pandia-workload/1",\n  "models": {"mva": {"cpu_demand": %s, "mem_demand": %s, "disk_demand": %s}}\n}\n' \
		"$2" "$3" "$4" >"$T/$1.json"
}
# wl_numa NAME CPU LOCAL REMOTE
wl_numa() {
	printf '{\n  "schema": "pandia-workload/1",\n  "models": {"mva": {"cpu_demand": %s, "mem_local_demand": %s, "mem_remote_demand": %s}}\n}\n' \
		"$2" "$3" "$3" >"$T/$1.json"
}
# near GOT WANT WHAT: within 0.1%
near() {
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d;
		exit !(d <= 0.001 * w) }' ||
		fail "$3 = $1, want $2 (within 0.1%)"
}
# copies MACHINE WORKLOAD N FIELD: workloads[0].FIELD of N copies
copies() {
	"$P" predict --model mva -m "$T/$1.json" -w "$T/$2.json" --copies "$3" \
		--json >"$T/out" 2>"$T/err" || fail "$2: --copies $3"
	"$Q" "workloads.0.$4" <"$T/out"
}

# 1. Sandy Bridge, no disk (Table 3): T(1..4), R(5..8); R = T up to m
wl sb 26.26 11.8 0
n=1
for want in 38.060 41.718 46.805 53.599; do
	near "$(copies m4 sb $n core_time)" $want "SB no-disk T($n)"
	near "$(copies m4 sb $n time)" $want "SB no-disk R($n)"
	n=$((n + 1))
done
for want in 66.998 80.398 93.798 107.197; do
	near "$(copies m4 sb $n time)" $want "SB no-disk R($n)"
	n=$((n + 1))
done
[ "$("$Q" workloads.0.copies <"$T/out")" = 8 ] || fail "copies in the JSON"
[ "$("$Q" mode <"$T/out")" = copies ] || fail "mode copies"

# 2. Westmere, no disk: T(12), R(18)
wl wm 19.70 8.31 0
near "$(copies m12 wm 12 core_time)" 99.721 "WM no-disk T(12)"
near "$(copies m12 wm 18 time)" 149.581 "WM no-disk R(18)"

# 3. Sandy Bridge with disk: R(1..4), R(8)
wl sbd 10.94 8.67 8.93
n=1
for want in 28.540 33.968 40.475 47.811; do
	near "$(copies m4 sbd $n time)" $want "SB disk R($n)"
	n=$((n + 1))
done
near "$(copies m4 sbd 8 time)" 85.075 "SB disk R(8)"

# 4. Westmere with disk: R(12), R(18)
wl wmd 20.16 8.88 0.8
near "$(copies m12 wmd 12 time)" 106.561 "WM disk R(12)"
near "$(copies m12 wmd 18 time)" 110.561 "WM disk R(18)"

# 5. W1 (Table 5), N = (U 4, M 4, H 12) on 12 cores, NUMA memory
wl_numa u 7.08 0.1
wl_numa mb 14.7 3.2
wl_numa h 26.55 13.0
"$P" predict --model mva -m "$T/m12.json" -w "$T/u.json" -w "$T/mb.json" \
	-w "$T/h.json" --copies 4,4,12 --json >"$T/out" 2>"$T/err" ||
	fail "W1 (4, 4, 12)"
"$Q" workloads core_time time <"$T/out" >"$T/w1"
set -- 8.04 13.4 43.74 72.9 142.59 237.6
while read -r t r; do
	near "$t" "$1" "W1 T"
	awk -v g="$r" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d;
		exit !(d <= 0.005 * w) }' || fail "W1 R = $r, want $2"
	shift 2
done <"$T/w1"
# N = (4, 4, 4): every job on a core, R = T
"$P" predict --model mva -m "$T/m12.json" -w "$T/u.json" -w "$T/mb.json" \
	-w "$T/h.json" --copies 4 --json >"$T/out" 2>"$T/err" ||
	fail "W1 (4, 4, 4)"
"$Q" workloads core_time time <"$T/out" >"$T/w1"
set -- 7.87 38.27 120.17
while read -r t r; do
	awk -v g="$t" -v w="$1" 'BEGIN { d = g - w; if (d < 0) d = -d;
		exit !(d <= 0.001 * w) }' || fail "W1 (4,4,4) T = $t, want $1"
	[ "$t" = "$r" ] || fail "W1 (4,4,4): R = T, got $r and $t"
	shift
done <"$T/w1"

# 6. textbook: one queue (R = N D), a delay alone (R = D)
wl queue 0 2 0
near "$(copies m4 queue 3 time)" 6 "one queue, N = 3, D = 2"
wl delay 5 0 0
near "$(copies m4 delay 3 time)" 5 "a delay alone"

# co-runs at given placements, both models: two DRAM-heavy workloads
cat >"$T/dram.json" <<'EOF'
{
  "schema": "pandia-workload/1",
  "model": {"t1": 10.0, "p": 1.0, "o_s": 0, "l": 1, "b": 0,
            "demands": {"instructions": 5.0e9, "dram": 12.0e9}},
  "models": {"mva": {"cpu_demand": 6.0, "mem_demand": 4.0}}
}
EOF
# Pandia: 4 threads x 12 GB/s on a 40 GB/s DRAM: 1.2 x, 10 / 2 x 1.2 = 6
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" \
	-p 0,1 -p 2,3 --json >"$T/out" 2>"$T/err" || fail "pandia co-run"
[ "$("$Q" workloads time <"$T/out" | tr '\n' ' ')" = "6 6 " ] ||
	fail "pandia co-run: the other workload's DRAM load counts"
"$Q" workloads.0.pin.taskset <"$T/out" | grep -q '^taskset -c 0,1 CMD$' ||
	fail "pin line of workload 1"
# alone on two PUs: 5 s; the co-runner makes it 6
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -p 0,1 --json >"$T/out" \
	2>"$T/err" || fail "pandia alone"
[ "$("$Q" placements.0.time <"$T/out")" = 5 ] || fail "alone on 0,1: 5 s"
# one PU shared by two busy threads: twice as long
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" \
	-p 0 -p 0 --json >"$T/out" 2>"$T/err" || fail "pandia PU shared"
[ "$("$Q" workloads time <"$T/out" | tr '\n' ' ')" = "20 20 " ] ||
	fail "pandia: a PU time-shared by two workloads"
# MVA: the same PU shared: N^mem = 1/2 each, R = 2 T; Schweitzer-Bard
# with half a job of each class still queues them at memory a little
# (docs/mva.md): 21.8, not 20
"$P" predict --model mva -m "$T/m4.json" -w "$T/dram.json" \
	-w "$T/dram.json" -p 0 -p 0 --json >"$T/out" 2>"$T/err" ||
	fail "mva PU shared"
for t in $("$Q" workloads time <"$T/out"); do
	near "$t" 21.798 "mva: a PU time-shared by two workloads"
done
# MVA, own PUs: the memory queue is shared.  Two classes of one job:
# Schweitzer-Bard gives R_mem = 4 (1 + R_mem / (6 + R_mem)), so 6, and
# T = 12; two copies of one class (exact MVA) give T(2) = 11.6
wl one 6.0 4.0 0
near "$(copies m4 one 2 time)" 11.6 "two copies, exact MVA"
"$P" predict --model mva -m "$T/m4.json" -w "$T/dram.json" \
	-w "$T/dram.json" -p 0 -p 1 --json >"$T/out" 2>"$T/err" ||
	fail "mva own PUs"
for t in $("$Q" workloads time <"$T/out"); do
	near "$t" 12 "mva co-run on own PUs (Schweitzer-Bard)"
done

# divisions ranked: JSON and text
"$P" predict --model mva -m "$T/m4.json" -w "$T/dram.json" \
	-w "$T/one.json" --json >"$T/out" 2>"$T/err" || fail "divisions"
[ "$("$Q" ranked <"$T/out")" = 6 ] || fail "6 divisions of 4 PUs"
[ "$("$Q" mode <"$T/out")" = divisions ] || fail "mode divisions"
"$Q" divisions.0.workloads cpus threads <"$T/out" >/dev/null ||
	fail "divisions[0].workloads"
[ "$("$Q" objective <"$T/out")" = max ] || fail "objective max"
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" \
	--objective sum --top 3 >"$T/out" 2>"$T/err" || fail "divisions, sum"
grep -q '^divisions 6 ranked by the sum of the times' "$T/out" ||
	fail "divisions text header"
[ "$(grep -c '^  taskset -c' "$T/out")" = 2 ] ||
	fail "a pin line per workload"

# the parameters from a profile's runs: run 1 alone, run 1 beside one
# DRAM stressor 1.2x slower; the stressor never leaves the memory
# queue (f = 2), so p = 0.2: cpu 8, mem 2; two copies: T(2) = 10.4
cat >"$T/prof.json" <<'EOF'
{
  "schema": "pandia-workload/1",
  "runs": [
    {"id": "run1", "cpus": "0", "stress": [], "times": [10.0]},
    {"id": "probe-dram", "cpus": "0", "stress": ["bw:dram@1"],
     "times": [12.0]}
  ],
  "models": {}
}
EOF
near "$(copies m4 prof 2 time)" 10.4 "derived from the profile's runs"

# errors
"$P" predict -m "$T/m4.json" -w "$T/dram.json" --copies 2 >"$T/out" \
	2>"$T/err" && fail "--copies with the Pandia model"
grep -q "the Pandia model predicts placements, not unpinned copies" \
	"$T/err" || fail "--copies with the Pandia model: message"
printf '{"schema": "pandia-workload/1", "models": {"other": {}}}\n' \
	>"$T/none.json"
"$P" predict --model mva -m "$T/m4.json" -w "$T/none.json" --copies 2 \
	>"$T/out" 2>"$T/err" && fail "no models.mva"
grep -q 'add "models": {"mva": {"cpu_demand": S, "mem_demand": S}}' \
	"$T/err" || fail "no models.mva: says what to add"
printf '{\n  "schema": "pandia-workload/1",\n  "models": {"mva": {"cpu_demand": "x", "mem_demand": 1}}\n}\n' \
	>"$T/bad.json"
"$P" predict --model mva -m "$T/m4.json" -w "$T/bad.json" --copies 2 \
	>"$T/out" 2>"$T/err" && fail "bad models.mva"
grep -q "bad.json:3:36: models.mva.cpu_demand: must be a number, not a string" \
	"$T/err" || fail "bad models.mva: line and column"
# a demand no run measured (it overflowed the queues' sums): refused
wl huge 6 1e308 0
"$P" predict --model mva -m "$T/m4.json" -w "$T/huge.json" --copies 2 \
	>"$T/out" 2>"$T/err" && fail "a demand of 1e308 s: $(cat "$T/out")"
grep -q "models.mva.mem_demand: 1e+308 s is more than 1e+09 s" "$T/err" ||
	fail "a demand of 1e308 s: $(cat "$T/err")"
"$P" predict --model mva -m "$T/m4.json" -w "$T/sb.json" -w "$T/sb.json" \
	--copies 1,2,3 >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "--copies count: exit 2"
grep -q -- "--copies: 3 numbers for 2 workloads" "$T/err" ||
	fail "--copies count: message"
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" -p 0 \
	>"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "one --placement for two workloads: exit 2"
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" -p 0 \
	-p 9 >"$T/out" 2>"$T/err" && fail "PU 9 on a 4-PU machine"
grep -q "placement '9': PU 9 is not in machine" "$T/err" ||
	fail "PU 9: message"
# -k with a co-run: refused, not ignored
"$P" predict -m "$T/m4.json" -w "$T/dram.json" -w "$T/dram.json" -k 2 \
	>"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "-k 2 with two workloads: exit 2"
grep -q -- "-k 2 is for one workload's ranking" "$T/err" ||
	fail "-k 2 with two workloads: message"
# the text names copies of one workload as such, not "1 workload
# together"
"$P" predict --model mva -m "$T/m4.json" -w "$T/sb.json" --copies 4 \
	>"$T/out" 2>"$T/err" || { cat "$T/err"; fail "--copies 4 as text"; }
grep -qx "model     mva, 4 copies of one workload" "$T/out" ||
	{ cat "$T/out"; fail "--copies 4: the model line"; }
exit 0
