#!/bin/sh
# Run the libFuzzer targets; one line per target, the report when one fails.
# Usage: tests/fuzz/fuzz.sh MODE SECONDS BIN...
#   fuzz    each BIN for SECONDS into .output/fuzz/corpus/NAME (written),
#           seeded from tests/fuzz/corpus/NAME (only read)
#   replay  each BIN once over tests/fuzz/corpus/NAME (make test)
#   merge   add the inputs of .output/fuzz/corpus/NAME that reach new code
#           to tests/fuzz/corpus/NAME
# Exit status 1 when any target crashed, leaked, timed out or overran.
mode=$1 secs=$2
shift 2
here=tests/fuzz out=.output/fuzz
fail=0 total=0
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT INT TERM

# -timeout: one input may take 10 s; -max_total_time is only checked
# between inputs, so an outer timeout stops a target that overruns anyway.
common="-timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1"

run_one() {	# BIN NAME: the libFuzzer command for this mode
	case $mode in
	fuzz)
		mkdir -p "$out/corpus/$2" "$out/artifacts"
		timeout -k 10 $((secs + 60)) "$1" $common -max_total_time="$secs" \
			-dict="$here/$2.dict" -artifact_prefix="$out/artifacts/$2-" \
			"$out/corpus/$2" "$here/corpus/$2" ;;
	replay)
		mkdir -p "$out/artifacts"
		timeout -k 10 120 "$1" $common -runs=0 \
			-artifact_prefix="$out/artifacts/$2-" "$here/corpus/$2" ;;
	merge)
		mkdir -p "$out/corpus/$2"
		timeout -k 10 600 "$1" $common -merge=1 \
			"$here/corpus/$2" "$out/corpus/$2" ;;
	*)
		echo "fuzz.sh: MODE must be fuzz, replay or merge" >&2; exit 2 ;;
	esac
}

corpus_of() {	# the corpus a mode leaves behind
	if [ "$mode" = fuzz ]; then echo "$out/corpus/$1"; else echo "$here/corpus/$1"; fi
}

stat_of() {	# -print_final_stats' value for $1
	sed -n "s/^stat::$1: *//p" "$log" | tail -n 1
}

for bin in "$@"; do
	name=${bin##*/}
	before=$(ls "$(corpus_of "$name")" 2>/dev/null | wc -l)
	start=$(date +%s)
	run_one "$bin" "$name" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	runs=$(stat_of number_of_executed_units)
	status=ok
	case $rc in
	0) ;;
	124|137) status="FAIL (did not stop: killed after ${took} s)" ;;
	*) status="FAIL (rc=$rc)" ;;
	esac
	[ "$status" = ok ] || fail=1
	total=$((total + ${runs:-0}))
	printf '%-16s %9s runs %4d s  corpus %5d -> %5d  %s\n' "$name" "${runs:--}" "$took" \
		"$before" "$(ls "$(corpus_of "$name")" 2>/dev/null | wc -l)" "$status"
	if [ "$status" != ok ] || [ -n "$VERBOSE" ]; then
		grep -v '^#[0-9]' "$log" | tail -n 60 | sed 's/^/    /'
		sed -n 's|.*Test unit written to |    reproduce: '"$bin"' |p' "$log"
	fi
done
echo "fuzz $mode: $# targets, $total runs, $([ $fail = 0 ] && echo clean || echo FAILED)"
exit $fail
