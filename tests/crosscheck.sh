#!/bin/sh
# tests/crosscheck.sh - fctrace's figures for a program it did not write,
# against bpftrace watching the same run (not part of make test: it
# prints the two side by side for docs/how-we-checked.md).
#
#   sh tests/crosscheck.sh [CMD ARGS...]     default: pigz -p 4 on 64 MiB
#
# bpftrace counts, per thread of the command (by comm), every syscall by
# number, the time inside futex waits (enter to exit), the time on CPU
# (sched_switch) and the pages added to the page cache (read in or
# written), from its own tracepoints; fctrace runs the command with
# `run -- CMD --json`. The script prints each figure both ways and the
# ratio. Needs root, bpftrace, python3.
set -u
FCTRACE=${FCTRACE:-./fctrace}
tmp=$(mktemp -d) || exit 1
trap 'kill "$bt" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
if [ $# -eq 0 ]; then
	head -c 48M /dev/urandom | base64 > "$tmp/data"
	set -- pigz -p 4 -c "$tmp/data"
fi
comm=$(basename "$1" | cut -c1-15)
# bpftrace's tracepoints need tracefs (fctrace's own hooks do not)
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

cat > "$tmp/bt" <<EOF
tracepoint:raw_syscalls:sys_enter /comm == "$comm"/ { @sc[args->id] = count(); }
tracepoint:syscalls:sys_enter_futex /comm == "$comm"/ { @fs[tid] = nsecs; }
tracepoint:syscalls:sys_exit_futex /@fs[tid]/ { @futex_ns = sum(nsecs - @fs[tid]); delete(@fs[tid]); }
tracepoint:sched:sched_switch /args->prev_comm == "$comm" && @on[args->prev_pid]/ {
	@oncpu_ns = sum(nsecs - @on[args->prev_pid]); delete(@on[args->prev_pid]); }
tracepoint:sched:sched_switch /args->next_comm == "$comm"/ { @on[args->next_pid] = nsecs; }
tracepoint:filemap:mm_filemap_add_to_page_cache /comm == "$comm"/ { @pages = sum(1 << args->order); }
EOF
bpftrace -f json "$tmp/bt" > "$tmp/bt.json" 2>"$tmp/bt.err" &
bt=$!
sleep 3		# bpftrace attaches its probes
"$FCTRACE" run -q --json "$tmp/f.json" -- "$@" >/dev/null 2>"$tmp/f.err" || {
	echo "crosscheck: fctrace failed: $(head -n 1 "$tmp/f.err")" >&2; exit 1; }
sleep 1
kill -INT "$bt" 2>/dev/null; wait "$bt" 2>/dev/null
[ -s "$tmp/bt.json" ] || { echo "crosscheck: bpftrace printed nothing: $(head -n 3 "$tmp/bt.err")" >&2; exit 1; }
python3 - "$tmp/f.json" "$tmp/bt.json" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
bt = {}
for line in open(sys.argv[2]):
    try:
        d = json.loads(line)
    except ValueError:
        continue
    if d.get("type") == "map":
        bt.update(d["data"])
nr = {str(x["nr"]): x for x in f["syscalls_by_number"]}
sc = bt.get("@sc", {})
print("%-22s %14s %14s %7s" % ("figure", "fctrace", "bpftrace", "ratio"))
def row(name, a, b):
    print("%-22s %14d %14d %7.3f" % (name, a, b, a / b if b else float("nan")))
row("syscalls (all)", sum(x["count"] for x in f["syscalls_by_number"]), sum(sc.values()))
for k in sorted(sc, key=lambda k: -sc[k])[:6]:
    row("  " + nr.get(k, {"name": "nr " + k})["name"], nr.get(k, {"count": 0})["count"], sc[k])
th = f["threads"]
row("futex wait ns", sum(t["futex_wait_ns"] or 0 for t in th), bt.get("@futex_ns", 0))
row("on-CPU ns", sum(t["oncpu_ns"] or 0 for t in th), bt.get("@oncpu_ns", 0))
row("page-cache pages added", sum((t["pagecache_misses"] or 0) + (t["pagecache_written"] or 0)
                                  for t in th), bt.get("@pages", 0))
print("threads: %d; locks named: %s" % (len(th), ", ".join(l["name"] for l in f["locks"][:3])))
EOF
