#!/bin/bash
# pg_cache_check.sh SHARED_BUFFERS TRACE - PostgreSQL's own block reads
# against fctrace's curve (docs/caches.md, "PostgreSQL's shared pool").
# Restarts the cluster in $PGDIR (default /tmp/pgd: data/, socket, port
# 5433; made with initdb and `pgbench -i -s 5`) with shared_buffers set,
# runs `pgbench -S -c 4 -j 2 -T 30`, and from 10 s in reads
# pg_stat_database's blks_read and xact_commit around a 10 s window: with
# TRACE 1 that window is `fctrace attach -p POSTMASTER --follow
# --duration 10 --json $PGDIR/pg.SB.json`. Prints the reads per
# transaction; the traced run's curve at the difference in blocks
# predicts the others'.
set -eu
SB=${1:?shared_buffers, e.g. 8MB}
TRACE=${2:-0}
PGDIR=${PGDIR:-/tmp/pgd}
FCTRACE=${FCTRACE:-$(dirname "$0")/../fctrace}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PSQL="psql -U postgres -h $PGDIR -p 5433 -Atc"
CTL="$PGBIN/pg_ctl -D $PGDIR/data"

su postgres -c "$CTL stop -m fast" >/dev/null 2>&1 || true
su postgres -c "$CTL -o '-p 5433 -k $PGDIR -c max_connections=60 -c shared_buffers=$SB' \
	-l $PGDIR/log start" >/dev/null
sleep 1.5
stats() {
	$PSQL "select blks_read, xact_commit from pg_stat_database where datname='postgres'" \
		postgres
}
pgbench -U postgres -h "$PGDIR" -p 5433 -S -c 4 -j 2 -T 30 postgres >"$PGDIR/pgbench.$SB.log" 2>&1 &
sleep 10
before=$(stats)
if [ "$TRACE" = 1 ]; then
	"$FCTRACE" attach -p "$(head -1 "$PGDIR/data/postmaster.pid")" --follow --duration 10 \
		--json "$PGDIR/pg.$SB.json" >"$PGDIR/pg.$SB.txt" 2>&1
else
	sleep 10
fi
after=$(stats)
wait
reads=$(( ${after%|*} - ${before%|*} ))
xacts=$(( ${after#*|} - ${before#*|} ))
echo "shared_buffers=$SB blks_read=$reads xacts=$xacts reads/xact=$(echo "scale=4; $reads / $xacts" | bc)"
