#!/bin/bash
# device run 4: DRAM probes alone and beside one thread, by probe count.
export LD_LIBRARY_PATH=$(pwd)/.dev/lib
P=.dev/build-main/pandia W=.dev/build-main/workloads M=.dev/machine16.json
R=/tmp/res4; mkdir -p $R
exec > >(tee $R/log) 2>&1
echo "== env $(date -u +%FT%TZ) $(nproc) cpus, load $(cat /proc/loadavg)"
for wl in compute stream; do
	$P run -m $M --cpus 0 -r 3 -- $W/$wl --scale 0.3 2>/dev/null | grep -E "^time"
	for k in 2 4 6 8 9 10 11 12 13 14 15; do
		echo "-- $wl beside $k dram probes (PUs 1-$k)"
		$P run -m $M --cpus 0 --stress bw:dram@1-$k --stress-alone 0.5 -r 3 \
			-- $W/$wl --scale 0.3 2>/dev/null | grep -E "^time|^stressor"
	done
done
echo "== done $(date -u +%FT%TZ) load $(cat /proc/loadavg)"
cp $R/log $OUT/log4.txt
