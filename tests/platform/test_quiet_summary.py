"""scripts/quiet_summary.py: the compact table scripts/quiet_bench.sh prints last.

Decisions:

* Every figure in the table is one a benchmark printed, beside the floor it printed;
  a log cut short at its time limit still gives the figures it holds.
"""

# ruff: noqa: E501  (the logs are the benchmarks' lines, verbatim)
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "quiet_summary.py"

LATENCY_LOG = """\
== 14:52:16 cores 2 load 9.81 4.63 3.70 start (limit 75 s): bench_latency.py
tigris on sqlite: 10 moves over 1 game(s), 3 players
floor: bare INSERT+COMMIT median 8.04 ms
interaction -> callback (deferral): n=10 median 1.0 ms, p99 1.1 ms, max 1.1 ms; floor 0.6 ms, median/floor 1.61
hand-off -> fully answered: n=5 median 128.7 ms, p99 159.1 ms, max 159.1 ms; floor 42.7 ms, median/floor 3.01
step (no public message) -> fully answered: n=5 median 101.9 ms, p99 142.8 ms, max 142.8 ms; floor 42.7 ms, median/floor 2.39
images of one hand-off (board + 3 private views): one after another 121.8 ms, at once 118.0 ms (at once/one after another 0.97); floor: the board alone 34.7 ms (at once/board 3.40)
tikal on postgres: 10 moves over 1 game(s), 3 players
hand-off -> fully answered: n=1 median 93.2 ms, p99 93.2 ms, max 93.2 ms; floor 52.7 ms, median/floor 1.77
== 14:53:25 cores 2 load 8.94 5.49 4.07 end rc=124
"""

SCALE_CUT_SHORT = """\
== 14:57:22 cores 2 load 7.25 6.80 4.96 start (limit 63 s): bench_scale.py
database: sqlite; 2 cores; load 7.22 at start
one move, no render, 1,000 games stored: p50 2.66 ms, p99 40.93 ms; floor: bare commit p50 0.28 ms, p50/floor 9.6 (load 6.97) [4 s]
== 14:58:25 cores 2 load 6.36 6.59 5.01 end rc=124
"""


def summary(name: str, log: str, tmp_path: Path) -> list[str]:
    path = tmp_path / f"{name}.log"
    path.write_text(log)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), name, str(path)], capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_latency_is_one_row_a_game_and_database_with_each_floor(tmp_path: Path) -> None:
    lines = summary("latency", LATENCY_LOG, tmp_path)
    assert lines[2] == (
        "| tigris | sqlite | 1.0 (0.6, 1.61) | 128.7 (42.7, 3.01) | 101.9 (42.7, 2.39) | 3.40 |"
    )
    assert lines[3] == "| tikal | postgres |  | 93.2 (52.7, 1.77) |  |  |"
    assert len(lines) == 4


def test_a_scale_log_cut_short_still_gives_its_figures(tmp_path: Path) -> None:
    lines = summary("scale", SCALE_CUT_SHORT, tmp_path)
    assert lines == [text for text in SCALE_CUT_SHORT.splitlines()[1:3]]
