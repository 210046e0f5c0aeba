#!/bin/bash
# one device run: topology, machine, accuracy sweep (built-ins), zstd/xz,
# ESTIMA extrapolation checked against measured counts.
S=$(date +%s)
DL=${DL:-530}
left() { echo $((DL - ($(date +%s) - S))); }
here=$(pwd)
export LD_LIBRARY_PATH=$here/.dev/lib
export PATH=$here/.dev/bin:$PATH
B=.dev/build
P=$B/pandia
R=/tmp/res
mkdir -p $R
exec > >(tee $R/log) 2>&1
echo "== env $(date -u +%FT%TZ)"
uname -a; nproc; cat /proc/loadavg; free -g | head -2
grep -m1 "model name" /proc/cpuinfo; lscpu 2>/dev/null | head -30
ldd --version | head -1
cat /sys/fs/cgroup/cpu.max 2>/dev/null; cat /sys/fs/cgroup/cpuset.cpus.effective 2>/dev/null
grep Cpus_allowed_list /proc/self/status
ls /sys/devices/system/node/ 2>/dev/null | grep node
$P --version || { echo "pandia does not run"; ldd $P; exit 1; }
echo "== machine (load $(cat /proc/loadavg)) left $(left)"
t0=$(date +%s)
timeout $(left) $P machine --quick -o $R/machine.json
echo "machine took $(( $(date +%s) - t0 )) s"
$P machine --show $R/machine.json 2>&1 | head -30
echo "== sweep (load $(cat /proc/loadavg)) left $(left)"
cp docs/accuracy.md $R/acc.md
t0=$(date +%s)
B=$B timeout $(( $(left) - 170 )) scripts/accuracy-sweep --machine $R/machine.json \
	--scale ${SCALE:-0.5} -r 3 -k 1 --out $R/acc --doc $R/acc.md \
	--only ${ONLY:-compute,stream,serial,hashjoin,balance-static,balance-dynamic,share,cachestream,chase}
echo "sweep took $(( $(date +%s) - t0 )) s"
echo "== extrapolate (load $(cat /proc/loadavg)) left $(left)"
for th in 1-8 9-16; do
	[ $(left) -gt 15 ] || break
	timeout $(( $(left) - 5 )) $P extrapolate -q -m $R/machine.json -o $R/runs${th%%-*}.json --threads $th -r 3 \
		--time-from 'time: ([0-9.]+)' \
		--category 'serial=serial part: ([0-9.]+ s):max' -- \
		$B/workloads/serial --threads '{threads}' --serial 0.05 --scale 0.5
	echo "extrapolate $th rc $?"
done
$P extrapolate --runs $R/runs1.json --to 16 --json > $R/pred.json 2>$R/pred.err; echo "pred rc $?"
$P extrapolate --runs $R/runs1.json --to 16 2>&1 | tail -30
echo "== zstd (load $(cat /proc/loadavg)) left $(left)"
head -c $((96 * 750000)) /dev/urandom | base64 -w 76 > /tmp/in
head -c 16000000 /tmp/in > /tmp/in16; ls -la /tmp/in /tmp/in16
for name in zstd xz; do
	if [ $name = zstd ]; then set -- zstd -q -f -6 -B2MiB -T'{threads}' /tmp/in -o /dev/null
	else set -- sh -c "exec xz -q -1 --block-size=1MiB -T{threads} -c /tmp/in16 >/dev/null"; fi
	[ $(left) -gt 60 ] || { echo "no time for $name"; continue; }
	mkdir -p $R/real/$name
	t0=$(date +%s)
	timeout $(( $(left) - 40 )) $P profile -q -m $R/machine.json -r 3 --keep-unreliable \
		-o $R/real/$name/workload.json -- "$@" 2>$R/real/$name/profile.err >/dev/null
	echo "$name profile rc $? $(( $(date +%s) - t0 )) s"; tail -5 $R/real/$name/profile.err
	timeout $(( $(left) - 30 )) $P validate -m $R/machine.json -w $R/real/$name/workload.json -k 1 \
		-r 3 -o $R/real/$name -- "$@" 2>$R/real/$name/validate.err | tail -40
	echo "$name validate rc $? total $(( $(date +%s) - t0 )) s load $(cat /proc/loadavg)"
done
echo "== done $(( $(date +%s) - S )) s load $(cat /proc/loadavg)"
rm -f /tmp/in /tmp/in16
tar czf $OUT/results.tgz -C /tmp res
