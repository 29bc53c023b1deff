#!/bin/sh
# Run every test binary with cmocka's TAP output and print one total line.
# Usage: tests/run.sh [-j N POOLED_BIN... --]... BIN...
#   Each group of POOLED binaries runs N at a time, the groups in turn,
#   first; then each BIN runs alone. make test's groups: POOL_TESTS (no
#   root, no BPF, no timing), then PAIR_TESTS two at a time (BPF, but
#   asserting nothing a neighbour's CPU use could move: texts, files, exact
#   counts, round trips), then the other BPF tests two at a time (each
#   checks its figures against its program's own clocks in the same run),
#   and last SOLO_TESTS one at a time (what-ifs checked against later runs).
# Exit status 1 when any test failed. Each line ends with the binary's wall
# and CPU (user+sys) seconds, and the slowest ten are listed at the end:
# where make test's time goes.
pass=0 fail=0 skip=0 broken=""
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# the children's user+sys so far into $cpu, as "U S" (times' second line,
# e.g. 0m1.5s); not in $(...), whose subshell has no children yet
cpu_now() {
	times >"$tmp/times.$1"
	{ read -r _ _; read -r cu cs; } <"$tmp/times.$1"
	cpu="$cu $cs"
}

# run_one I BIN: run it into $tmp/I.log, its status into I.rc, its wall
# and CPU seconds into I.tm
run_one() {
	cpu_now "$1"; c0=$cpu
	t0=$(date +%s%N)
	CMOCKA_MESSAGE_OUTPUT=TAP "$2" >"$tmp/$1.log" 2>&1
	echo $? >"$tmp/$1.rc"
	t1=$(date +%s%N)
	cpu_now "$1"; c1=$cpu
	echo "$t0 $t1 $c0 $c1" | awk '{
		for (i = 3; i <= 6; i++) { split($i, v, "m"); sub("s", "", v[2]); x[i] = v[1] * 60 + v[2] }
		printf "%6.1fs wall %6.1fs cpu\n", ($2 - $1) / 1e9, x[5] + x[6] - x[3] - x[4] }' \
		>"$tmp/$1.tm"
}

# tell I BIN: its line, its log when it failed, and the totals
tell() {
	name=${2#.output/}	# tests/, asan/ or tsan/ tells the build apart
	log=$tmp/$1.log rc=$(cat "$tmp/$1.rc") tm=$(cat "$tmp/$1.tm")
	# cmocka 1.1.5 writes a skip as "not ok N # SKIP"
	p=$(grep '^ok ' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	s=$(grep -c '^\(not \)\{0,1\}ok .*# *SKIP' "$log" | tr -d ' ')
	f=$(grep '^not ok' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; broken="$broken $name(rc=$rc)"
	fi
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + f))
	status=ok; [ "$f" -gt 0 ] && status=FAIL
	printf '%-28s %3d passed %3d failed %3d skipped  %-4s %s\n' "$name" "$p" "$f" "$s" "$status" "$tm"
	echo "$tm $name" >>"$tmp/slowest"
	if [ "$f" -gt 0 ] || [ -n "$VERBOSE" ]; then sed 's/^/    /' "$log"; fi
	grep '# *SKIP' "$log" | sed 's/^/    /'
}

# worker G BIN...: of group G, take each binary no other worker has taken
# (mkdir is the atomic claim) and run it
worker() {
	g=$1 i=0
	shift
	for bin in "$@"; do
		i=$((i + 1))
		mkdir "$tmp/claim.$g.$i" 2>/dev/null || continue
		run_one "p$g.$i" "$bin"
	done
}

suite_start=$(date +%s%N)
g=0
while [ "$1" = -j ]; do
	jobs=$2 g=$((g + 1))
	shift 2
	n=0
	for bin in "$@"; do
		[ "$bin" = -- ] && break
		n=$((n + 1))
	done
	pooled=$(for bin in "$@"; do [ "$bin" = -- ] && break; printf '%s\n' "$bin"; done)
	w=0
	# shellcheck disable=SC2086 # one binary a word: paths have no blanks
	while [ "$w" -lt "$jobs" ]; do
		w=$((w + 1))
		worker "$g" $pooled &
	done
	wait
	i=0
	for bin in $pooled; do
		i=$((i + 1))
		tell "p$g.$i" "$bin"
	done
	shift "$n"
	[ "$1" = -- ] && shift
done
i=0
for bin in "$@"; do
	i=$((i + 1))
	run_one "s$i" "$bin"
	tell "s$i" "$bin"
done
[ -n "$broken" ] && echo "crashed or failed outside a test:$broken"
echo "slowest:"
sort -rn "$tmp/slowest" | head -n 10 | sed 's/^/    /'
echo "tests: $pass passed, $fail failed, $skip skipped in $((($(date +%s%N) - suite_start) / 1000000000)) s"
[ "$fail" -eq 0 ]
