#!/bin/bash
# device run 2: three built-in workloads, profiled with --budget 30 and
# --keep-unreliable (so that the check runs are made on a noisy guest)
# and validated, by two builds side by side, each pair back to back.
S=$(date +%s)
DL=${DL:-400}
left() { echo $((DL - ($(date +%s) - S))); }
here=$(pwd)
export LD_LIBRARY_PATH=$here/.dev/lib
R=/tmp/res2
mkdir -p $R
exec > >(tee $R/log) 2>&1
echo "== env $(date -u +%FT%TZ) $(nproc) cpus, load $(cat /proc/loadavg)"
RE='time: ([0-9.]+)'
timeout 60 .dev/build-main/pandia machine --quick -o $R/machine.json
echo "machine done, load $(cat /proc/loadavg) left $(left)"
for wl in "stream|stream" "balance-dynamic|balance --schedule dynamic" "compute|compute"; do
	name=${wl%%|*}; cmd=${wl#*|}
	for b in sat main; do
		[ $(left) -gt 50 ] || { echo "no time for $name $b"; continue; }
		B=.dev/build-$b; d=$R/$b/$name; mkdir -p $d
		# shellcheck disable=SC2086
		set -- $B/workloads/$cmd --scale 0.5
		t0=$(date +%s)
		echo "== $name $b (load $(cat /proc/loadavg)) left $(left)"
		timeout $(( $(left) - 30 )) $B/pandia profile -m $R/machine.json -r 3 --budget 30 \
			--keep-unreliable --time-from "$RE" -o $d/workload.json -- "$@" \
			>$d/profile.out 2>$d/profile.err || { echo "profile rc $?"; tail -3 $d/profile.err; }
		timeout $(( $(left) - 5 )) $B/pandia validate -m $R/machine.json -w $d/workload.json \
			-k 1 -r 3 --time-from "$RE" -o $d -- "$@" >$d/validate.out 2>$d/validate.err
		echo "$name $b validate rc $? $(( $(date +%s) - t0 )) s"
		grep -E "median|best|pick" $d/validate.out | head -4
	done
done
echo "== done $(( $(date +%s) - S )) s load $(cat /proc/loadavg)"
tar czf $OUT/results2.tgz -C /tmp res2
