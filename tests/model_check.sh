#!/bin/sh
# model_check.sh - make model-check: the what-if model against measurements
# (docs/whatif-model.md). Absolute times drift on shared machines: the
# steps run one after another, and nothing else should run meanwhile.
#  1. the main job (fcp, 60 files, 8 threads) saved as JSON, and each of
#     the what-ifs its Why quotes, run and scored against it;
#  2. the FileChannelPool benchmark's matrix on 2 CPUs, predicted from the sweep's own fcp/60/8
#     cell (sweep --predict picks it);
#  3. a matrix on 1 CPU (taskset -c 0), predicted from a 2-CPU run of
#     fcp/60/8 made just before it (the machine's speed drifts over minutes);
#  4. issue 26's held-out subset (fc, fcp, fcp-fixed x 10/60/100 files x
#     1/2/4/8 threads, 30 000 ops) measured twice (--repeat 2): the model's
#     error against the mean of the two beside the two's own difference.
set -e
FCTRACE=${FCTRACE:-./fctrace}
CHECK=${CHECK:-.output/tests/model_check}
out=$(mktemp -d "${TMPDIR:-/tmp}/fctrace-model.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
run() { name=$1; shift; $FCTRACE run --quiet --json "$out/$name.json" "$@"; }

echo "== 1. the main job's what-ifs: fitted to fcp, 60 files, 8 threads, 2 CPUs"
run fit --workload fcp --files 60 --threads 8
run pool60 --workload fcp --files 60 --threads 8 --pool 60
run fixed --workload fcp-fixed --files 60 --threads 8
run fc --workload fc --files 60 --threads 8
run two --workload fcp --files 60 --threads 2
taskset -c 0 $FCTRACE run --quiet --json "$out/onecpu.json" --workload fcp --files 60 --threads 8
$CHECK "$out/fit.json" "$out/fit.json" "$out/pool60.json" "$out/fixed.json" "$out/fc.json" \
	"$out/two.json" "$out/onecpu.json" | grep -v '^  - \|^What if\|^fc overtakes'

echo "== 2. 2 CPUs: the FileChannelPool benchmark's matrix, fitted to its own fcp/60/8 cell"
$FCTRACE sweep --workload fc,fcp,fcp-fixed --files 10,50,60,100 --threads 1-8 --predict |
	sed -n '/^What-if model/,/absolute error/p'

echo "== 3. 1 CPU (taskset -c 0): fitted to a 2-CPU run of fcp/60/8 made just before"
run fit2 --workload fcp --files 60 --threads 8
taskset -c 0 $FCTRACE sweep --workload fc,fcp,fcp-fixed --files 10,60,100 --threads 1,2,4,8 \
	--predict --fit "$out/fit2.json" | sed -n '/^What-if model/,/absolute error/p'

echo "== 4. the 36-cell subset at 30 000 ops, measured twice: the model against the noise"
$FCTRACE sweep --workload fc,fcp,fcp-fixed --files 10,60,100 --threads 1,2,4,8 --ops 30000 \
	--predict --repeat 2 | sed -n '/^What-if model/,/machine.s noise/p'
