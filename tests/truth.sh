#!/bin/sh
# truth.sh - `make truth`: three of fctrace's figures against independent
# ones from the same run (docs/how-we-checked.md); needs root.
#
#   1. kernel lock sites against the threads' exact totals: the sum of
#      locks[kernel].wait_ns over the sum of threads[].kernel_lock_wait_ns,
#      on mmap-lock contention (tests/truth/mmapper.c); target within 5 %.
#   2. the user share of on-CPU time against perf's cpu-clock samples of
#      the same worker thread in the same run (fc, 1 thread); target within
#      10 points. Skipped without perf (Debian: apt-get install linux-perf).
#   3. the futex p99 against the exact p99 of waits timed by the program
#      itself (tests/truth/futexlat.c); target within 10 %.
#
# Knobs: TRUTH_ROUNDS (3), FCTRACE (./fctrace), OUT (.output).
set -u

ROUNDS=${TRUTH_ROUNDS:-3}
FCTRACE=${FCTRACE:-./fctrace}
OUT=${OUT:-.output}
tmp=$(mktemp -d /tmp/fct-truth-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# python3 EXPR over the JSON document $1: prints EXPR's value (d = the document)
jq_py() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"
}

# "within" when |ratio - 1| <= limit, else "OUT OF TARGET"
judge() {
	awk -v r="$1" -v lim="$2" 'BEGIN { d = r - 1; if (d < 0) d = -d;
		print (d <= lim ? "within" : "OUT OF TARGET") }'
}

klock_sites() {
	echo "1. kernel lock sites / exact per-thread totals (mmapper 8 threads, 64 KiB maps)"
	for r in $(seq "$ROUNDS"); do
		"$FCTRACE" run --quiet --json "$tmp/k.json" -- "$OUT/tests/truth/mmapper" 8 1000 65536 \
			>/dev/null 2>"$tmp/err" || { echo "   fctrace failed: $(head -n 1 "$tmp/err")"; continue; }
		ratio=$(jq_py "$tmp/k.json" "sum(l['wait_ns'] for l in d['locks'] if l['kernel']) / max(1, sum(t['kernel_lock_wait_ns'] or 0 for t in d['threads']))")
		sampled=$(jq_py "$tmp/k.json" "d['kernel_lock_sites']['sampled_wait_ns'] / max(1, d['kernel_lock_sites']['exact_wait_ns'])")
		printf "   round %s: sites/totals %.4f (%s 5 %%), sampled stacks alone %.3f\n" \
			"$r" "$ratio" "$(judge "$ratio" 0.05)" "$sampled"
	done
}

# the user share of thread $2's samples in perf data $1
perf_user_share() {
	perf script -i "$1" -F tid,ip 2>/dev/null | awk -v tid="$2" '$1 == tid {
		if (substr($2, 1, 4) == "ffff") k++; else u++ }
		END { printf "%.4f %d\n", (u + k) ? u / (u + k) : 0, u + k }'
}

user_sys() {
	echo "2. user share of on-CPU time, fctrace against perf record -e cpu-clock (fc, 1 thread)"
	if ! command -v perf >/dev/null 2>&1; then
		echo "   skipped: perf is not installed (apt-get install linux-perf)"
		return
	fi
	for r in $(seq "$ROUNDS"); do
		perf record -q -e cpu-clock -F 2000 -o "$tmp/p.data" -- "$FCTRACE" run --workload fc \
			--threads 1 --ops 300000 --quiet --json "$tmp/u.json" >/dev/null 2>"$tmp/err" ||
			{ echo "   perf/fctrace failed: $(head -n 1 "$tmp/err")"; continue; }
		tid=$(jq_py "$tmp/u.json" "d['threads'][0]['tid']")
		ours=$(jq_py "$tmp/u.json" "(lambda a: a['cpu_user'] / max(1, a['cpu_user'] + a['cpu_sys']))(d['threads'][0]['account_ns'])")
		how=$(jq_py "$tmp/u.json" "(d['cpu_split'] or {}).get('method')")
		set -- $(perf_user_share "$tmp/p.data" "$tid")
		awk -v o="$ours" -v p="$1" -v n="$2" -v r="$r" -v how="$how" 'BEGIN {
			d = 100 * (o - p); ad = d < 0 ? -d : d
			printf "   round %s: fctrace %.3f (%s), perf %.3f (%d samples): %+.1f points (%s 10)\n",
				r, o, how, p, n, d, ad <= 10 ? "within" : "OUT OF TARGET" }'
	done
}

futex_p99() {
	echo "3. futex p99 / exact p99 (futexlat: 2000 waits timing out after 20 us - 1 ms)"
	for r in $(seq "$ROUNDS"); do
		"$FCTRACE" run --quiet --json "$tmp/f.json" -- "$OUT/tests/truth/futexlat" 2000 \
			>"$tmp/exact" 2>"$tmp/err" || { echo "   fctrace failed: $(head -n 1 "$tmp/err")"; continue; }
		exact=$(awk '$1 == "p50_ns" { print $4 }' "$tmp/exact")
		ours=$(jq_py "$tmp/f.json" "d['syscalls']['futex']['p99_ns']")
		ratio=$(awk -v o="$ours" -v e="$exact" 'BEGIN { print e ? o / e : 0 }')
		printf "   round %s: fctrace %s ns, exact %s ns: %.3f (%s 10 %%)\n" \
			"$r" "$ours" "$exact" "$ratio" "$(judge "$ratio" 0.10)"
	done
}

[ "$(id -u)" = 0 ] || { echo "truth: needs root (BPF)" >&2; exit 1; }
klock_sites
user_sys
futex_p99
