#!/bin/sh
# bench_server.sh - make bench's server part (part 10): a PostgreSQL
# server under pgbench's select-only load, untraced, attached by fctrace
# at its defaults and with --probes light, and under bpftrace counting
# the server's syscalls (the single-purpose peer), alternated round by
# round; throughput as pgbench counts it, each variant's median over the
# rounds against the untraced median, and fctrace's own measure of its
# cost (the JSON's overhead.share) beside it.
#
#   bench_server.sh FCTRACE ROUNDS TMPDIR
#
# Needs root and PostgreSQL's server and pgbench (Debian's postgresql);
# skipped with a reason without them. The cluster is made in TMPDIR and
# removed at the end.
set -u
FCTRACE=$1 ROUNDS=$2 tmp=$3
SECS=${BENCH_SERVER_SECS:-10}
PORT=5499

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ] || ! command -v pgbench >/dev/null; then
	echo
	echo "10. Server: skipped, no PostgreSQL server or pgbench (apt-get install postgresql)"
	exit 0
fi
dir=$tmp/pg
mkdir -p "$dir" && chown postgres "$dir" || exit 1
stop() { su postgres -c "$PGBIN/pg_ctl -D $dir/data -m fast stop" >/dev/null 2>&1; }
trap stop EXIT
su postgres -c "$PGBIN/initdb -D $dir/data" >/dev/null 2>&1 &&
su postgres -c "$PGBIN/pg_ctl -D $dir/data -w -l $dir/log -o \"-p $PORT -k $dir -c listen_addresses=''\" start" \
	>/dev/null 2>&1 &&
pgbench -U postgres -h "$dir" -p "$PORT" -i -s 5 postgres >/dev/null 2>&1 ||
	{ echo "bench: the PostgreSQL cluster in $dir did not start" >&2; exit 1; }
pm=$(head -n 1 "$dir/data/postmaster.pid")

# pgbench for SECS seconds in the background, its progress a second at
# a time into $tmp/progress
load_start() {
	pgbench -U postgres -h "$dir" -p "$PORT" -c 8 -j 2 -T "$SECS" -P 1 -S postgres \
		>/dev/null 2>"$tmp/progress" &
	pg=$!
}

# the median of its per-second tps (after `wait $pg`) from the 3rd second
# to the last but one: the span every variant's tracer covers whole (an
# attach takes about a second to open its window)
load_tps() {
	sed -n 's/^progress: \([0-9.]*\) s, \([0-9.]*\) tps.*/\1 \2/p' "$tmp/progress" |
		awk -v last="$SECS" '$1 >= 3 && $1 <= last - 1 { print $2 }' | sort -g |
		awk '{ x[NR] = $1 } END { if (NR) print x[int((NR + 1) / 2)] }'
}

# fctrace attached inside the load; its overhead.share into $share
attached() {
	load_start
	sleep 1
	"$FCTRACE" attach -p "$pm" --follow --duration $((SECS - 2)) --quiet $1 \
		--json "$tmp/srv.json" >/dev/null 2>"$tmp/srv.err"
	wait $pg
	tps=$(load_tps)
	share=$(grep -o '"share": *[0-9.e-]*' "$tmp/srv.json" 2>/dev/null | head -n 1 |
		sed 's/.*: *//')
}

run_variant() {
	share=-
	case $1 in
	untraced) load_start; wait $pg; tps=$(load_tps) ;;
	fctrace) attached "" ;;
	light) attached "--probes light" ;;
	bpftrace)
		bpftrace -e 'tracepoint:raw_syscalls:sys_enter /comm == "postgres"/ { @[tid] = count(); }' \
			>/dev/null 2>&1 &
		b=$!
		sleep 2
		load_start
		wait $pg
		tps=$(load_tps)
		kill -INT $b 2>/dev/null
		wait $b 2>/dev/null ;;
	esac
	echo "$1 $2 ${tps:-0} ${share:--}" >>"$tmp/server"
}

variants="untraced fctrace light"
command -v bpftrace >/dev/null && variants="$variants bpftrace"
: >"$tmp/server"
for r in $(seq 1 "$ROUNDS"); do
	[ -t 2 ] && printf '\rserver round %d/%d ' "$r" "$ROUNDS" >&2
	for v in $variants; do run_variant "$v" "$r"; done
done
[ -t 2 ] && printf '\r' >&2

echo
echo "10. Server: PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }') under pgbench -S"
echo "    -c 8 -j 2, ${SECS} s a run (its per-second tps, seconds 3 to $((SECS - 1))), $ROUNDS rounds in turn;"
echo "    attach -p POSTMASTER --follow from the 2nd second"
printf '    %-10s %12s %9s %14s\n' variant "tps median" "/untraced" "fctrace's cost"
# median of column $2 of the rows of variant $1 (skipping "-")
median() {
	awk -v v="$1" -v c="$2" '$1 == v && $c != "-" { print $c }' "$tmp/server" | sort -g |
		awk '{ x[NR] = $1 } END { if (NR) print x[int((NR + 1) / 2)] }'
}
base=$(median untraced 3)
for v in $variants; do
	med=$(median "$v" 3) share=$(median "$v" 4)
	awk -v v="$v" -v med="${med:-0}" -v base="${base:-0}" -v share="$share" 'BEGIN {
		cost = "-"
		if (share != "")
			cost = sprintf("%.1f %%", 100 * share)
		ratio = 0
		if (base > 0)
			ratio = med / base
		printf "    %-10s %12.0f %9.3f %14s\n", v, med, ratio, cost
	}'
done
echo "    (fctrace's cost: the share of the server's CPU its BPF programs and threads took in"
echo "    its sampled seconds, the Cost: line; the peer counts every syscall of the server)"
