# bash completion for fctrace(1): commands, options, workload names, probe
# sets and groups. Install as $PREFIX/share/bash-completion/completions/fctrace
# (make install does), or source it from ~/.bashrc.

_fctrace_workloads()
{
	# the binary being completed says which workloads it has (wl_all):
	# no copy of the list here to fall out of date
	local bin=${COMP_WORDS[0]:-fctrace}
	[[ $bin == */* ]] || bin=fctrace
	"$bin" list --names 2>/dev/null
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

_fctrace_value()
{
	local prev=$1 cur=$2
	case $prev in
	-w|--workload)	_fctrace_list "$cur" "$(_fctrace_workloads)" ;;
	--compare)	COMPREPLY=($(compgen -W "$(_fctrace_workloads)" -- "$cur")) ;;
	--probes)	_fctrace_list "$cur" "full light syscalls sched klock pagecache cpuclock holders pc-evict pc-lookups" ;;
	--handle)	COMPREPLY=($(compgen -W "shared per-thread" -- "$cur")) ;;
	--cache)	COMPREPLY=($(compgen -W "warm cold" -- "$cur")) ;;
	--dir)		COMPREPLY=($(compgen -d -- "$cur")) ;;
	-j|--json|--csv|--folded) COMPREPLY=($(compgen -f -- "$cur") $(compgen -W "-" -- "$cur")) ;;
	--html|--timeline-out|--fit|--pprof) COMPREPLY=($(compgen -f -- "$cur")) ;;
	-f|--files|-t|--threads|--ops|--file-size|--chunk|--pool|--block|--cache-size|\
	--seed|--pressure|--time-every|--max-threads|--timeline-window|--timeline-start)
			COMPREPLY=() ;;	# numbers: nothing to offer
	*)		return 1 ;;
	esac
	return 0
}

_fctrace_options()
{
	local cmd=$1 opts
	opts="--workload --files --threads --ops --file-size --chunk --pool --block
	      --cache-size --seed --shared-file --handle --cache --pressure --dir --no-bpf
	      --probes --time-every --max-threads --json --html --quiet --verbose --help"
	case $cmd in
	run)	opts="$opts --compare --timeline --timeline-window --timeline-start --timeline-out
		      --follow --as-root --debuginfod --folded --pprof --no-thread-frame
		      --cpu-stacks" ;;
	attach)	opts="--pid --duration --follow --debuginfod --no-bpf --probes --time-every --max-threads --timeline
		      --timeline-window --timeline-start --timeline-out --json --html --quiet
		      --folded --pprof --no-thread-frame --cpu-stacks --verbose --help" ;;
	sweep)	opts="$opts --csv --predict --fit --repeat" ;;
	list)	opts="--names --help" ;;
	report) opts="--json --html --folded --pprof --no-thread-frame --quiet --verbose
		      --help" ;;
	diff)	opts="--json --html --quiet --verbose --help" ;;
	esac
	echo "$opts"
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
		case ${COMP_WORDS[i]} in
		run|sweep|compare|list|report|diff) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "run sweep compare report diff list --help --usage --version" \
			-- "$cur"))
		return 0
	fi
	_fctrace_value "$prev" "$cur" && return 0
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
