"""Read one key family straight from the catalog files, without the loader's merging.

Each file ``locales/<lang>/<first segment>.json`` holds every key that starts with
its name (``cmd.tikal.move`` lives in ``cmd.json``), so a family such as
``cmd.tikal`` is the keys of ``cmd.json`` under that prefix. Reading the files, not
:func:`bot.i18n.catalog`, keeps a missing translation from hiding behind the
English fallback.
"""

from __future__ import annotations

import json

from bot.i18n import LOCALES_DIR


def family(lang: str, *prefixes: str) -> dict[str, str]:
    """``{key: text}`` of ``lang``'s keys under any of ``prefixes`` (``"cmd.tikal"``)."""
    found: dict[str, str] = {}
    for prefix in prefixes:
        path = LOCALES_DIR / lang / f"{prefix.split('.')[0]}.json"
        entries: dict[str, str] = json.loads(path.read_text("utf-8"))
        found |= {k: v for k, v in entries.items() if k.startswith(f"{prefix}.")}
    return found
