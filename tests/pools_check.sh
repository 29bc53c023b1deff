#!/bin/sh
# pools_check.sh - make pools-check: a pool's what-ifs against real runs
# (docs/pools.md). tests/pool_prog runs a pool of 4 for 16 threads
# (each item held 1 ms asleep, or 200 us on the CPU) under fctrace; each
# what-if the run's pools[] predicts (another capacity, fewer threads) is
# then run untraced, twice, and the prediction scored against the mean:
# predicted / real. Absolute times drift on shared machines: nothing else
# should run meanwhile.
set -e
FCTRACE=${FCTRACE:-./fctrace}
PROG=${PROG:-.output/tests/pool_prog}
out=$(mktemp -d "${TMPDIR:-/tmp}/fctrace-pools.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

# the wall time of PROG's own run, in ns (its last field)
real() { "$PROG" "$@" | awk '{ print $NF }'; }

check() {	# kind ops hold_us spin|sleep
	kind=$1 ops=$2 hold=$3 how=$4
	echo "== $kind pool of 4, 16 threads, $ops items held $hold us ($how)"
	$FCTRACE run --quiet --json "$out/run.json" -- "$PROG" "$kind" 4 16 "$ops" "$hold" 0 "$how" \
		> /dev/null
	python3 - "$out/run.json" > "$out/whatifs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d.get("pools") or []:
    print("#", p["name"], "capacity", p["capacity"], "estimate %.2f" % p["capacity_estimate"],
          "method", p["capacity_method"], "traced wall %.1f ms" % (p["window_ns"] / 1e6))
    for w in p["whatif"]:
        print(w["capacity"] or 4, w["threads"], w["predicted_wall_ns"])
    break
PY
	grep '^#' "$out/whatifs" || { echo "  no pool found"; return; }
	printf '  %8s %7s %12s %12s %7s\n' capacity threads predicted real ratio
	grep -v '^#' "$out/whatifs" | while read -r cap thr pred; do
		a=$(real "$kind" "$cap" "$thr" "$ops" "$hold" 0 "$how")
		b=$(real "$kind" "$cap" "$thr" "$ops" "$hold" 0 "$how")
		awk -v c="$cap" -v t="$thr" -v p="$pred" -v a="$a" -v b="$b" 'BEGIN {
			r = (a + b) / 2
			printf "  %8d %7d %9.1f ms %9.1f ms %7.2f\n", c, t, p / 1e6, r / 1e6, p / r }'
	done
}

check sem 4000 1000 sleep
check cond 4000 1000 sleep
check sem 20000 200 spin
