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
echo "completion: $(echo "$want" | wc -l) workloads, as \`list --names\` says"
