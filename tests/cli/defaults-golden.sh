# What users get without pandia (OS scheduler, OMP_PROC_BIND close and
# spread in libgomp's place order), as 'pandia predict' and 'pandia
# validate' both show it, against the golden placements in
# tests/data/defaults/golden.tsv: the X5-2 and X2-4 at 1, 3, 6 and all
# threads.
set -u
B="${B:-build}"
P="$B/pandia"
Q="$B/tests/progs/jsonq"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
W=tests/data/paper-section4-workload.json
G=tests/data/defaults/golden.tsv

# golden MACHINE N KIND: the expected OS list
golden() {
	awk -F'\t' -v m="$1" -v n="$2" -v k="$3" \
		'$1 == m && $2 == n && $3 == k { print $4 }' "$G"
}

# name N P KIND: the name both commands give the default
name() {
	if [ "$1" -eq "$2" ]; then
		case $3 in
		unpinned) echo "all PUs, unpinned (OS scheduler)" ;;
		*) echo "OMP_PROC_BIND=$3" ;;
		esac
	else
		s=s; [ "$1" -eq 1 ] && s=
		case $3 in
		unpinned) echo "unpinned, $1 thread$s" ;;
		*) echo "OMP_PROC_BIND=$3, $1 thread$s" ;;
		esac
	fi
}

# set_of LIST: the PUs of a list, sorted, once each
set_of() {
	echo "$1" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1;
		i <= $2; i++) print i; else print $1 }' | sort -nu |
		tr '\n' ' '
}

checked=0
for m in x5-2-haswell x2-4-westmere; do
	M=machines/$m.json
	all=$("$Q" pus <"$M" | tr ',' '\n' | wc -l)
	for n in 1 3 6 "$all"; do
		"$P" predict -m "$M" -w $W --force -t "$n" --json \
			>"$T/p.json" 2>/dev/null || fail "$m: predict -t $n"
		"$Q" defaults name cpus_text <"$T/p.json" >"$T/p.tsv" ||
			fail "$m: predict JSON has no defaults"
		rm -rf "$T/v"
		"$P" validate -m "$M" -w $W --force -t "$n" -p top:1 -n \
			-o "$T/v" -- true >/dev/null 2>&1 ||
			fail "$m: validate -t $n --dry-run"
		"$Q" heuristics name cpus_text <"$T/v/validate.json" >"$T/v.tsv" ||
			fail "$m: validate.json has no heuristics"
		for k in unpinned close spread; do
			# predict: the whole machine unpinned, close and
			# spread at N; validate: all three at N and at all
			for src in p v; do
				nn=$n
				[ $src = p ] && [ $k = unpinned ] && nn=$all
				want=$(golden $m "$nn" $k)
				[ -n "$want" ] || fail "no golden line $m $nn $k"
				nm=$(name "$nn" "$all" $k)
				got=$(awk -F'\t' -v x="$nm" '$1 == x { print $2 }' \
					"$T/$src.tsv")
				if [ $src = v ] && [ "$nn" -eq "$all" ]; then
					# validate runs a placement once: at every
					# PU, close and spread are the row of the
					# same set (equal up to thread order)
					got=$(set_of "$got")
					want=$(set_of "$want")
				fi
				[ "$got" = "$want" ] || fail "$m, $nn threads, $k:" \
					"$src gives '$got', golden '$want'"
				checked=$((checked + 1))
			done
		done
	done
done
echo "$checked defaults checked against $G"
