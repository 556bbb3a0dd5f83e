"""The compact table of one benchmark log that ``scripts/quiet_bench.sh`` wrote.

Usage: ``python scripts/quiet_summary.py NAME LOG`` (NAME: scale, latency, cluster,
store or profile). Prints the lines of the log that carry a figure and its floor, in
fewer columns; the log itself keeps everything.

Decisions:

* Nothing here measures: it picks and shortens lines the benchmarks printed, so a
  figure here is always the one in the log.
* A log cut short (a part stopped at its time limit) still gives what it printed:
  scale falls back to its figure lines when the run never reached its closing table.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LOAD = re.compile(r"\s*\(load [0-9.]+(?: at start)?\)")


def scale(lines: list[str]) -> list[str]:
    """The side-by-side table bench_scale.py closes with, without the load notes."""
    start = next((i for i, text in enumerate(lines) if text.startswith("| figure |")), None)
    if start is None:
        return [text for text in lines if ": " in text and not text.startswith("==")]
    return [LOAD.sub("", text) for text in lines[start:] if text.startswith("|")]


LATENCY_HEADER = re.compile(r"^(\w+) on (\w+): ")
RATIO = re.compile(r"median ([0-9.]+) ms.*floor ([0-9.]+) ms, median/floor ([0-9.]+)")
AT_ONCE = re.compile(r"\(at once/board ([0-9.]+)\)")
LATENCY_ROWS = {
    "interaction -> callback": "deferral",
    "hand-off -> fully answered": "hand-off",
    "step (no public message)": "step",
}


def latency(lines: list[str]) -> list[str]:
    """One row a game and database: each median, its floor and their ratio."""
    out = [
        "| game | db | deferral ms (floor, x) | hand-off ms (floor, x) | step ms (floor, x) "
        "| images at once / board |",
        "|---|---|---|---|---|---|",
    ]
    row: dict[str, str] = {}

    def close() -> None:
        if row:
            cells = [row.get(k, "") for k in ("game", "db", "deferral", "hand-off", "step")]
            out.append("| " + " | ".join([*cells, row.get("images", "")]) + " |")
            row.clear()

    for text in lines:
        if header := LATENCY_HEADER.match(text):
            close()
            row.update(game=header[1], db=header[2])
        elif match := AT_ONCE.search(text):
            row["images"] = match[1]
        else:
            for prefix, key in LATENCY_ROWS.items():
                if text.startswith(prefix) and (ratio := RATIO.search(text)):
                    row[key] = f"{ratio[1]} ({ratio[2]}, {ratio[3]})"
    close()
    return out


def verbatim(lines: list[str]) -> list[str]:
    return [text for text in lines if text.strip() and not text.startswith("==")]


CPU = re.compile(r"^(.+): n=(\d+), the loop's CPU median ([0-9.]+) ms.*statements median (\d+)")


def profile(lines: list[str]) -> list[str]:
    """Each interaction's CPU of the loop and statements, under its part and database."""
    out: list[str] = []
    for text in lines:
        if text.startswith("== ") and " on " in text and "cores" not in text:
            out.append(text[3:])
        elif match := CPU.match(text):
            out.append(
                f"  {match[1]}: loop CPU {match[3]} ms, {match[4]} statements (n={match[2]})"
            )
    return out


def cluster(lines: list[str]) -> list[str]:
    """Each layout's closing lines (all its rounds, beside /help's rate), not each round's."""
    start = next((i for i, text in enumerate(lines) if " runs, 100 channels" in text), 0)
    return verbatim(lines[start:])


PICK = {"scale": scale, "latency": latency, "cluster": cluster, "store": verbatim}


def main() -> int:
    name, path = sys.argv[1], Path(sys.argv[2])
    if not path.exists():
        print(f"({path} is missing)")
        return 0
    lines = path.read_text(errors="replace").splitlines()
    print("\n".join(PICK.get(name, profile)(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
