#!/usr/bin/env bash
# Tikal's arena cells of issue 28 on every core: each cell's wins (Wilson's 95%
# interval), its goal, and the tested level's decision p99, raw output kept.
#
#   scripts/arena_tikal.sh [OUT_DIR] [SCALE]
#
# Runs each cell below with `python -m bot arena ... --jobs $JOBS --seed 1000`, writes
# its printed lines to OUT_DIR/<cell>.txt (default: arena-tikal/) and all of them, in
# order, to OUT_DIR/all.txt, and prints one summary line per cell as it ends:
#
#   tikal-base-strong-baseline: strong won 41 of 64 games (64% [52–75]), goal ≥65%: missed, decision p99 1500 ms
#
# A cell meets its goal when the tested level's share of wins is at least the goal
# (the interval says how sure that is). SCALE multiplies every game count (default 1;
# 0.1 for a quick check). JOBS=N sets the processes (default: nproc); PYTHON the
# interpreter (default: python). Each cell's file is written when the cell ends, so a
# run stopped early keeps the cells done.
#
# Sizing. On 16 quiet cores a two-player base game of strong against the baseline
# takes about 25 s of one core, an auction game as much, Mini-Tikal 5, a four-player
# game of strong against three easy seats 11-13, an easy-against-random game 1 or 2
# (docs/arena-results.txt). Games run 16 at a time, so a cell takes its rounds of 16
# games: base 4 rounds, auction 3, Mini 3, each four-player cell 3 (40 games, as the
# issue asks), easy against random 2 each: about 5 minutes in all.
# shellcheck source=scripts/arena_common.sh
source "$(dirname "$0")/arena_common.sh" arena-tikal "$@"

# cell name | mode | seats (the tested level first) | games at scale 1 | goal (% of wins)
cells=(
  "tikal-base-strong-baseline|base|strong,baseline|64|65"
  "tikal-base-4p-strong-easy|base|strong,easy,easy,easy|40|70"
  "tikal-auction-4p-strong-easy|auction|strong,easy,easy,easy|40|70"
  "tikal-auction-strong-baseline|auction|strong,baseline|48|65"
  "tikal-mini-strong-baseline|mini|strong,baseline|48|65"
  "tikal-base-easy-random|base|easy,random|32|80"
  "tikal-auction-easy-random|auction|easy,random|32|80"
  "tikal-mini-easy-random|mini|easy,random|32|80"
)

started=$(date +%s)
for cell in "${cells[@]}"; do
  IFS='|' read -r name mode seats games goal <<<"$cell"
  count=$("$python" -c "print(max(1, round($games * $scale)))")
  args=(--game tikal --option "mode=$mode" --seats "$seats" --games "$count" --seed 1000 --jobs "$jobs")
  {
    echo "\$ python -m bot arena ${args[*]}"
    "$python" -m bot arena "${args[@]}"
    echo
  } > "$out/$name.txt"
  cat "$out/$name.txt" >> "$out/all.txt"
  tested=${seats%%,*}
  # "strong: won W of N games (P% [LO–HI]), average score A, decision p50 X ms, p99 Y ms"
  "$python" - "$out/$name.txt" "$name" "$tested" "$goal" <<'EOF'
import re
import sys

path, name, tested, goal = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
line = next(
    (row for row in open(path, encoding="utf-8") if row.startswith(f"{tested}: won ")), None
)
found = line and re.search(r"won (\d+) of (\d+) games \((\d+)% \[(\d+)–(\d+)\]\).*p99 (\d+) ms", line)
if not found:
    print(f"{name}: no result line for {tested} (see {path})")
    sys.exit(0)
wins, games, share, low, high, p99 = (int(g) for g in found.groups())
verdict = "met" if wins * 100 >= goal * games else "missed"
print(
    f"{name}: {tested} won {wins} of {games} games ({share}% [{low}–{high}]), "
    f"goal ≥{goal}%: {verdict}, decision p99 {p99} ms"
)
EOF
done
echo "== all cells in $(($(date +%s) - started)) s on $jobs processes; raw output in $out/"
