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

# ---- counts: every division once, up to symmetry --------------------
# 16 PUs (2 sockets of 4 two-PU cores): R ranks of 1 to 16/R threads,
# one division per class under swapping the sockets, a socket's cores,
# a core's PUs and the ranks (tests/check_divisions.c checks the
# enumeration against a brute-force orbit count on smaller machines).
# 16 ranks fill the machine one way; 8 ranks of 1 thread are the
# placements of 8 threads (16), of 2 threads 95 classes; 1 rank of T
# threads is the placements of T threads (119 for T = 1..16).
count() {
	predict -m "$T/m.json" "$@" || fail "predict $* exited $?"
	sed -n 's/^divisions \([0-9]*\) ranked.*/\1/p' "$T/out"
}
[ "$(count --ranks 16)" = 1 ] || fail "--ranks 16: one division"
[ "$(count --ranks 8)" = 111 ] || fail "--ranks 8: 16+95 divisions"
[ "$(count --ranks 4)" = 900 ] || fail "--ranks 4: 8+135+614+143"
[ "$(count --ranks 2)" = 447 ] || fail "--ranks 2: 447 divisions"
[ "$(count --ranks 1)" = 119 ] || fail "--ranks 1: 119 divisions"
# any: every R that divides 16
[ "$(count --ranks any)" = 1578 ] || fail "--ranks any: 119+447+900+111+1"
[ "$(count --ranks 8 -t 1)" = 16 ] || fail "--ranks 8 -t 1: 16 divisions"
# 8 threads: one rank (16 placements of 8 threads), two ranks (14)
[ "$(count --ranks any -t 8)" = 30 ] || fail "--ranks any -t 8: R 1 and 2"
grep -q '^ *1 \+[12] \+8  ' "$T/out" || fail "-t 8: rows of 8 threads"
# on a machine this small the enumeration is complete: no cap said
grep -q 'divisions: first' "$T/err" && fail "a cap on 16 PUs"

# ---- a cap: 32 PUs, 4 ranks ------------------------------------------
# 10,805 classes at least, more than predict ranks: it says how many it
# ranked of how many, and the launchers' 44 layouts (the distinct
# layouts of T = 1..8) are all among them
machine 'pack:2 core:8 pu:2' "$T/m32.json"
predict -m "$T/m32.json" --ranks 4 --top 0 --json || fail "32 PUs exited $?"
grep -q 'divisions: first 40[0-9][0-9] of at least 10805 up to symmetry' \
	"$T/err" || fail "32 PUs: the cap said on stderr"
[ "$("$Q" complete <"$T/out")" = false ] || fail "32 PUs: json complete"
[ "$("$Q" divisions launcher_layout <"$T/out" | grep -c true)" = 44 ] ||
	fail "32 PUs: every layout ranked"

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
# both ranks on one socket of 4 two-PU cores: k cores of each rank's
# two threads and 4 - 2k cores shared, k = 0, 1, 2 (packed by core,
# the mixed one, packed by PU): the three slowest
[ "$(sed -n '/^rank ranks/,/^$/p' "$T/out" | grep -c '10\.00')" = 3 ] ||
	fail "the three one-socket divisions are the slowest"
grep -q '^ *[0-9]\+ \+2 \+4  1 socket/rank, 2 split \+10.00  0-2,4 | 3,5-7' \
	"$T/out" || fail "the one-socket division no launcher asks for"
grep -q '^  rank 0   cpus 0,2,4,6 .*bottleneck DRAM' "$T/out" ||
	fail "rank 0 on socket 0"
grep -q '^  rank 1   cpus 8,10,12,14 ' "$T/out" || fail "rank 1 on socket 1"
# --json: the ranks' placements, best first
predict -m "$T/numa.json" --ranks 2 -t 4 --json ||
	fail "--json exited $?"
[ "$("$Q" mode <"$T/out")" = ranks ] || fail "json mode"
[ "$("$Q" ranked <"$T/out")" = 87 ] || fail "json ranked"
[ "$("$Q" complete <"$T/out")" = true ] || fail "json complete"
[ "$("$Q" divisions.0.launcher_layout <"$T/out")" = true ] ||
	fail "json: the best is a launcher's layout"
[ "$("$Q" divisions.0.shared_cores <"$T/out")" = 0 ] ||
	fail "json shared_cores"
[ "$("$Q" divisions.0.layout <"$T/out")" = "spread, by core" ] ||
	fail "json best layout"
[ "$("$Q" divisions.0.processes cpus <"$T/out" | tr '\n' ' ')" = \
	"0,2,4,6 8,10,12,14 " ] || fail "json processes' cpus"
"$Q" divisions.0.processes rank time bottleneck <"$T/out" >/dev/null ||
	fail "json processes' fields"

# ---- a division no launcher layout gives wins -----------------------
# static load balance (l 0), p 0.9, 20 GB/s of DRAM a thread, each
# socket its own 40 GB/s: 2 ranks of 5 threads.  Spread keeps each
# rank on one socket's DRAM, split starts every rank on socket 0 (6
# threads there, 4 on socket 1): 5.000 s at best.  Crossed ranks, 3
# threads of one and 2 of the other on each socket, keep 5 threads a
# socket and give each rank both sockets' DRAM: 4.700 s (the model's
# answer on a described machine, not a measurement).
sed -e 's/"p": 0.99/"p": 0.9/' -e 's/"l": 1,/"l": 0,/' $W >"$T/l0.json"
"$P" predict -q --force -m "$T/numa.json" -w "$T/l0.json" --ranks 2 -t 5 \
	--json >"$T/out" 2>"$T/err" || fail "--ranks 2 -t 5, l 0: exited $?"
[ "$("$Q" divisions.0.launcher_layout <"$T/out")" = false ] ||
	fail "l 0: the best is no launcher's layout"
[ "$("$Q" divisions.0.processes cpus <"$T/out" | tr '\n' ' ')" = \
	"0-2,8,10 3,4,9,12,13 " ] || fail "l 0: the best division's PUs"
[ "$("$Q" divisions.0.sockets_per_rank <"$T/out")" = 2,2 ] ||
	fail "l 0: both ranks over both sockets"
"$P" predict -q --force -m "$T/numa.json" -w "$T/l0.json" --ranks 2 -t 5 \
	>"$T/out" 2>"$T/err" || fail "--ranks 2 -t 5, l 0: exited $?"
grep -q '^best      2 ranks of 5 threads (2 sockets/rank, 2 split): 4.700 s' \
	"$T/out" || fail "l 0: the best at 4.700 s"
grep -q '^ *[0-9]\+ \+2 \+5  spread, by core \+5.000  ' "$T/out" ||
	fail "l 0: spread, by core at 5.000 s"
grep -qF 'slot=0-2,8,10\nrank 1=localhost slot=3,4,9,12,13\n' "$T/out" ||
	fail "l 0: the rankfile of the best division"

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
