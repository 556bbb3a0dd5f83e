"""Slash-command descriptions and choice names from the message catalog.

Decisions:

* Every description and choice name is a :class:`~discord.app_commands.locale_str`
  made by :func:`L`: its message is the English catalog text and ``extras["key"]``
  the catalog key, so English comes from the catalog too.
* :class:`CatalogTranslator` answers a Discord locale only when that language's own
  catalog has the key (``None`` otherwise, so Discord shows English) — a missing
  translation never ships an English string labelled as Chinese.
* Command and option *names* are not translated: ``/game new`` must read the same
  in every language because the help texts and other players refer to it.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LANG, catalog, language_of, t

#: Discord's limit for descriptions and choice names
MAX_DESCRIPTION = 100


def L(key: str, **params: object) -> app_commands.locale_str:
    """A translatable command string: English from the catalog, the key in extras."""
    return app_commands.locale_str(_fit(t(DEFAULT_LANG, key, **params)), key=key, params=params)


def _fit(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


class CatalogTranslator(app_commands.Translator):
    """Translate :func:`L` strings into the catalog languages other than English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        lang = language_of(locale.value)
        if lang == DEFAULT_LANG or key not in catalog(lang):
            return None
        return _fit(t(lang, key, **string.extras.get("params", {})))
