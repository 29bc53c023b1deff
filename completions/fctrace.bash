# bash completion for fctrace(1): commands, options, workload names, probe
# sets and groups. Install as $PREFIX/share/bash-completion/completions/fctrace
# (make install does), or source it from ~/.bashrc.
#
# The binary being completed says which options each command takes
# (fctrace --list-options CMD, from its table of options), which workloads
# it has (list --names) and its probe groups (list): no copy of any of them
# here to fall out of date. tests/completion_check.sh holds this file to
# the binary.

_fctrace_commands="run sweep compare list attach report diff help"

_fctrace_bin()
{
	local bin=${COMP_WORDS[0]:-fctrace}
	[[ $bin == */* ]] || bin=fctrace
	printf '%s\n' "$bin"
}

_fctrace_workloads()
{
	"$(_fctrace_bin)" list --names 2>/dev/null
}

# The probe groups, from `fctrace list`'s "Probe groups" table.
_fctrace_groups()
{
	"$(_fctrace_bin)" list 2>/dev/null | sed -n '/^Probe groups/,$p' | awk 'NR > 1 { print $1 }'
}

# The options CMD takes, one a line: --name, -l or -, VALUE or -, where.
_fctrace_rows()
{
	"$(_fctrace_bin)" --list-options "$1" 2>/dev/null
}

# Complete the last item of a comma list: "fc,fc" -> "fc,fcp".
_fctrace_list()
{
	local cur=$1 words=$2 head=
	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}"))
	[[ ${#COMPREPLY[@]} -eq 1 ]] && compopt -o nospace 2>/dev/null
	return 0
}

# The value of option prev of command cmd, as its row's VALUE says: 1 when
# prev takes no value (a flag, or not an option).
_fctrace_value()
{
	local cmd=$1 prev=$2 cur=$3 long short arg where found=
	while IFS=$'\t' read -r long short arg where; do
		if [[ $prev == "$long" || $prev == "$short" ]]; then
			found=1
			break
		fi
	done < <(_fctrace_rows "$cmd")
	[[ -n $found && $arg != - ]] || return 1
	case $arg in
	NAME*)		_fctrace_list "$cur" "$(_fctrace_workloads)" ;;	# NAME[,NAME]
	WORKLOAD)	COMPREPLY=($(compgen -W "$(_fctrace_workloads)" -- "$cur")) ;;
	SET)		_fctrace_list "$cur" "full light $(_fctrace_groups)" ;;
	DIR)		COMPREPLY=($(compgen -d -- "$cur")) ;;
	FILE)		COMPREPLY=($(compgen -f -- "$cur")) ;;
	'FILE|-')	COMPREPLY=($(compgen -f -- "$cur") $(compgen -W "-" -- "$cur")) ;;
	*[A-Z]*)	COMPREPLY=() ;;		# numbers, pids: nothing to offer
	*)		COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur")) ;;	# warm|cold
	esac
	return 0
}

_fctrace_options()
{
	_fctrace_rows "$1" | cut -f1
	echo --help
}

_fctrace()
{
	local cur prev cmd= i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	# --opt=value arrives as "--opt" "=" "value" (= is a word break)
	if [[ $cur == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD-1]} cur=
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ " $_fctrace_commands " == *" ${COMP_WORDS[i]} "* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$_fctrace_commands --help --usage --version" -- "$cur"))
		return 0
	fi
	# help CMD: the command whose help to print
	if [[ $cmd == help ]]; then
		[[ $prev == help ]] &&
			COMPREPLY=($(compgen -W "${_fctrace_commands% help}" -- "$cur"))
		return 0
	fi
	# run [OPTION...] -- CMD [ARG...]: CMD's words are CMD's to complete
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			compopt -o default 2>/dev/null
			COMPREPLY=()
			return 0
		fi
	done
	_fctrace_value "$cmd" "$prev" "$cur" && return 0
	# report and diff read saved runs: the JSON files (and directories on the way)
	if [[ ($cmd == report || $cmd == diff) && $cur != -* ]]; then
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -S / -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	[[ $cur == -* || -z $cur ]] &&
		COMPREPLY=($(compgen -W "$(_fctrace_options "$cmd")" -- "$cur"))
	return 0
}

complete -F _fctrace fctrace
