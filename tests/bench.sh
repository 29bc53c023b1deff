#!/bin/sh
# tests/bench.sh - `make bench`: what tracing costs, against the hooks' own
# floor, and whether the workloads' own instrumentation distorts them.
#
#   1. Overhead: untraced (--no-bpf), floor (--probes floor: full's hook
#      points with trivial programs), full and light, interleaved in every
#      round (the order rotates from round to round) for fc, fcp and bcache
#      at BENCH_FILES files, 1 and 8 threads. Medians, min-max, and the
#      median of each round's ratio to the untraced run of the same round.
#   2. Probe costs (root): one run per cell and probe set through
#      bench_probe with the kernel's BPF statistics on: load+attach and
#      detach time, events/s, each program's ns per run.
#   3. Fidelity: fc's per-op cost against tests/bench_bare (the same
#      open/pread/close loop and nothing else): wall time per op, and user
#      instructions per op under callgrind (difference of two op counts).
#   4. Holders (root): full against full without the holders group
#      (--probes syscalls,sched,klock,pagecache,cpuclock), side by side and
#      interleaved, for fcp/8 (its pool lock is a contended mutex: words
#      watched), fc/1 (no lock: nothing watched) and tests/holdprog locked
#      (a program fctrace did not write, 8 threads on one contended
#      mutex; its wall is its own clock), and with a JDK tests/java/HoldBench
#      (its Java twin: one synchronized table, the Java monitors' holders
#      code's EnterI uprobes and owner reads; its wall is its own clock).
#      Medians and the median of each round's full / without ratio.
#   5. CPU stacks (root): full against full --cpu-stacks, side by side and
#      interleaved, for two programs fctrace did not write: bench_bare's
#      fc loop (1 thread, its own clock) and holdprog locked (8 threads).
#      Medians and the median of each round's ratio.
#   6. Page-cache removals (root): full against full without pc-evict,
#      interleaved, for fc/1, fcp/8 and fc/1 under --pressure (its files'
#      pages removed all along: every removal and re-read joined).
#
# Knobs (environment):
#   BENCH_ROUNDS=9        rounds of part 1 and of the fidelity wall times
#   BENCH_OPS=160000      operations per run, split over the threads
#   BENCH_FILES=60        --files
#   BENCH_WORKLOADS="fc fcp bcache ext"   BENCH_THREADS="1 8"
#   (ext: a program fctrace did not write, tests/bench_bare's fc loop run
#   as `fctrace run -- bench_bare`, 1 thread; its wall is the loop's own
#   clock, so every variant is timed the same way)
#   BENCH_STATS=1         part 2 (0: skip)
#   BENCH_HOLD=1          part 4 (0: skip); BENCH_HOLD_ROUNDS=BENCH_ROUNDS,
#   BENCH_HOLD_OPS=20000  holdprog's ops per thread (8 threads)
#   7. JVM (root, a JDK): fctrace's JVMTI agent alone (tests/bench_jvm_agent,
#      no BPF) loaded into tests/java/AgentBench (8 threads, half on one
#      synchronized block, half on one ReentrantLock, 5 us holds, 5 s),
#      against the same program without it, interleaved: its throughput
#      (its own count), medians and the median of each round's ratio, and
#      the stacks the agent walked per second.
#   BENCH_EVICT=1         part 6 (0: skip); BENCH_EVICT_ROUNDS=BENCH_ROUNDS
#   BENCH_JVM_ROUNDS=5    rounds of part 7
#   8. Handles (root): full with the handles group's code inside the
#      syscall programs against the same in two programs of its own
#      (FCTRACE_HANDLES_APART=1), interleaved, for fc/1 and fcp/8.
#   9. Pools (root): run -- tests/pool_prog (16 threads over a pool of 4,
#      20 us holds on the CPU: a futex wait or wake every few
#      microseconds) with the pools' code inside the syscall programs
#      against FCTRACE_POOLS_OFF=1, interleaved; the program's own wall.
#   BENCH_PARTS="overhead stats fidelity holders cpustacks pcevict jvm handles pools server"   the parts to run
#   BENCH_SERVER_SECS=16, BENCH_SERVER_FROM=10, BENCH_SERVER_ROUNDS=3, BENCH_SERVERS="redis nginx pg"   the server part (tests/bench_server.sh)
#   BENCH_CG_OPS="2000 6000"  the two op counts under callgrind ("" skips it)
#   FCTRACE=./fctrace     OUTPUT=.output
# The defaults take about 9-11 minutes on a 2-vCPU VM.
set -u
LC_ALL=C; export LC_ALL

FCTRACE=${FCTRACE:-./fctrace}
OUT=${OUTPUT:-.output}
ROUNDS=${BENCH_ROUNDS:-9}
SERVER_ROUNDS=${BENCH_SERVER_ROUNDS:-3}
OPS=${BENCH_OPS:-160000}
FILES=${BENCH_FILES:-60}
WORKLOADS=${BENCH_WORKLOADS:-"fc fcp bcache ext"}
THREADS=${BENCH_THREADS:-"1 8"}
STATS=${BENCH_STATS:-1}
CG_OPS=${BENCH_CG_OPS-"2000 6000"}
HOLD=${BENCH_HOLD:-1}
HOLD_ROUNDS=${BENCH_HOLD_ROUNDS:-$ROUNDS}
HOLD_OPS=${BENCH_HOLD_OPS:-20000}
PARTS=${BENCH_PARTS:-"overhead stats fidelity holders cpustacks pcevict jvm handles pools server"}
JVM_ROUNDS=${BENCH_JVM_ROUNDS:-5}
AGENT_BENCH=$OUT/tests/bench_jvm_agent
BARE=$OUT/tests/bench_bare
PROBE=$OUT/tests/bench_probe
HOLDPROG=$OUT/tests/holdprog
POOL_PROG=$OUT/tests/pool_prog
NOHOLD=syscalls,sched,klock,pagecache,cpuclock,pc-evict	# full without holders
NOEVICT=syscalls,sched,klock,pagecache,cpuclock,holders	# full without pc-evict
EVICT=${BENCH_EVICT:-1}
EVICT_ROUNDS=${BENCH_EVICT_ROUNDS:-$ROUNDS}

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$FCTRACE" ] || die "no $FCTRACE (run make)"
[ -x "$BARE" ] || die "no $BARE (run make bench)"

if [ "$(id -u)" = 0 ]; then
	VARIANTS="untraced floor full light"
else
	VARIANTS="untraced"
	echo "bench: not root: untraced runs only (sudo make bench for the probe sets)" >&2
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
RES=$tmp/runs		# workload threads variant round wall_ns load_ns lost

# first "key": number in a JSON text (the top-level one comes first)
json_num() { grep -o "\"$1\": *[0-9]*" "$2" | head -n 1 | sed 's/.*: *//'; }

ops_per_thread() { echo $(( (OPS + $1 - 1) / $1 )); }

# the external cell: bench_bare's loop, alone or under `fctrace run --`;
# ($1 variant, $2 round) the wall is the loop's own ops x ns_per_op
run_ext() {
	n=$(ops_per_thread 1)
	if [ "$1" = untraced ]; then
		"$BARE" "$FILES" "$n" >"$tmp/ext" 2>"$tmp/err"
		lost=0
	else
		"$FCTRACE" run --probes "$1" --quiet --json "$tmp/run.json" -- \
			"$BARE" "$FILES" "$n" >"$tmp/ext" 2>"$tmp/err"
		lost=$(json_num total "$tmp/run.json" || true)
	fi || { echo "bench: ext $1 failed: $(head -n 1 "$tmp/err")" >&2; return; }
	wall=$(awk '{ for (i = 1; i < NF; i++) if ($i == "wall_ns") print $(i + 1) }' "$tmp/ext")
	[ "${lost:-0}" -gt 0 ] && echo "bench: ext $1 round $2 lost $lost events" >&2
	echo "ext 1 $1 $2 $wall $( [ "$1" = untraced ] || json_num load_ns "$tmp/run.json")" \
	     "${lost:-0}" >>"$RES"
}

# one fctrace run of cell ($1 workload, $2 threads) as variant $3, round $4
run_cell() {
	if [ "$1" = ext ]; then
		[ "$2" = 1 ] && run_ext "$3" "$4"
		return
	fi
	case $3 in
	untraced) set -- "$1" "$2" "$3" "$4" --no-bpf ;;
	*) set -- "$1" "$2" "$3" "$4" --probes "$3" ;;
	esac
	if ! "$FCTRACE" run --workload "$1" --files "$FILES" --threads "$2" \
		--ops "$(ops_per_thread "$2")" "$5" ${6:+"$6"} --quiet \
		--json "$tmp/run.json" >/dev/null 2>"$tmp/err"; then
		echo "bench: $1/$2 $3 failed: $(head -n 1 "$tmp/err")" >&2
		return
	fi
	lost=$(json_num total "$tmp/run.json" || true)
	[ "${lost:-0}" -gt 0 ] && echo "bench: $1/$2 $3 round $4 lost events:" \
		"$(tr -d ' \n' <"$tmp/run.json" | sed 's/.*"lost_events":{\([^}]*\)}.*/\1/')" >&2
	echo "$1 $2 $3 $4 $(json_num wall_ns "$tmp/run.json")" \
	     "$(json_num load_ns "$tmp/run.json" || true)" \
	     "$(json_num total "$tmp/run.json" || true)" >>"$RES"
}

header() {
	echo "fctrace bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -sr), $(nproc) CPUs" \
	     "($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))"
	echo "git $(git rev-parse --short HEAD 2>/dev/null || echo '?'), rounds $ROUNDS," \
	     "$OPS ops per run, $FILES files; variants: $VARIANTS"
}

overhead() {
	nv=$(echo $VARIANTS | wc -w)
	for r in $(seq 1 "$ROUNDS"); do
		[ -t 2 ] && printf '\rround %d/%d ' "$r" "$ROUNDS" >&2
		for wl in $WORKLOADS; do
			for th in $THREADS; do
				# rotate the order so no variant always runs first
				i=0; order=""
				for v in $VARIANTS; do
					k=$(( (i + r) % nv )); order="$order $k:$v"; i=$((i + 1))
				done
				for kv in $(echo $order | tr ' ' '\n' | sort -n); do
					run_cell "$wl" "$th" "${kv#*:}" "$r"
				done
			done
		done
	done
	[ -t 2 ] && printf '\r' >&2
	return 0
}

# Part 1's table from $RES.
overhead_table() {
	echo
	echo "1. Wall time of the measured window (median of $ROUNDS rounds; ratio = median of"
	echo "   each round's wall / that round's untraced wall)"
	printf '%-7s %3s %-9s %10s %19s %7s %9s %6s\n' workload thr variant "median ms" \
	       "min-max ms" ratio "load ms" lost
	awk -v variants="$VARIANTS" '
	function med(a, n,   i, j, t) {	# sorts a[1..n], returns its median
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ key = $1 " " $2; wall[key, $3, $4] = $5; load[key, $3, $4] = $6; lost[key, $3, $4] = $7
	  if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	  if ($4 > rounds) rounds = $4 }
	END {
		nv = split(variants, V, " ")
		for (k = 1; k <= nk; k++) for (v = 1; v <= nv; v++) {
			n = 0; nr = 0; nl = 0; lmax = 0
			for (r = 1; r <= rounds; r++) {
				if (!((keys[k], V[v], r) in wall)) continue
				w[++n] = wall[keys[k], V[v], r]
				if ((keys[k], "untraced", r) in wall)
					q[++nr] = w[n] / wall[keys[k], "untraced", r]
				if (load[keys[k], V[v], r] != "") l[++nl] = load[keys[k], V[v], r]
				if (lost[keys[k], V[v], r] + 0 > lmax) lmax = lost[keys[k], V[v], r] + 0
			}
			if (!n) continue
			m = med(w, n); lo = w[1]; hi = w[n]
			split(keys[k], kk, " ")
			printf "%-7s %3s %-9s %10.1f %9.1f-%-9.1f %7s %9s %6s\n", kk[1], kk[2], V[v],
			       m / 1e6, lo / 1e6, hi / 1e6, nr ? sprintf("%.3f", med(q, nr)) : "-",
			       nl ? sprintf("%.1f", med(l, nl) / 1e6) : "-", V[v] == "untraced" ? "-" : lmax
			printf "%s %s %s %s %s\n", kk[1], kk[2], V[v], nr ? med(q, nr) : 0,
			       nl ? med(l, nl) : 0 >> "'"$tmp/ratios"'"
		}
	}' "$RES"
}

# Part 2: bench_probe with BPF statistics, one run per cell and probe set.
probe_costs() {
	[ "$STATS" = 1 ] && [ "$(id -u)" = 0 ] && [ -x "$PROBE" ] || return 0
	: >"$tmp/progs"
	echo
	echo "2. Probe costs (one run each, BPF statistics on: the walls here are not the ratios')"
	printf '%-7s %3s %-6s %9s %10s %12s %12s %7s\n' workload thr set "load ms" "detach ms" \
	       "events/s" "hook runs/s" "lost"
	for wl in $WORKLOADS; do
		[ "$wl" = ext ] && continue	# bench_probe runs fctrace's own workloads
		for th in $THREADS; do
			for set in floor full light; do
				if ! BENCH_STATS=1 "$PROBE" run --workload "$wl" --files "$FILES" \
					--threads "$th" --ops "$(ops_per_thread "$th")" --probes "$set" \
					>"$tmp/probe" 2>"$tmp/err"; then
					echo "bench: bench_probe $wl/$th $set failed: $(head -n 1 "$tmp/err")" >&2
					continue
				fi
				awk -v wl="$wl" -v th="$th" -v set="$set" -v progs="$tmp/progs" '
				$1 == "prog" { runs += $4; print wl, th, set, $2, $4, $6 >> progs; next }
				{ v[$1] = $2 }
				END {
					s = v["wall_ns"] / 1e9
					printf "%-7s %3s %-6s %9.1f %10.1f %12.0f %12.0f %7d\n", wl, th, set,
					       v["load_ns"] / 1e6, v["detach_ns"] / 1e6,
					       s ? v["events"] / s : 0, s ? runs / s : 0, v["lost"]
				}' "$tmp/probe"
			done
		done
	done
	echo
	echo "   ns per program run (run_time_ns / run_cnt, all cells pooled)"
	awk '{ k = $3 " " $4; cnt[k] += $5; ns[k] += $6; if (!(k in seen)) { seen[k] = 1; keys[++n] = k } }
	END { for (i = 1; i <= n; i++) { split(keys[i], p, " ")
		printf "   %-6s %-30s %10d runs %6.0f ns\n", p[1], p[2], cnt[keys[i]],
		       cnt[keys[i]] ? ns[keys[i]] / cnt[keys[i]] : 0 } }' "$tmp/progs"
}

# total instructions callgrind counted for a command
callgrind_ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' | tail -n 1
}

# Part 3: fc against the bare loop.
fidelity() {
	n=$(( OPS / 2 ))
	echo
	echo "3. Workload fidelity: fc (1 thread, --no-bpf) against tests/bench_bare, $FILES files"
	for r in $(seq 1 "$ROUNDS"); do
		bare=$("$BARE" "$FILES" "$n" | sed -n 's/.*ns_per_op \([0-9.]*\).*/\1/p')
		"$FCTRACE" run --workload fc --files "$FILES" --threads 1 --ops "$n" --no-bpf \
			--quiet --json "$tmp/fc.json" >/dev/null 2>&1 || continue
		fc=$(awk -v w="$(json_num wall_ns "$tmp/fc.json")" -v n="$n" 'BEGIN { print w / n }')
		echo "$bare $fc" >>"$tmp/fid"
	done
	awk 'function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ b[NR] = $1; f[NR] = $2; q[NR] = $2 / $1 }
	END { if (!NR) exit
		printf "   wall per op: bare %.0f ns, fc %.0f ns (medians of %d), fc/bare %.3f (median of rounds)\n",
		       med(b, NR), med(f, NR), NR, med(q, NR)
		print "fidelity_wall", med(q, NR) >> "'"$tmp/ratios"'" }' "$tmp/fid" 2>/dev/null
	set -- $CG_OPS
	if [ $# -ne 2 ] || ! command -v valgrind >/dev/null; then
		echo "   callgrind: skipped (BENCH_CG_OPS or valgrind missing)"
		return 0
	fi
	b1=$(callgrind_ir "$BARE" "$FILES" "$1"); b2=$(callgrind_ir "$BARE" "$FILES" "$2")
	f1=$(callgrind_ir "$FCTRACE" run --workload fc --files "$FILES" --threads 1 --ops "$1" --no-bpf --quiet)
	f2=$(callgrind_ir "$FCTRACE" run --workload fc --files "$FILES" --threads 1 --ops "$2" --no-bpf --quiet)
	awk -v b1="$b1" -v b2="$b2" -v f1="$f1" -v f2="$f2" -v n1="$1" -v n2="$2" 'BEGIN {
		if (b2 == "" || f2 == "") { print "   callgrind: failed"; exit }
		b = (b2 - b1) / (n2 - n1); f = (f2 - f1) / (n2 - n1)
		printf "   user instructions per op (callgrind, ops %d vs %d): bare %.0f, fc %.0f, fc/bare %.3f\n",
		       n1, n2, b, f, f / b
		printf "   (the kernel work of the three syscalls is not counted: fc adds %.0f user\n", f - b
		printf "    instructions to an op whose wall time is mostly kernel)\n"
		print "fidelity_ir", f / b >> "'"$tmp/ratios"'" }'
}

# Pass or fail against the issue's targets, from the ratios just measured.
targets() {
	[ -s "$tmp/ratios" ] || return 0
	echo
	echo "Targets"
	awk '
	NF == 5 { r[$1, $2, $3] = $4; l[$1, $2, $3] = $5 }
	$1 == "holders" { h[$2] = $3 }
	$1 == "pcevict" { e[$2] = $3 }
	$1 ~ /^fidelity/ { r[$1] = $2 }
	function say(ok, what) { printf "   %-4s %s\n", ok ? "ok" : "MISS", what }
	END {
		if (("fcp", 8, "full") in r) {
			d = 100 * (r["fcp", 8, "full"] - r["fcp", 8, "floor"])
			say(d <= 5, sprintf("full within 5 points of the floor at fcp/8: full %.3f, floor %.3f (%+.1f points)",
			    r["fcp", 8, "full"], r["fcp", 8, "floor"], d))
			say(r["fcp", 8, "light"] <= 1.05, sprintf("light <= 1.05x at fcp/8: %.3f", r["fcp", 8, "light"]))
			say(l["fcp", 8, "full"] <= 150e6, sprintf("load+attach <= 150 ms (full, fcp/8 median): %.1f ms",
			    l["fcp", 8, "full"] / 1e6))
		}
		if (("ext", 1, "full") in r) {
			d = 100 * (r["ext", 1, "full"] - r["ext", 1, "floor"])
			say(d <= 5, sprintf("full within 5 points of the floor for an external program (run -- bench_bare): full %.3f, floor %.3f (%+.1f points)",
			    r["ext", 1, "full"], r["ext", 1, "floor"], d))
		}
		if ("fc/1" in h)
			say(h["fc/1"] <= 1.03, sprintf("holders cost <= 3 %% with no word watched (fc/1, full/without): %.3f", h["fc/1"]))
		if ("fcp/8" in h)
			say(h["fcp/8"] <= 1.05, sprintf("holders cost <= 5 %% with the pool lock watched (fcp/8, full/without): %.3f", h["fcp/8"]))
		for (c in e)
			say(e[c] <= 1.03, sprintf("pc-evict cost <= 3 %% (%s, full/without): %.3f", c, e[c]))
		if ("fidelity_wall" in r)
			say(r["fidelity_wall"] <= 1.05, sprintf("fc wall per op within 5 %% of the bare loop: %.3f", r["fidelity_wall"]))
		if ("fidelity_ir" in r)
			say(r["fidelity_ir"] <= 1.05, sprintf("fc user instructions per op within 5 %% of the bare loop: %.3f", r["fidelity_ir"]))
	}' "$tmp/ratios"
}

# Part 4: one run of holders cell $1 (fcp/8, fc/1 or holdprog) with the
# probes $2 (full or nohold), round $3: "cell variant round wall_ns".
run_hold() {
	probes=full; [ "$2" = nohold ] && probes=$NOHOLD
	case $1 in
	holdprog)
		"$FCTRACE" run --probes "$probes" --quiet --json "$tmp/h.json" -- \
			"$HOLDPROG" --ops "$HOLD_OPS" >"$tmp/hp" 2>"$tmp/err" &&
			wall=$(json_num wall_ns "$tmp/hp") ;;
	java)
		"$FCTRACE" run --probes "$probes" --quiet --json "$tmp/h.json" -- \
			java -cp "$OUT/java" HoldBench "$tmp/jh.json" "$tmp/jhd" \
			--ops "$HOLD_OPS" --hold-ns 2000 >/dev/null 2>"$tmp/err" &&
			wall=$(json_num wall_ns "$tmp/jh.json") ;;
	*)
		"$FCTRACE" run --workload "${1%/*}" --files "$FILES" --threads "${1#*/}" \
			--ops "$(ops_per_thread "${1#*/}")" --probes "$probes" --quiet \
			--json "$tmp/h.json" >/dev/null 2>"$tmp/err" &&
			wall=$(json_num wall_ns "$tmp/h.json") ;;
	esac || { echo "bench: $1 $2 failed: $(head -n 1 "$tmp/err")" >&2; return 0; }
	echo "$1 $2 $3 $wall" >>"$tmp/hold"
}

holders() {
	[ "$HOLD" = 1 ] && [ "$(id -u)" = 0 ] || return 0
	[ -x "$HOLDPROG" ] || { echo "bench: no $HOLDPROG (make bench builds it)" >&2; return 0; }
	: >"$tmp/hold"
	cells="fcp/8 fc/1 holdprog"
	command -v javac >/dev/null && javac -d "$OUT/java" tests/java/HoldBench.java 2>/dev/null &&
		cells="$cells java"
	interleave "$HOLD_ROUNDS" holders run_hold "$cells" full nohold
	echo
	echo "4. Holders: full against full without them (--probes $NOHOLD), $HOLD_ROUNDS rounds"
	echo "   interleaved; holdprog: locked, 8 threads x $HOLD_OPS ops, its own wall clock;"
	echo "   java: HoldBench, the same in a JVM (Java monitors: EnterI uprobes), its own clock"
	ab_table "$tmp/hold" holders nohold
}

# The table of an A/B part: lines "cell variant round wall_ns" in $1,
# variants full and $3; each cell's medians and the median of its
# rounds' full/$3 ratios (into the ratios file as "$2 cell ratio").
ab_table() {
	printf '   %-9s %12s %12s %14s\n' cell "without ms" "full ms" "full/without"
	awk -v tag="$2" -v without="$3" 'function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ w[$1, $2, $3] = $4; if (!($1 in seen)) { seen[$1] = 1; cells[++nc] = $1 } if ($3 > rounds) rounds = $3 }
	END {
		for (c = 1; c <= nc; c++) {
			nf = nn = nq = 0
			for (r = 1; r <= rounds; r++) {
				if ((cells[c], "full", r) in w) f[++nf] = w[cells[c], "full", r]
				if ((cells[c], without, r) in w) n[++nn] = w[cells[c], without, r]
				if (((cells[c], "full", r) in w) && ((cells[c], without, r) in w))
					q[++nq] = w[cells[c], "full", r] / w[cells[c], without, r]
			}
			if (!nq) continue
			printf "   %-9s %12.1f %12.1f %14.3f\n", cells[c], med(n, nn) / 1e6, med(f, nf) / 1e6, med(q, nq)
			print tag, cells[c], med(q, nq) >> "'"$tmp/ratios"'"
		}
	}' "$1"
}

# Part 6: one run of pc-evict cell $1 (fc/1, fcp/8, or fc/1+p: fc under
# --pressure 20000, its files' pages removed all along) with the probes $2
# (full or noevict), round $3: "cell variant round wall_ns".
run_evict() {
	probes=full; [ "$2" = noevict ] && probes=$NOEVICT
	ecell=${1%+p}; set -- "$1" "$2" "$3" ""
	[ "$ecell" != "$1" ] && set -- "$1" "$2" "$3" "--pressure=20000"
	"$FCTRACE" run --workload "${ecell%/*}" --files "$FILES" --threads "${ecell#*/}" \
		--ops "$(ops_per_thread "${ecell#*/}")" --probes "$probes" ${4:+"$4"} --quiet \
		--json "$tmp/e.json" >/dev/null 2>"$tmp/err" ||
		{ echo "bench: $1 $2 failed: $(head -n 1 "$tmp/err")" >&2; return 0; }
	echo "$1 $2 $3 $(json_num wall_ns "$tmp/e.json")" >>"$tmp/evict"
}

pcevict() {
	[ "$EVICT" = 1 ] && [ "$(id -u)" = 0 ] || return 0
	: >"$tmp/evict"
	interleave "$EVICT_ROUNDS" pc-evict run_evict "fc/1 fcp/8 fc/1+p" full noevict
	echo
	echo "6. Page-cache removals: full against full without pc-evict (--probes $NOEVICT),"
	echo "   $EVICT_ROUNDS rounds interleaved; fc/1+p: fc under --pressure 20000 (removals all along)"
	ab_table "$tmp/evict" pcevict noevict
}

# Part 5: one run of cell $1 (ext or holdprog) with full, with or without
# --cpu-stacks ($2: plain or stacks), round $3: "cell variant round wall_ns".
run_# Runs RUNNER CELL VARIANT ROUND for ROUNDS rounds over CELLS, the two
# variants A and B alternating which goes first (drift hits both alike);
# LABEL names the progress line: interleave ROUNDS LABEL RUNNER "CELLS" A B
interleave() {
	rounds=$1 label=$2 runner=$3 cells=$4 va=$5 vb=$6
	for r in $(seq 1 "$rounds"); do
		[ -t 2 ] && printf '\r%s round %d/%d ' "$label" "$r" "$rounds" >&2
		for cell in $cells; do
			if [ $((r % 2)) = 1 ]; then order="$va $vb"; else order="$vb $va"; fi
			for v in $order; do "$runner" "$cell" "$v" "$r"; done
		done
	done
	[ -t 2 ] && printf '\r' >&2
}

cpustacks() {
	flag=; [ "$2" = stacks ] && flag=--cpu-stacks
	case $1 in
	holdprog) set -- "$1" "$2" "$3" "$HOLDPROG" --ops "$HOLD_OPS" ;;
	*) set -- "$1" "$2" "$3" "$BARE" "$FILES" "$(ops_per_thread 1)" ;;
	esac
	"$FCTRACE" run --probes full $flag --quiet --json "$tmp/c.json" -- "$4" "$5" "$6" \
		>"$tmp/cs" 2>"$tmp/err" ||
		{ echo "bench: $1 $2 failed: $(head -n 1 "$tmp/err")" >&2; return 0; }
	case $1 in
	holdprog) wall=$(json_num wall_ns "$tmp/cs") ;;
	*) wall=$(awk '{ for (i = 1; i < NF; i++) if ($i == "wall_ns") print $(i + 1) }' "$tmp/cs") ;;
	esac
	echo "$1 $2 $3 $wall" >>"$tmp/cpus"
}

cpustacks() {
	[ "$(id -u)" = 0 ] || return 0
	: >"$tmp/cpus"
	interleave "$HOLD_ROUNDS" "cpu stacks" run_cpustacks "ext holdprog" plain stacks
	echo
	echo "5. CPU stacks: full against full --cpu-stacks, $HOLD_ROUNDS rounds interleaved;"
	echo "   ext: bench_bare's fc loop, 1 thread; holdprog: 8 threads x $HOLD_OPS ops; own clocks"
	printf '   %-9s %12s %14s %14s\n' cell "full ms" "+stacks ms" "stacks/full"
	awk 'function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ w[$1, $2, $3] = $4; if (!($1 in seen)) { seen[$1] = 1; cells[++nc] = $1 } if ($3 > rounds) rounds = $3 }
	END {
		for (c = 1; c <= nc; c++) {
			np = ns = nq = 0
			for (r = 1; r <= rounds; r++) {
				if ((cells[c], "plain", r) in w) p[++np] = w[cells[c], "plain", r]
				if ((cells[c], "stacks", r) in w) s[++ns] = w[cells[c], "stacks", r]
				if (((cells[c], "plain", r) in w) && ((cells[c], "stacks", r) in w))
					q[++nq] = w[cells[c], "stacks", r] / w[cells[c], "plain", r]
			}
			if (!nq) continue
			printf "   %-9s %12.1f %14.1f %14.3f\n", cells[c], med(p, np) / 1e6, med(s, ns) / 1e6, med(q, nq)
		}
	}' "$tmp/cpus"
}

# The floor must attach exactly full's hook points.
same_hooks() {
	[ "$(id -u)" = 0 ] || return 0
	for set in full floor; do
		"$FCTRACE" run --workload fc --files 2 --threads 1 --ops 10 --probes "$set" --quiet \
			--json - 2>/dev/null | tr -d ' \n' | sed 's/.*"probes":{\([^}]*\)}.*/\1/' |
			tr ',' '\n' | grep '"ok"' | grep -v '^"holders' | grep -v '^"handlesin' | sort >"$tmp/hooks.$set"
	done
	if [ -s "$tmp/hooks.full" ] && cmp -s "$tmp/hooks.full" "$tmp/hooks.floor"; then
		echo "floor and full attach the same $(wc -l <"$tmp/hooks.full") hook points"
	else
		echo "bench: MISS floor and full attach different hook points:" >&2
		diff "$tmp/hooks.full" "$tmp/hooks.floor" >&2
	fi
}

# One AgentBench run: "ops N" (and, with the agent, its walks) into $1.
run_agentbench() {
	out=$1 with=$2
	rm -f "$tmp/go" "$out"
	: >"$out"
	mkfifo "$tmp/go"
	java -cp "$OUT/java" AgentBench 8 5 5 <"$tmp/go" >"$out" 2>/dev/null &
	jpid=$!
	exec 7>"$tmp/go"
	i=0
	while [ $i -lt 200 ] && ! grep -q ready "$out"; do sleep 0.05; i=$((i + 1)); done
	apid=
	if [ "$with" = agent ]; then
		"$AGENT_BENCH" "$jpid" 6 >>"$out" &
		apid=$!
		sleep 1	# loaded before the go
	fi
	echo go >&7
	wait "$jpid"
	exec 7>&-
	[ -n "$apid" ] && wait "$apid"
}

jvm_agent_cost() {
	echo
	echo "5. fctrace's JVMTI agent alone: AgentBench's throughput (its own count; median of"
	echo "   $JVM_ROUNDS interleaved rounds; ratio = median of each round's agent / without)"
	if [ "$(id -u)" != 0 ] || ! command -v javac >/dev/null || [ ! -x "$AGENT_BENCH" ]; then
		echo "   skipped: needs root, a JDK and $AGENT_BENCH"
		return
	fi
	mkdir -p "$OUT/java" && javac -d "$OUT/java" tests/java/Harness.java tests/java/AgentBench.java ||
		return
	r=1
	while [ "$r" -le "$JVM_ROUNDS" ]; do
		run_agentbench "$tmp/jp" plain
		run_agentbench "$tmp/ja" agent
		echo "$(grep -o 'ops [0-9]*' "$tmp/jp") $(grep -o 'ops [0-9]*' "$tmp/ja")" \
			"$(grep -o 'walks=[0-9]*' "$tmp/ja") $(grep -o 'park_stacks=[0-9]*' "$tmp/ja")"
		r=$((r + 1))
	done | awk '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n++; p[n] = $2; g[n] = $4; q[n] = $4 / $2; sub("walks=", "", $5); w[n] = $5
	  sub("park_stacks=", "", $6); s[n] = $6 }
	END {
		if (!n) { print "   no runs"; exit }
		printf "   without %.0f ops/s, with the agent %.0f ops/s: ratio %.3f (cost %.1f %%)\n",
			med(p, n) / 5, med(g, n) / 5, med(q, n), (1 - med(q, n)) * 100
		printf "   stacks walked per second: %.1f at contended enters, %.1f of parked threads\n",
			med(w, n) / 6, med(s, n) / 6
	}'
}

# Part 8: one run of cell $1 (fc/1 or fcp/8) with full, the handles' code
# inside the syscall programs (full) or in programs of its own ($2 apart:
# FCTRACE_HANDLES_APART=1), round $3: "cell variant round wall_ns".
run_handles() {
	apart=; [ "$2" = apart ] && apart=1
	FCTRACE_HANDLES_APART=$apart "$FCTRACE" run --workload "${1%/*}" --files "$FILES" \
		--threads "${1#*/}" --ops "$(ops_per_thread "${1#*/}")" --quiet \
		--json "$tmp/h.json" >/dev/null 2>"$tmp/err" ||
		{ echo "bench: $1 $2 failed: $(head -n 1 "$tmp/err")" >&2; return 0; }
	echo "$1 $2 $3 $(json_num wall_ns "$tmp/h.json")" >>"$tmp/handles"
}

hosted_handles() {
	[ "$(id -u)" = 0 ] || return 0
	: >"$tmp/handles"
	interleave "$ROUNDS" handles run_handles "fc/1 fcp/8" full apart
	echo
	echo "8. The handles group inside the syscall programs (full) against in two programs of"
	echo "   its own (FCTRACE_HANDLES_APART=1, \"without\"), $ROUNDS rounds interleaved: below 1, the"
	echo "   dispatches saved"
	ab_table "$tmp/handles" handles apart
}

# Part 9: one run of pool_prog's cell $1 (sem or cond, 16 threads, a pool
# of 4) under full with the pools' code ($2 full) or without it (off:
# FCTRACE_POOLS_OFF=1), round $3: "cell variant round wall_ns" (its own).
run_pools() {
	off=; [ "$2" = off ] && off=1
	FCTRACE_POOLS_OFF=$off POOL_PROG_OUT="$tmp/p.out" "$FCTRACE" run --quiet -- \
		"$POOL_PROG" "$1" 4 16 40000 20 0 spin >/dev/null 2>"$tmp/err" ||
		{ echo "bench: pools $1 $2 failed: $(head -n 1 "$tmp/err")" >&2; return 0; }
	echo "$1 $2 $3 $(awk '{ print $NF }' "$tmp/p.out")" >>"$tmp/pools"
}

pools_cost() {
	[ "$(id -u)" = 0 ] && [ -x "$POOL_PROG" ] || return 0
	: >"$tmp/pools"
	interleave "$ROUNDS" pools run_pools "sem cond" full off
	echo
	echo "9. The pools' code (full) against full without it (FCTRACE_POOLS_OFF=1, \"without\"),"
	echo "   run -- pool_prog: 16 threads, a pool of 4, 20 us holds; $ROUNDS rounds interleaved,"
	echo "   the program's own wall"
	ab_table "$tmp/pools" pools off
}

# Is part $1 asked for (BENCH_PARTS)?
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

header
same_hooks
: >"$RES"
: >"$tmp/ratios"
if part overhead; then overhead; overhead_table; fi
part stats && probe_costs
part fidelity && fidelity
part holders && holders
part cpustacks && cpustacks
part pcevict && pcevict
part jvm && jvm_agent_cost
part handles && hosted_handles
part pools && pools_cost
[ "$(id -u)" = 0 ] && part server && sh tests/bench_server.sh "$FCTRACE" "$SERVER_ROUNDS" "$tmp"
targets
lost=$(awk '$3 != "untraced" && $7 + 0 > 0' "$RES" | wc -l)
[ "$lost" -eq 0 ] && echo "   ok   0 events lost in every traced run" ||
	echo "   MISS events lost in $lost traced runs"
