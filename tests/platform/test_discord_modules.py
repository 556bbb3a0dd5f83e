"""The Discord adapter's modules: each listed in the package docstring, in an order
that its run-time imports follow, so ``bot.discord`` has no import circle.

Type-only imports (under ``TYPE_CHECKING``) are left out; imports inside
functions count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bot.discord

PACKAGE = Path(bot.discord.__file__).parent


def listed() -> list[str]:
    """The modules the package docstring lists, top first."""
    return re.findall(r"^\* :mod:`~bot\.discord\.(\w+)`", bot.discord.__doc__ or "", re.M)


def module_of(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def runtime_imports(path: Path) -> set[str]:
    """The ``bot.discord`` modules (first level) that ``path`` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            type_only |= {id(inner) for inner in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only or not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        parts = node.module.split(".")
        if parts[:2] != ["bot", "discord"]:
            continue
        if len(parts) > 2:
            found.add(parts[2])
        else:  # from bot.discord import x
            found |= {alias.name for alias in node.names}
    return found


def test_every_module_is_listed_once_in_the_package_docstring() -> None:
    modules = {module_of(p) for p in PACKAGE.rglob("*.py")} - {"__init__"}
    names = listed()
    assert len(names) == len(set(names)), names
    assert set(names) == modules


def test_run_time_imports_only_go_down_the_listed_order() -> None:
    order = {name: i for i, name in enumerate(listed())}
    upward = [
        (str(path.relative_to(PACKAGE)), target)
        for path in sorted(PACKAGE.rglob("*.py"))
        if module_of(path) != "__init__"
        for target in runtime_imports(path)
        if target != module_of(path) and order[target] <= order[module_of(path)]
    ]
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The control: a function-level import of a module listed above is found."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.discord.client import ZigguratBot\n"
        "def f():\n    from bot.discord.items import button_for\n"
    )
    assert runtime_imports(sample) == {"items"}
