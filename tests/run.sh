#!/bin/sh
# Run every test binary with cmocka's TAP output and print one total line.
# Usage: tests/run.sh BIN...   Exit status 1 when any test failed.
pass=0 fail=0 skip=0 broken=""
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT INT TERM
for bin in "$@"; do
	name=${bin#.output/}	# tests/, asan/ or tsan/ tells the build apart
	CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$log" 2>&1
	rc=$?
	# cmocka 1.1.5 writes a skip as "not ok N # SKIP"
	p=$(grep '^ok ' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	s=$(grep -c '^\(not \)\{0,1\}ok .*# *SKIP' "$log" | tr -d ' ')
	f=$(grep '^not ok' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; broken="$broken $name(rc=$rc)"
	fi
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + f))
	status=ok; [ "$f" -gt 0 ] && status=FAIL
	printf '%-28s %3d passed %3d failed %3d skipped  %s\n' "$name" "$p" "$f" "$s" "$status"
	if [ "$f" -gt 0 ] || [ -n "$VERBOSE" ]; then sed 's/^/    /' "$log"; fi
	grep '# *SKIP' "$log" | sed 's/^/    /'
done
[ -n "$broken" ] && echo "crashed or failed outside a test:$broken"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
