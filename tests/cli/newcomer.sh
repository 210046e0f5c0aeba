# A new user's first session, as the README tells it, in a fresh HOME:
# 'pandia machine' once, then profile, predict, run and cpus without
# -m (this host's description is found and named on stderr), a CPU list
# as a likwid-pin expression and as a hex mask, a shipped machine by
# its name, {threads} in the command.  Short: --quick and small work.
. "$(dirname "$0")/profile.inc"
need_pus 0 1
J="$B/tests/progs/jsonq"
H="$T/home"
mkdir -p "$H"
export HOME="$H"
unset XDG_DATA_HOME
# the README lists what this test runs
for w in '{threads}' 'pandia predict -w app.json -k 2' \
	'pandia machine --quick' 'x5-2-haswell' '0x3' 'S0:0-3'; do
	grep -qF -- "$w" README.md || fail "README does not mention $w"
done

# The README's first session, as written, each line run: ./app is a
# built-in workload, pandia the one built here (the README says to type
# build/pandia without the install).
awk '/^A first session on your own program/ { f = 1; next }
     f && /^```$/ { if (b) exit; b = 1; next }
     b' README.md | sed 's/ *#.*$//' >"$T/session"
[ "$(grep -c '^pandia ' "$T/session")" -ge 5 ] ||
	{ cat "$T/session"; fail "no first session in the README"; }
PA="$(pwd)/$P"
WA="$(pwd)/$WL"
mkdir -p "$T/s"
while read -r line; do
	cmd=$(printf '%s\n' "$line" | sed 's|^pandia |"$PA" |;
		s|\./app |"$WA/compute" --work 20 |')
	if ! (cd "$T/s" && eval "$cmd") >"$T/s.out" 2>"$T/s.err"; then
		# a busy host can make the profile refuse itself (runs
		# disturbed, or repetitions spread too far: both refusals
		# offer --keep-unreliable): that is the host, not the
		# README; the line is tried once more
		grep -q 'keep-unreliable writes it anyway' "$T/s.err" ||
			{ cat "$T/s.err"; fail "the README's first session: $line"; }
		cmd=$(printf '%s\n' "$cmd" | sed 's| profile | profile --keep-unreliable |')
		(cd "$T/s" && eval "$cmd") >"$T/s.out" 2>"$T/s.err" ||
			{ cat "$T/s.err"; fail "the README's first session: $line"; }
	fi
	echo "ok: $line"
done <"$T/session"

# 'make install' puts pandia on the PATH and its pages where 'man
# pandia' finds them (into a scratch root; the tree must be built)
if make -s -q all 2>/dev/null; then
	make -s install DESTDIR="$T/root" >/dev/null 2>"$T/i.err" ||
		{ cat "$T/i.err"; fail "make install"; }
	# PREFIX may come from the environment: find what it made
	bin=$(find "$T/root" -path '*/bin/pandia' -type f | head -n 1)
	mandir=$(find "$T/root" -path '*/share/man' -type d | head -n 1)
	[ -n "$bin" ] && [ -x "$bin" ] || fail "make install: no bin/pandia"
	if command -v man >/dev/null 2>&1; then
		[ -n "$mandir" ] || fail "make install: no share/man"
		for page in pandia pandia-profile pandia-workloads; do
			man -M "$mandir" -w $page \
				>/dev/null 2>&1 ||
				fail "make install: 'man $page' finds nothing"
		done
	fi
else
	echo "the build is not up to date: make install not tried"
fi

# the session's 'pandia machine --quick' wrote this host's description
# where profile and predict find it (one measurement: 23 to 27 s on a
# 2-vCPU guest)
host=$(hostname)
D="$H/.local/share/pandia/machines"
[ -f "$D/$host.json" ] || fail "pandia machine did not write $D/$host.json"
# the core rate with every core busy: measured on a socket of two
# cores or more, and either a lower clock or the lone core's rate
if [ "$("$J" topology.sockets.0.cores <"$D/$host.json" | tr ',' '\n' |
      wc -l)" -ge 2 ]; then
	ab=$("$J" core.all_busy_rate <"$D/$host.json") ||
		fail "no core.all_busy_rate in $D/$host.json"
	pk=$("$J" core.peak_rate <"$D/$host.json")
	awk -v a="$ab" -v p="$pk" 'BEGIN { exit !(a > 0 && a <= p) }' ||
		fail "core.all_busy_rate $ab is not in (0, peak_rate $pk]"
	"$J" core.all_busy_measure.note <"$D/$host.json" |
		grep -q 'one thread on each of the' ||
		fail "core.all_busy_measure does not say how it was measured"
fi
"$P" machine --show "$host" >/dev/null || fail "--show NAME"
# this host's topology as lstopo saves it: the figures come from the
# description just made (the same CPU model), and it says so
if command -v lstopo-no-graphics >/dev/null 2>&1 &&
   lstopo-no-graphics --of xml >"$T/host.xml" 2>/dev/null; then
	"$P" machine --topology "$T/host.xml" -o "$T/x.json" >/dev/null \
		2>"$T/x.err" || { cat "$T/x.err"; fail "--topology host.xml"; }
	grep -q "figures taken from $D/$host.json (the same CPU model" \
		"$T/x.err" || { cat "$T/x.err"; fail "--topology XML alone"; }
	grep -q '"host": "host"' "$T/x.json" || fail "the XML's name as host"
fi

# profile without -m: this host's description, said on stderr
"$P" profile -r 1 --no-warmup --keep-unreliable -o "$T/app.json" -- \
	"$WL/compute" --work 20 --threads '{threads}' \
	>"$T/p.out" 2>"$T/p.err" ||
	{ cat "$T/p.err"; fail "profile without -m"; }
grep -q "using this host's description $D/$host.json" "$T/p.err" ||
	{ cat "$T/p.err"; fail "profile does not say which machine"; }
# the backend comes before the runs' progress, not after them
first=$(grep -n 'probe backend\|run 1 of 6' "$T/p.err" | head -n 1)
case $first in
*"run 1 of 6"*) grep -q 'probe backend' "$T/p.err" &&
	fail "the backend notice came after the progress" ;;
esac

# predict without -m, the words fixed
"$P" predict -w "$T/app.json" >"$T/r.out" 2>"$T/r.err" ||
	{ cat "$T/r.err"; fail "predict without -m"; }
grep -q "using this host's description" "$T/r.err" ||
	fail "predict does not say which machine"
grep -q '1 threads' "$T/r.out" && fail "'1 threads'"
grep -q -- '-0\.0%' "$T/r.out" && fail "-0.0%"
grep -q '^  taskset -c ' "$T/r.out" || fail "no pin lines"
# compute needs no OpenMP runtime: no OMP_PLACES line (a sanitized
# build links libgomp into it all the same: then the line is right)
if ! readelf -d "$WL/compute" 2>/dev/null | grep -q 'NEEDED.*lib[gi]*omp'; then
	grep -q 'OMP_PLACES' "$T/r.out" &&
		fail "an OMP line for a non-OpenMP program"
fi
"$P" predict -w "$T/app.json" -k 2 --top 3 >/dev/null 2>&1 || fail "-k 2"

# a likwid-pin expression and a hex mask as placements
"$P" predict -w "$T/app.json" --placement S0:0-1 --json >"$T/l.json" \
	2>/dev/null || fail "--placement S0:0-1"
"$P" predict -w "$T/app.json" --placement 0x3 --json >"$T/h.json" \
	2>/dev/null || fail "--placement 0x3"
tr -d ' \n' <"$T/l.json" | grep -q '"cpus":\[0,1\],"cpus_text":"0,1"' ||
	fail "S0:0-1 is not PUs 0,1 in the JSON"
# repeats and order: the set lines say what they lose
"$P" predict -w "$T/app.json" --placement 1,0,0 >"$T/o.out" 2>/dev/null ||
	fail "--placement 1,0,0"
loses='# a set: loses the thread order and which threads share a PU'
grep -q "^  taskset -c 0,1 .*$loses; the pandia run line keeps both" \
	"$T/o.out" || { cat "$T/o.out"; fail "taskset does not say it"; }

# run and cpus take them too
"$P" run -q -r 1 --no-warmup --json --cpus 0x3 -- \
	"$WL/compute" --work 5 --threads '{threads}' >"$T/run.json" ||
	fail "run --cpus 0x3"
tr -d ' \n' <"$T/run.json" | grep -q '"cpus":\[0,1\],"cpus_text":"0,1"' ||
	fail "run's cpus"
"$P" run -q -r 1 --no-warmup --cpus E:N:2:1:1 -- \
	"$WL/compute" --work 5 --threads '{threads}' >/dev/null ||
	fail "run --cpus E:N:2:1:1"
[ "$("$P" cpus N:0-1 0x3 core:0.pu:0)" = "0,1
0,1
0" ] || fail "pandia cpus"
"$P" cpus 'S0:x' 2>"$T/c.err" && fail "a bad expression is accepted"
grep -q 'accepted: OS PU numbers.*hex masks.*likwid-pin.*hwloc' "$T/c.err" ||
	fail "the error does not name the accepted forms"

# a shipped machine by its name
"$P" predict -m x5-2-haswell -w "$T/app.json" --force --top 1 \
	>/dev/null 2>&1 || fail "-m x5-2-haswell"
exit 0
