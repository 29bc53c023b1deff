#!/bin/sh
# tests/holdcheck.sh - `sudo make holdcheck`: the holders probes against
# tests/holdprog's own timings, in its four modes, under the holders
# probes alone (they bring the syscall and sched programs they ride in)
# and in the full set, which has them:
#   locked   held share within 25 %, syscall share of the hold within 10 points
#   fixed    the syscall share of the hold under 10 %
#   preempt  held share within 25 % (the preempted share is printed)
#   cold     as locked, a miss reading from disk inside the lock (the
#            blocked share is printed)
# (make test's test_bpf_holders makes the same checks and more, on full.)
# and the fallback: holders code that cannot load leaves the rest (the
# syscall and switch programs it rides in reload without it).
# Knobs: HOLD_OPS=60000 (per thread), HOLD_SETS="holders,cpuclock full"
set -u
OUT=${OUTPUT:-.output}
CHECK=$OUT/tests/holdcheck
PROG=$OUT/tests/holdprog
OPS=${HOLD_OPS:-60000}
SETS=${HOLD_SETS:-"holders,cpuclock full"}
[ "$(id -u)" = 0 ] || { echo "holdcheck: needs root (sudo make holdcheck)" >&2; exit 1; }
fail=0
for set in $SETS; do
	for mode in locked fixed preempt cold; do
		case $mode in
		locked)  args="--ops $OPS"; expect=locked ;;
		fixed)   args="--ops $OPS --fixed"; expect=fixed ;;
		preempt) args="--ops $((OPS / 20)) --preempt"; expect=locked ;;
		cold)    args="--ops $((OPS / 100)) --cold"; expect=locked ;;
		esac
		echo "== $mode, --probes $set"
		"$CHECK" --probes "$set" --expect $expect -- "$PROG" $args || fail=1
	done
done
echo "== fallback: the holders code refused (reloaded without it)"
out=$(FCTRACE_TEST_FAIL_PROBE=fct_holders "$CHECK" --probes "holders,cpuclock" \
	-- "$PROG" --ops 2000 2>&1)
echo "$out" | grep -q "holders (in sys_enter/exit and sched_switch): load failed" &&
	echo "$out" | grep -q "^watched 0" &&
	! echo "$out" | grep -q "perf_event/cpu-clock: " || { echo "$out"; fail=1; }
[ $fail = 0 ] && echo "holdcheck: all checks passed" || echo "holdcheck: FAILED"
exit $fail
