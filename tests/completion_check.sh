#!/bin/bash
# completion_check.sh FCTRACE - the bash completion offers what FCTRACE
# says it has: the workloads of `list --names`, the probe groups of `list`,
# and for each command the options of its table of options (`--list-options
# CMD`), each option's value as its row's VALUE says; and it names no
# option the table does not have (make test runs it).
set -u
bin=$1
here=$(dirname "$0")
. "$here/../completions/fctrace.bash"
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

# The commands: those of --help, and help
want=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | sort)
got=$(printf '%s\n' $_fctrace_commands | grep -vx help | sort)
[ "$got" = "$want" ] || fail "the commands are '$got', --help says '$want'"
got=$(complete_line "$bin" help at)
[ "$got" = "attach" ] || fail "help completes a command: got '$got'"

# Each command's options: exactly its rows of the table, and --help
for cmd in $want; do
	want_opts=$( ("$bin" --list-options "$cmd" | cut -f1; echo --help) | sort)
	got=$(complete_line "$bin" "$cmd" -- | sort)
	[ "$got" = "$want_opts" ] || fail "$cmd offers '$got', its table says '$want_opts'"
done
# An option that takes a value completes a value, not the options (each
# option once, with the first command that takes it)
while IFS=$'\t' read -r long short arg where; do
	[ "$arg" = - ] && continue
	cmd=${where%%[ ,]*}
	for name in $long ${short#-}; do
		[ "$name" = "$long" ] || name=-$name
		got=$(complete_line "$bin" "$cmd" "$name" "")
		grep -q -- '^--' <<<"$got" && fail "$cmd $name offers options, not its $arg"
	done
done < <("$bin" --list-options)

# Choices, probe groups and files, from the rows' values
got=$(complete_line "$bin" run --handle "" | sort | tr '\n' ' ')
[ "$got" = "locked per-thread shared " ] || fail "--handle offers '$got'"
want=$("$bin" list | sed -n '/^Probe groups/,$p' | awk 'NR > 1 { print $1 }' | sort)
got=$(complete_line "$bin" attach --probes "" | grep -vx 'full\|light' | sort)
[ "$got" = "$want" ] || fail "--probes offers '$got', list says '$want'"
got=$(complete_line "$bin" run --json "")
grep -qx -- - <<<"$got" || fail "--json does not offer - (standard output)"

# No option named here that the table does not have
for name in $(grep -v '^[[:space:]]*#' "$here/../completions/fctrace.bash" |
		grep -o -- '--[a-z][a-z-]*' | sort -u); do
	case $name in --help|--usage|--version|--list-options|--names) continue ;; esac
	"$bin" --list-options | cut -f1 | grep -qx -- "$name" ||
		fail "completions/fctrace.bash names $name, which fctrace does not have"
done
echo "completion: $(wc -w <<<"$want") probe groups, the workloads of \`list --names\`," \
	"every command's options as \`--list-options\` says"
