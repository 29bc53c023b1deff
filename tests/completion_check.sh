#!/bin/bash
# completion_check.sh FCTRACE - the bash completion offers exactly the
# workloads `FCTRACE list --names` has (make test runs it).
set -u
bin=$1
. "$(dirname "$0")/../completions/fctrace.bash"
complete_line() {	# words... : COMPREPLY for the last word
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
	_fctrace
	printf '%s\n' "${COMPREPLY[@]}"
}
fail() { echo "completion_check: $*" >&2; exit 1; }
want=$("$bin" list --names | sort)
[ -n "$want" ] || fail "$bin list --names printed nothing"
got=$(complete_line "$bin" run --workload "" | sort)
[ "$got" = "$want" ] || fail "--workload offers '$got', list --names says '$want'"
got=$(complete_line "$bin" sweep --workload fc,fcp-f)
[ "$got" = "fc,fcp-fixed" ] || fail "a comma list completes its last item: got '$got'"
got=$(complete_line "$bin" compare --compare bcache-s)
[ "$got" = "bcache-sharded" ] || fail "--compare completes a workload: got '$got'"
got=$(complete_line "$bin" re)
[ "$got" = "report" ] || fail "the report command completes: got '$got'"
dir=$(mktemp -d) || fail "mktemp -d"
touch "$dir/run1.json" "$dir/run2.json" "$dir/notes.txt"
got=$(complete_line "$bin" diff "$dir/run1.json" "$dir/" | sort | tr '\n' ' ')
rm -r "$dir"
[ "$got" = "$dir/run1.json $dir/run2.json " ] || fail "diff completes saved runs: got '$got'"
got=$(complete_line "$bin" report x.json --h)
[ "$got" = "--html
--help" ] || fail "report's options: got '$got'"
echo "completion: $(echo "$want" | wc -l) workloads, as \`list --names\` says; report, diff"
