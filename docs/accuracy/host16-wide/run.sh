#!/bin/bash
# device run 3: the wide DRAM run on a real 16-core guest.  Two builds
# of the same commit: main (WIDE_PROBES 1.5: on a host whose DRAM
# aggregate is ~10 cores' rate the wide run needs 16 probes and is not
# made) and w12 (WIDE_PROBES 1.2: 13 probes, the workload on 4 cores).
# Each workload profiled and validated by one build and then the other.
S=$(date +%s)
DL=${DL:-440}
left() { echo $((DL - ($(date +%s) - S))); }
here=$(pwd)
export LD_LIBRARY_PATH=$here/.dev/lib
R=/tmp/res3
mkdir -p $R
exec > >(tee $R/log) 2>&1
echo "== env $(date -u +%FT%TZ) $(nproc) cpus, load $(cat /proc/loadavg)"
grep -m1 "model name" /proc/cpuinfo; uname -r
.dev/build-main/pandia --version || { ldd .dev/build-main/pandia; exit 1; }
RE='time: ([0-9.]+)'
dram() {
	python3 - "$1" <<'PY'
import json,sys
m=json.load(open(sys.argv[1]))['model']
d=m['demands'].get('dram'); s=m['demands_source'].get('dram')
a=m.get('demands_amplification',{}).get('dram'); u=m.get('demands_uncertainty',{}).get('dram')
print("DRAM %s GB/s +- %s amp %s from %s" % (d and round(d/1e9,3), u and round(u/1e9,3), a and round(a,2), s))
print("  status:", m['demands_status'].get('dram'))
PY
}
timeout 70 .dev/build-main/pandia machine --quick -o $R/machine.json >$R/machine.out 2>&1
echo "machine rc $? load $(cat /proc/loadavg) left $(left)"
tail -25 $R/machine.out | grep -i "dram\|core\|L3"
run() { # NAME BUILD CMD...
	name=$1 b=$2; shift 2
	B=.dev/build-$b; d=$R/$b/$name; mkdir -p $d
	set -- $B/workloads/"$@" --scale 0.5
	t0=$(date +%s)
	echo "== $name $b (load $(cat /proc/loadavg)) left $(left)"
	timeout $(( $(left) - 25 )) $B/pandia profile -m $R/machine.json -r 3 --budget 30 \
		--keep-unreliable --time-from "$RE" -o $d/workload.json -- "$@" \
		>$d/profile.out 2>$d/profile.err || { echo "profile rc $?"; tail -3 $d/profile.err; return; }
	dram $d/workload.json
	grep -o '"id": "[a-z0-9-]*"' $d/workload.json | tr '\n' ' '; echo
	[ "$V" = 0 ] && { echo "$name $b profile only $(( $(date +%s) - t0 )) s"; return; }
	timeout $(( $(left) - 5 )) $B/pandia validate -m $R/machine.json -w $d/workload.json \
		-k 1 -r 3 --time-from "$RE" -o $d -- "$@" >$d/validate.out 2>$d/validate.err
	echo "$name $b validate rc $? $(( $(date +%s) - t0 )) s"
	grep -E "^error|best|pick" $d/validate.out | head -4
}
for wl in "compute|compute" "balance-dynamic|balance --schedule dynamic" "stream|stream"; do
	name=${wl%%|*}; cmd=${wl#*|}
	for b in w12 main; do
		[ $(left) -gt 60 ] || { echo "no time for $name $b"; continue; }
		# shellcheck disable=SC2086
		run $name $b $cmd
	done
done
V=0
for wl in "compute|compute" "balance-dynamic|balance --schedule dynamic"; do
	name=${wl%%|*}; cmd=${wl#*|}
	[ $(left) -gt 45 ] || break
	# shellcheck disable=SC2086
	run $name-again w12 $cmd
done
echo "== done $(( $(date +%s) - S )) s load $(cat /proc/loadavg)"
tar czf $OUT/results3.tgz -C /tmp res3
