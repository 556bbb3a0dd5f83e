#!/usr/bin/env bash
# Every arena cell of docs/computer.md's table (issue 28), on every core, raw output kept.
#
#   scripts/arena_table.sh [OUT_DIR] [SCALE]
#
# Runs each cell below with `python -m bot arena ... --jobs $(nproc) --seed 1000` and
# writes its three printed lines to OUT_DIR/<cell>.txt (default: arena-out/), then all
# of them, in order, to OUT_DIR/all.txt. SCALE multiplies every game count (default 1;
# 0.5 halves them, for a smaller machine). Run it from the repository root with the
# project's Python on PATH (or PYTHON=.venv/bin/python); JOBS=N sets the processes
# (default: nproc). MEASURE=N instead plays N games of each cell on one process and
# prints the CPU seconds a game takes. Each cell's file is written when the cell ends,
# so a run stopped early (`timeout 480 scripts/arena_table.sh ...`) keeps the cells done.
#
# The cells: the new `strong` against the frozen `baseline` in two-player games of
# every game and mode; Tikal's `strong` against three `easy` seats, base and auction
# (40 games each); `easy` against `random` in two-player games of every game and mode.
#
# Sizing. The last column is the CPU seconds a game of the cell takes, measured with
# MEASURE=2 on the 2-core development machine (docs/computer.md, "The arena") and
# rounded up. Games are split over the processes, so a cell takes about
# ceil(games / processes) games' time: the counts are multiples of 16 (40 for Tikal's
# four-player cells, as the issue asks), so 16 processes finish together. At SCALE 1
# the run is about 5,700 CPU-seconds: about 6 minutes on 16 cores, 7 with the uneven
# last round of each cell — inside 8 minutes. On fewer cores, SCALE = cores / 16 keeps
# the same time (with wider intervals).
# shellcheck source=scripts/arena_common.sh
source "$(dirname "$0")/arena_common.sh" arena-out "$@"

# cell name | game | option (or -) | seats | games at scale 1 | CPU s/game measured
cells=(
  "tigris-hidden-strong-baseline|tigris|scoring=hidden|strong,baseline|64|11"
  "tigris-open-strong-baseline|tigris|scoring=open|strong,baseline|48|11"
  "tikal-base-strong-baseline|tikal|mode=base|strong,baseline|64|17"
  "tikal-auction-strong-baseline|tikal|mode=auction|strong,baseline|64|21"
  "tikal-mini-strong-baseline|tikal|mode=mini|strong,baseline|64|3"
  "temple-strong-baseline|temple|-|strong,baseline|96|8"
  "tikal-base-4p-strong-easy|tikal|mode=base|strong,easy,easy,easy|40|10"
  "tikal-auction-4p-strong-easy|tikal|mode=auction|strong,easy,easy,easy|40|12"
  "tigris-easy-random|tigris|scoring=hidden|easy,random|48|1"
  "tikal-base-easy-random|tikal|mode=base|easy,random|48|1"
  "tikal-auction-easy-random|tikal|mode=auction|easy,random|48|2"
  "tikal-mini-easy-random|tikal|mode=mini|easy,random|48|1"
  "temple-easy-random|temple|-|easy,random|48|1"
)

if [[ -n "${MEASURE:-}" ]]; then
  # MEASURE=N: play N games of each cell on one process and print its CPU seconds a game
  for cell in "${cells[@]}"; do
    IFS='|' read -r name game option seats games cpu <<<"$cell"
    args=(--game "$game" --seats "$seats" --games "$MEASURE" --seed 1000 --jobs 1)
    if [[ "$option" != "-" ]]; then
      args+=(--option "$option")
    fi
    used=$( { /usr/bin/time -f "%U %S" "$python" -m bot arena "${args[@]}" > /dev/null; } 2>&1 | tail -1)
    echo "$name: $("$python" -c "u, s = map(float, '$used'.split()); print(round((u + s) / $MEASURE, 1))") CPU-s a game ($MEASURE games)"
  done
  exit 0
fi

started=$(date +%s)
for cell in "${cells[@]}"; do
  IFS='|' read -r name game option seats games cpu <<<"$cell"
  count=$("$python" -c "print(max(1, round($games * $scale)))")
  args=(--game "$game" --seats "$seats" --games "$count" --seed 1000 --jobs "$jobs")
  if [[ "$option" != "-" ]]; then
    args+=(--option "$option")
  fi
  echo "== $name: $count games (about $((count * cpu)) CPU-s at $cpu s/game)" >&2
  {
    echo "\$ python -m bot arena ${args[*]}"
    "$python" -m bot arena "${args[@]}"
    echo
  } | tee "$out/$name.txt" >> "$out/all.txt"
done
echo "== all cells in $(( $(date +%s) - started )) s on $jobs processes; raw output in $out/" >&2
