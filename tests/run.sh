#!/bin/sh
# Run every test binary with cmocka's TAP output and print one total line.
# Usage: tests/run.sh BIN...   Exit status 1 when any test failed.
# Each line ends with the binary's wall and CPU (user+sys) seconds, and the
# slowest ten are listed at the end: where make test's time goes.
pass=0 fail=0 skip=0 broken=""
log=$(mktemp) || exit 1
tf=$(mktemp) || exit 1
times_log=$(mktemp) || exit 1
trap 'rm -f "$log" "$tf" "$times_log"' EXIT INT TERM

# the children's user+sys so far into $cpu, as "U S" (times' second line,
# e.g. 0m1.5s); not in $(...), whose subshell has no children yet
cpu_now() {
	times >"$tf"
	{ read -r _ _; read -r cu cs; } <"$tf"
	cpu="$cu $cs"
}

suite_start=$(date +%s%N)
for bin in "$@"; do
	name=${bin#.output/}	# tests/, asan/ or tsan/ tells the build apart
	cpu_now; c0=$cpu
	t0=$(date +%s%N)
	CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$log" 2>&1
	rc=$?
	t1=$(date +%s%N)
	cpu_now; c1=$cpu
	# cmocka 1.1.5 writes a skip as "not ok N # SKIP"
	p=$(grep '^ok ' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	s=$(grep -c '^\(not \)\{0,1\}ok .*# *SKIP' "$log" | tr -d ' ')
	f=$(grep '^not ok' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; broken="$broken $name(rc=$rc)"
	fi
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + f))
	status=ok; [ "$f" -gt 0 ] && status=FAIL
	tm=$(echo "$t0 $t1 $c0 $c1" | awk '{
		for (i = 3; i <= 6; i++) { split($i, v, "m"); sub("s", "", v[2]); x[i] = v[1] * 60 + v[2] }
		printf "%6.1fs wall %6.1fs cpu", ($2 - $1) / 1e9, x[5] + x[6] - x[3] - x[4] }')
	printf '%-28s %3d passed %3d failed %3d skipped  %-4s %s\n' "$name" "$p" "$f" "$s" "$status" "$tm"
	echo "$tm $name" >>"$times_log"
	if [ "$f" -gt 0 ] || [ -n "$VERBOSE" ]; then sed 's/^/    /' "$log"; fi
	grep '# *SKIP' "$log" | sed 's/^/    /'
done
[ -n "$broken" ] && echo "crashed or failed outside a test:$broken"
echo "slowest:"
sort -rn "$times_log" | head -n 10 | sed 's/^/    /'
echo "tests: $pass passed, $fail failed, $skip skipped in $((($(date +%s%N) - suite_start) / 1000000000)) s"
[ "$fail" -eq 0 ]
