# The arena scripts' shared start, sourced by scripts/arena_table.sh and
# scripts/arena_tikal.sh:
#
#   source "$(dirname "$0")/arena_common.sh" DEFAULT_OUT_DIR "$@"
#
# sets `out` (the caller's OUT_DIR argument, else DEFAULT_OUT_DIR), `scale` (its SCALE
# argument, else 1), `python` (PYTHON, else python) and `jobs` (JOBS, else nproc), makes
# the output folder and empties its all.txt.
set -euo pipefail
out=${2:-$1}
scale=${3:-1}
python=${PYTHON:-python}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
: > "$out/all.txt"
