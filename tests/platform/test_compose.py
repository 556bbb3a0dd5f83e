"""``compose.yaml``: PostgreSQL and two bot processes that split the shards between them.

``docker compose config`` checks the file where Docker Compose is installed;
everywhere the file is read as YAML and its services and settings are checked
with the bot's own parsers (:func:`bot.config.parse_shards`,
:func:`bot.config.parse_shard_ids`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import parse_shard_ids, parse_shards

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"


def services() -> dict[str, Any]:
    document = yaml.safe_load(COMPOSE.read_text("utf-8"))
    assert isinstance(document, dict)
    found = document["services"]
    assert isinstance(found, dict)
    return found


def test_postgres_and_two_bots_that_split_every_shard_once() -> None:
    found = services()
    bots = {name: s for name, s in found.items() if name.startswith("bot")}
    assert set(found) == {"postgres", *bots} and len(bots) == 2
    postgres = found["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "healthcheck" in postgres and postgres["volumes"]
    owners: dict[int, str] = {}
    for name, bot in bots.items():
        assert bot["build"] == "."  # the Dockerfile beside compose.yaml
        assert (ROOT / "Dockerfile").is_file()
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        env = {k: str(v) for k, v in bot["environment"].items()}
        total = parse_shards(env["ZIGGURAT_SHARDS"])
        assert total == 2
        shards = parse_shard_ids(env["ZIGGURAT_SHARD_IDS"], total)
        assert shards is not None
        for shard in shards.ids:
            assert shard not in owners, f"shard {shard} in {owners[shard]} and {name}"
            owners[shard] = name
        url = urlsplit(env["ZIGGURAT_DB"])
        assert url.scheme == "postgresql" and url.hostname == "postgres"
        assert url.username == postgres["environment"]["POSTGRES_USER"]
        assert url.path == "/" + postgres["environment"]["POSTGRES_DB"]
    assert sorted(owners) == [0, 1]  # every shard run by exactly one process


@pytest.mark.skipif(
    shutil.which("docker") is None
    or subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0,
    reason="Docker Compose is not installed",
)
def test_docker_compose_accepts_it(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=x\n")
    result = subprocess.run(
        ["docker", "compose", "-f", str(COMPOSE), "--env-file", str(env), "config", "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
