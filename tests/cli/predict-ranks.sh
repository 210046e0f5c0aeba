# pandia predict --ranks: the divisions of a machine into ranks of
# threads (hybrid jobs), counted on described machines, ranked where the
# answer is known, the errors, and one real mpirun run of the hybrid
# MPI+OpenMP program at the best division's PUs.
set -u
P="${B:-build}/pandia"
Q="${B:-build}/tests/progs/jsonq"
H="${B:-build}/tests/progs/hybrid"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }
# a memory-bound workload (20 GB/s of DRAM a thread, p 0.99)
W=tests/data/topology-workload.json

machine() {
	"$P" machine -q --topology "$1" --assume tests/data/assume-full.json \
		-o "$2" >/dev/null 2>"$T/err" || fail "cannot describe '$1'"
}
machine 'pack:2 core:4 pu:2' "$T/m.json"
machine 'pack:2 numa:1 core:4 pu:2' "$T/numa.json"

predict() {
	"$P" predict -q --force -w $W "$@" >"$T/out" 2>"$T/err"
}

# ---- counts: each division once, over the layouts ------------------
# 16 PUs: R ranks of 1 to 16/R threads, packed, spread or split over
# the two sockets, by core or by PU.  16 ranks fill the machine one way;
# 8 ranks of 1 thread: socket 0 (packed = split), its first PUs and
# socket 1's (spread by core), its first cores and socket 1's (spread by
# PU); of 2 threads: rank pairs on the cores' first or second PUs, on
# one core, or one PU on each socket (split by core = split by PU).
count() {
	predict -m "$T/m.json" "$@" || fail "predict $* exited $?"
	sed -n 's/^divisions \([0-9]*\) ranked.*/\1/p' "$T/out"
}
[ "$(count --ranks 16)" = 1 ] || fail "--ranks 16: one division"
[ "$(count --ranks 8)" = 6 ] || fail "--ranks 8: 6 divisions"
[ "$(count --ranks 4)" = 20 ] || fail "--ranks 4: 20 divisions"
[ "$(count --ranks 2)" = 41 ] || fail "--ranks 2: 41 divisions"
[ "$(count --ranks 1)" = 50 ] || fail "--ranks 1: 50 divisions"
# any: every R that divides 16, 1 + 2 + 4 + 8 + 16
[ "$(count --ranks any)" = 118 ] || fail "--ranks any: 50+41+20+6+1"
[ "$(count --ranks 8 -t 1)" = 3 ] || fail "--ranks 8 -t 1: 3 divisions"
# 8 threads: one rank on socket 0 or split over both sockets by core
# or by PU; two ranks the same three ways
[ "$(count --ranks any -t 8)" = 6 ] || fail "--ranks any -t 8: R 1 and 2"
grep -q '^ *1 \+[12] \+8  ' "$T/out" || fail "-t 8: rows of 8 threads"

# ---- the ranking: memory-bound ranks spread over both packages ------
# each socket its own DRAM (40 GB/s, two threads' worth): two ranks of
# 4 threads on one socket share its DRAM (10 s), one a socket has it
# alone (5 s)
predict -m "$T/numa.json" --ranks 2 -t 4 --top 0 ||
	fail "--ranks 2 -t 4 exited $?"
grep -q '^best      2 ranks of 4 threads (spread, by core): 5.000 s' \
	"$T/out" || fail "the best spreads the ranks over both sockets"
grep -q '^ *[0-9]\+ \+2 \+4  packed, by core \+10.00  0,2,4,6 | 1,3,5,7' \
	"$T/out" || fail "packed on one socket: twice as slow"
[ "$(sed -n '/^rank ranks/,/^$/p' "$T/out" | grep -c '10\.00')" = 2 ] ||
	fail "the two packed divisions are the slowest"
grep -q '^  rank 0   cpus 0,2,4,6 .*bottleneck DRAM' "$T/out" ||
	fail "rank 0 on socket 0"
grep -q '^  rank 1   cpus 8,10,12,14 ' "$T/out" || fail "rank 1 on socket 1"
# --json: the ranks' placements, best first
predict -m "$T/numa.json" --ranks 2 -t 4 --json ||
	fail "--json exited $?"
[ "$("$Q" mode <"$T/out")" = ranks ] || fail "json mode"
[ "$("$Q" ranked <"$T/out")" = 6 ] || fail "json ranked"
[ "$("$Q" divisions.0.layout <"$T/out")" = "spread, by core" ] ||
	fail "json best layout"
[ "$("$Q" divisions.0.processes cpus <"$T/out" | tr '\n' ' ')" = \
	"0,2,4,6 8,10,12,14 " ] || fail "json processes' cpus"
"$Q" divisions.0.processes rank time bottleneck <"$T/out" >/dev/null ||
	fail "json processes' fields"

# ---- errors: a clear one each, nothing written -----------------------
err() {
	want=$1 rc=$2
	shift 2
	predict -m "$T/m.json" "$@"
	got=$?
	[ "$got" = "$rc" ] || fail "$* exited $got, not $rc"
	[ -s "$T/out" ] && fail "$*: wrote to stdout"
	grep -q -- "$want" "$T/err" || fail "$*: no '$want'"
}
err "--ranks 3 does not divide the 16 PUs" 1 --ranks 3
err "--ranks 17: more ranks than the 16 PUs" 1 --ranks 17
err "--ranks 4 of --threads 5: 20 threads" 1 --ranks 4 -t 5
err "--threads 17: more threads than the 16 PUs" 1 --ranks any -t 17
err "--ranks takes a number >= 1 or 'any', not '0'" 2 --ranks 0
err "--ranks takes a number >= 1 or 'any', not 'x'" 2 --ranks x
err "--ranks is for one workload" 2 --ranks 2 -w $W
err "--ranks and --placement do not go together" 2 --ranks 2 -p 0
err "-k 2 is for one workload's ranking" 2 --ranks 2 -k 2

# ---- one real job: the hybrid program under mpirun -------------------
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$H" ]; then
	echo "SKIP: the mpirun run: no Open MPI here (scripts/install-deps" \
		"installs openmpi-bin and libopenmpi-dev; make tests builds" \
		"$H with mpicc)"
	exit 77
fi
# this host's first two PUs as a machine of two one-PU cores
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "SKIP: the mpirun run needs 2 PUs"; exit 77; }
machine 'pack:1 core:2 pu:1' "$T/two.json"
predict -m "$T/two.json" --ranks 2 --json || fail "--ranks 2 on 2 PUs"
lists=$("$Q" divisions.0.processes cpus <"$T/out" | tr '\n' ';')
[ "$lists" = "0;1;" ] || fail "2 ranks of 1 thread on PUs 0 and 1"
# the Open MPI line predict prints for the best division, run as printed
# (in the temporary directory, where it writes its rankfile)
H=$(cd "$(dirname "$H")" && pwd)/hybrid
cat >"$T/hy.json" <<EOF
{
  "schema": "pandia-workload/1",
  "command": ["$H", "--work", "0.05"],
  "machine": {"host": "testhost", "cpu_model": "test CPU, 2.5 GHz",
              "pus": "0-1"},
  "model": {"t1": 1, "p": 0.99, "o_s": null,
    "o_s_status": "not measured: one socket", "l": 0, "b": null,
    "b_status": "not measured: no SMT", "demands": {"instructions": 1e9}}
}
EOF
"$P" predict -q --force -m "$T/two.json" -w "$T/hy.json" --ranks 2 -t 1 \
	--json >"$T/out" 2>"$T/err" || fail "--ranks 2 of the hybrid program"
line=$("$Q" divisions.0.pin.ompi <"$T/out")
case $line in
*"rank 0=localhost slot=0\\nrank 1=localhost slot=1\\n"*"mpirun -np 2 "*"env OMP_NUM_THREADS=1 $H --work 0.05") ;;
*) fail "the ompi line of the best division: $line" ;;
esac
(cd "$T" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	timeout 60 sh -c "$line") >"$T/out" 2>"$T/err" ||
	fail "'$line' exited $?"
grep -q '^rank 0 of 2: 1 thread on cpus 0, ' "$T/out" ||
	fail "rank 0 bound to PU 0"
grep -q '^rank 1 of 2: 1 thread on cpus 1, ' "$T/out" ||
	fail "rank 1 bound to PU 1"
grep -q '^time: [0-9.]*$' "$T/out" || fail "the job's time"
exit 0
