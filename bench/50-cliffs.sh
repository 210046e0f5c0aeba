#!/bin/sh
# 50-cliffs: loading a workload description and joining a command grow
# linearly (issue 28: loading was quadratic in the runs, joining in the
# words).  A description of N runs is loaded by 'pandia predict --top 1'
# at N = 10,000 and 600,000 (the time of each, and the ratio per run:
# about 1 when linear, 60 when quadratic), and a description whose
# command has 500,000 words is predicted (its pin lines join them).
# Targets: 600,000 runs in seconds, 500,000 words under a second.
# B is the build directory.
set -u
B="${B:-build}"
P="$B/pandia"
[ -x "$P" ] || { echo "50-cliffs: build first (make)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$P" machine -q --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m.json" >/dev/null 2>&1 ||
	{ echo "50-cliffs: cannot describe a machine"; exit 1; }

# runs N WORDS: a description of N runs whose command has WORDS words
runs() {
	awk -v n="$1" -v words="$2" '
	/"command":/ {
		printf "  \"command\": [\"echo\""
		for (i = 1; i < words; i++) printf ", \"w%d\"", i
		print "],"
		next
	}
	/"runs": \[\]/ {
		print "  \"runs\": ["
		for (i = 0; i < n; i++)
			printf "    {\"id\": \"r%d\", \"cpus\": \"0\", " \
			    "\"times\": [1.0]}%s\n", i, i < n - 1 ? "," : ""
		print "  ],"
		next
	}
	{ print }' tests/data/workload-bounds.json
}

# secs FILE: the time pandia predict takes on it
secs() {
	t0=$(date +%s.%N)
	"$P" predict -m "$T/m.json" -w "$1" --top 1 >/dev/null 2>&1 ||
		{ echo "predict failed on $1" >&2; echo 0; return; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

runs 10000 3 >"$T/10k.json"
runs 600000 3 >"$T/600k.json"
runs 1 500000 >"$T/words.json"
a=$(secs "$T/10k.json")
b=$(secs "$T/600k.json")
c=$(secs "$T/words.json")
echo "load 10,000 runs:      $a s"
echo "load 600,000 runs:     $b s (target: seconds)"
awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0)
	printf "per run, 600k / 10k:  %.2f (1: linear, 60: quadratic)\n",
	(b / 600000) / (a / 10000) }'
echo "500,000-word command:  $c s (target: under 1 s)"
