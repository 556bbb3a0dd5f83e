"""What the wheel installs: ``bot`` and ``renderer`` at the top level, nothing else.

The product card fixes the two directories' names (docs/design.md, "Decisions"), so
the guard is that no other top-level package (``tests``, ``scripts``) ever reaches
site-packages: the packages setuptools finds with pyproject's own settings are those
two and their subpackages. The Docker image installs the same wheel.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_installs_only_bot_and_renderer_at_the_top_level() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    found = settings["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(where=str(ROOT), include=found["include"])
    assert {name.split(".")[0] for name in packages} == {"bot", "renderer"}
    assert {"bot.games.tikal", "bot.discord.cogs", "bot.i18n"} <= set(packages)
    # without the include, the repository's other folders would be packages too
    assert "tests" in find_packages(where=str(ROOT))


def test_the_image_copies_only_the_two_packages_into_its_build() -> None:
    copied = [
        line.split()[1]
        for line in (ROOT / "Dockerfile").read_text("utf-8").splitlines()
        if line.startswith("COPY ")
    ]
    assert copied == ["pyproject.toml", "README.md", "bot", "renderer"]
