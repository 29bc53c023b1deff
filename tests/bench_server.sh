#!/bin/sh
# bench_server.sh - make bench's server part (part 10): real servers under
# their own load generators, untraced and under each tracer a user would
# reach for, alternated round by round; each variant's throughput median
# over the rounds against the untraced median, and fctrace's own measure
# of its cost (the JSON's overhead.share) beside it.
#
#   bench_server.sh FCTRACE ROUNDS TMPDIR
#
#   BENCH_SERVERS="redis nginx pg"   the servers (each skipped, with the
#       reason, when its Debian package is missing: make deps-bench)
#   BENCH_SERVER_SECS=16             seconds of load a run
#   BENCH_SERVER_FROM=10             the throughput from this second of
#       the load to the last but one: the tracer attaches at the 1st, and
#       fctrace's budget acts from about 5 s into its window (its steps
#       are done by the 9th); FROM=3 sees the attach's first seconds
#   BENCH_SERVER_VARIANTS="untraced fctrace exact light bt-syscalls
#       bt-offcpu perf-trace perf-record"
#
# A run: the load starts; 1 s in, the tracer attaches to the server's
# processes as they are then; the throughput is the server's own count
# (redis INFO's total_commands_processed, nginx's stub_status requests)
# between the FROM-th second and the last but one, or pgbench's
# per-second progress over the same span (its median). Needs root. Everything runs
# under TMPDIR on ports of its own and is stopped at the end.
set -u
FCTRACE=$1 ROUNDS=$2 tmp=$3
SECS=${BENCH_SERVER_SECS:-16}
FROM=${BENCH_SERVER_FROM:-10}
SERVERS=${BENCH_SERVERS:-"redis nginx pg"}
VARIANTS=${BENCH_SERVER_VARIANTS:-"untraced fctrace exact light bt-syscalls bt-offcpu perf-trace perf-record"}
REDIS_PORT=6391 NGINX_PORT=8391 PG_PORT=5499

now_ms() { date +%s%3N; }

# ---- redis: redis-benchmark's GETs from 20 clients on loopback ----
redis_ok() { command -v redis-server >/dev/null && command -v redis-benchmark >/dev/null; }
redis_start() {
	redis-server --port $REDIS_PORT --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$tmp" --logfile "$tmp/redis.log" --daemonize no &
	srv_pid=$! comm=redis-server follow=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$srv_pid" 2>/dev/null || return 1	# the port is taken?
		redis-cli -p $REDIS_PORT ping >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}
redis_stop() { kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; }
redis_pids() { echo "$srv_pid"; }
redis_load() {
	redis-benchmark -p $REDIS_PORT -c 20 -n 1000000000 -t get -q >/dev/null 2>&1 &
	load=$!
	( sleep "$SECS"; kill "$load" 2>/dev/null ) &
}
redis_count() {
	redis-cli -p $REDIS_PORT info stats | sed -n 's/^total_commands_processed:\([0-9]*\).*/\1/p'
}
redis_what() { echo "redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') under redis-benchmark -t get -c 20 (loopback)"; }

# ---- nginx: 2 workers, a small static file, wrk's keep-alive clients ----
nginx_ok() { command -v nginx >/dev/null && command -v wrk >/dev/null; }
nginx_start() {
	mkdir -p "$tmp/nginx/www" && head -c 4096 /dev/zero | tr '\0' x >"$tmp/nginx/www/index.html"
	cat >"$tmp/nginx/nginx.conf" <<-EOF
	worker_processes 2;
	pid $tmp/nginx/nginx.pid;
	error_log $tmp/nginx/error.log;
	events { worker_connections 1024; }
	http {
		access_log off;
		client_body_temp_path $tmp/nginx; proxy_temp_path $tmp/nginx;
		fastcgi_temp_path $tmp/nginx; uwsgi_temp_path $tmp/nginx; scgi_temp_path $tmp/nginx;
		server {
			listen 127.0.0.1:$NGINX_PORT;
			root $tmp/nginx/www;
			location = /status { stub_status; }
		}
	}
	EOF
	nginx -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" -g 'daemon off;' 2>>"$tmp/nginx/error.log" &
	srv_pid=$! comm=nginx follow=--follow
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$srv_pid" 2>/dev/null || return 1	# the port is taken?
		[ -n "$(nginx_count)" ] && return 0
		sleep 0.2
	done
	return 1
}
nginx_stop() { kill "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; }
nginx_pids() { echo "$srv_pid$(pgrep -d, -P "$srv_pid" | sed 's/^/,/')"; }
nginx_load() {
	wrk -t 2 -c 20 -d "${SECS}s" "http://127.0.0.1:$NGINX_PORT/index.html" >/dev/null 2>&1 &
	load=$!
}
# stub_status's third line: accepts, handled, requests (bash's /dev/tcp: a
# Python client took a second to start on the loaded machine)
nginx_count() {
	bash -c 'exec 3<>/dev/tcp/127.0.0.1/$0 && printf "GET /status HTTP/1.0\r\n\r\n" >&3 && cat <&3' \
		$NGINX_PORT 2>/dev/null | awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ *\r?$/ { print $3 }'
}
nginx_what() { echo "nginx $(nginx -v 2>&1 | sed 's|.*/||'), 2 workers, 4 KiB file, wrk -t 2 -c 20 (keep-alive)"; }

# ---- pg: PostgreSQL under pgbench's select-only load ----
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)
pg_ok() { [ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] && command -v pgbench >/dev/null; }
pg_start() {
	dir=$tmp/pg
	mkdir -p "$dir" && chown postgres "$dir" || return 1
	su postgres -c "$PGBIN/initdb -D $dir/data" >/dev/null 2>&1 &&
	su postgres -c "$PGBIN/pg_ctl -D $dir/data -w -l $dir/log -o \"-p $PG_PORT -k $dir -c listen_addresses=''\" start" \
		>/dev/null 2>&1 &&
	pgbench -U postgres -h "$dir" -p "$PG_PORT" -i -s 5 postgres >/dev/null 2>&1 || return 1
	srv_pid=$(head -n 1 "$dir/data/postmaster.pid") comm=postgres follow=--follow
}
pg_stop() { su postgres -c "$PGBIN/pg_ctl -D $tmp/pg/data -m fast stop" >/dev/null 2>&1; }
pg_pids() { echo "$srv_pid$(pgrep -d, -P "$srv_pid" | sed 's/^/,/')"; }
pg_load() {
	pgbench -U postgres -h "$tmp/pg" -p "$PG_PORT" -c 8 -j 2 -T "$SECS" -P 1 -S postgres \
		>/dev/null 2>"$tmp/progress" &
	load=$!
}
pg_count() { echo 0; }
# the median of pgbench's per-second tps from the FROM-th second to the last but one
pg_rate() {
	sed -n 's/^progress: \([0-9.]*\) s, \([0-9.]*\) tps.*/\1 \2/p' "$tmp/progress" |
		awk -v from="$FROM" -v last="$SECS" '$1 >= from && $1 <= last - 1 { print $2 }' | sort -g |
		awk '{ x[NR] = $1 } END { if (NR) print x[int((NR + 1) / 2)] }'
}
pg_what() { echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }') under pgbench -S -c 8 -j 2 (unix socket)"; }

# ---- the tracers ----
# tracer_start VARIANT: in the background on the server's processes now
tracer_start() {
	tr="" share=-
	pids=$("${srv}_pids")
	case $1 in
	untraced) return ;;
	fctrace) set -- ;;
	exact) set -- --budget 0 ;;
	light) set -- --probes light ;;
	bt-syscalls)
		bpftrace -e "tracepoint:raw_syscalls:sys_enter /comm == \"$comm\"/ { @[tid, args->id] = count(); }" \
			>"$tmp/peer.out" 2>&1 &
		tr=$!; return ;;
	bt-offcpu)
		bpftrace -e "tracepoint:sched:sched_switch /args->prev_comm == \"$comm\"/ { @ts[args->prev_pid] = nsecs; @blk[kstack] = count(); }
			tracepoint:sched:sched_switch /@ts[args->next_pid]/ { @off[args->next_pid] = sum(nsecs - @ts[args->next_pid]); delete(@ts[args->next_pid]); }" \
			>"$tmp/peer.out" 2>&1 &
		tr=$!; return ;;
	perf-trace) perf trace -s -p "$pids" -o "$tmp/peer.out" >/dev/null 2>&1 & tr=$!; return ;;
	perf-record) perf record -q -g -p "$pids" -o "$tmp/perf.data" >/dev/null 2>&1 & tr=$!; return ;;
	esac
	# shellcheck disable=SC2086
	"$FCTRACE" attach -p "$pids" $follow --quiet "$@" --json "$tmp/srv.json" \
		>/dev/null 2>"$tmp/srv.err" &
	tr=$! fct=1
}

# Ctrl-C, as a user ends each of them; a tracer still there 60 s later is killed
tracer_stop() {
	[ -n "$tr" ] || return 0
	kill -INT "$tr" 2>/dev/null
	( sleep 60; kill -KILL "$tr" 2>/dev/null ) & dog=$!
	wait "$tr" 2>/dev/null
	kill "$dog" 2>/dev/null
	if [ "$1" = fctrace ] || [ "$1" = exact ] || [ "$1" = light ]; then
		share=$(grep -o '"share": *[0-9.e-]*' "$tmp/srv.json" 2>/dev/null | head -n 1 |
			sed 's/.*: *//')
		[ -n "$share" ] || { share=-; cp "$tmp/srv.err" "$tmp/srv.err.failed"; }
	fi
	rm -f "$tmp/srv.json" "$tmp/perf.data" "$tmp/peer.out"
}

# run_variant VARIANT ROUND: one run, its row into $tmp/server.$srv
run_variant() {
	"${srv}_load"
	sleep 1
	tracer_start "$1"
	sleep $((FROM - 1))
	c1=$("${srv}_count") t1=$(now_ms)
	sleep $((SECS - 1 - FROM))
	c2=$("${srv}_count") t2=$(now_ms)
	wait "$load" 2>/dev/null
	tracer_stop "$1"
	if [ "$srv" = pg ]; then
		rate=$(pg_rate)
	else
		rate=$(awk -v a="${c1:-0}" -v b="${c2:-0}" -v t1="$t1" -v t2="$t2" \
			'BEGIN { if (t2 > t1 && b > a) printf "%.0f", (b - a) * 1000 / (t2 - t1); else print 0 }')
	fi
	echo "$1 $2 ${rate:-0} $share ${c1:-} ${c2:-}" >>"$tmp/server.$srv"
}

# median of column $2 of the rows of variant $1 (skipping "-")
median() {
	awk -v v="$1" -v c="$2" '$1 == v && $c != "-" { print $c }' "$tmp/server.$srv" | sort -g |
		awk '{ x[NR] = $1 } END { if (NR) print x[int((NR + 1) / 2)] }'
}

have() {
	case $1 in
	bt-*) command -v bpftrace >/dev/null ;;
	perf-*) command -v perf >/dev/null ;;
	*) true ;;
	esac
}

report() {
	echo "    $("${srv}_what"), ${SECS} s a run, $ROUNDS rounds in turn"
	printf '    %-12s %12s %9s %14s\n' variant "per second" "/untraced" "fctrace's cost"
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
			printf "    %-12s %12.0f %9.3f %14s\n", v, med, ratio, cost
		}'
	done
}

echo
echo "10. Servers: each tracer attached 1 s into the load, the throughput the server counts"
echo "    over seconds $FROM to $((SECS - 1)); fctrace = attach at its defaults (budget 5 %), exact ="
echo "    --budget 0, light = --probes light; bt-syscalls = bpftrace counting the server's"
echo "    syscalls by thread and number, bt-offcpu = bpftrace timing its sleeps with a kernel"
echo "    stack a switch, perf-trace = perf trace -s -p, perf-record = perf record -g -p"
trap 'for s in $SERVERS; do srv=$s; "${s}_stop" 2>/dev/null; done' EXIT
for srv in $SERVERS; do
	echo
	if ! "${srv}_ok"; then
		echo "    $srv: skipped, not installed (make deps-bench)"
		continue
	fi
	if ! "${srv}_start"; then
		echo "    $srv: skipped, the server did not start (see $tmp)"
		continue
	fi
	variants=""
	for v in $VARIANTS; do have "$v" && variants="$variants $v"; done
	: >"$tmp/server.$srv"
	for r in $(seq 1 "$ROUNDS"); do
		[ -t 2 ] && printf '\r%s round %d/%d ' "$srv" "$r" "$ROUNDS" >&2
		for v in $variants; do run_variant "$v" "$r"; done
	done
	[ -t 2 ] && printf '\r' >&2
	report
	"${srv}_stop"
done
echo
echo "    (fctrace's cost: the share of the server's CPU its BPF programs and threads took in"
echo "    its sampled seconds, its Cost: line)"
