"""User text the service keeps: a player's display name, cleaned the same way everywhere.

Decisions:

* Control characters (Unicode category ``Cc``: the C0 set with NUL, DEL, the
  C1 set) and lone surrogates (``Cs``) are removed from a name before it is
  shown or stored: PostgreSQL's text cannot hold NUL (SQLite can), a lone
  surrogate is no UTF-8 at all, and no board draws either. Both backends
  therefore store exactly the same name. Format characters (``Cf``, such as
  the zero-width joiner inside an emoji) stay.
* Whitespace at either end is trimmed, and at most :data:`MAX_NAME`
  characters are kept (Discord's own names have at most 32).
* A name that is left empty is seated as the catalog's ``seat.unnamed`` in
  the game's language, with the last digits of the user's id, so the seat can
  still be told apart from the others.
* The service's gate (:func:`bot.service.context.admitted`) cleans the name of
  every :class:`~bot.service.outcome.Player` a command receives; the seating
  paths (a new lobby, a join, a replacement, a rematch) store
  :func:`seat_name`. ``python -m bot migrate-db`` cleans a name stored by an
  older version the same way (:func:`clean_name`).
"""

from __future__ import annotations

import unicodedata

from bot.i18n import t

#: the longest name kept (in characters)
MAX_NAME = 64
#: the Unicode categories removed from a name
REMOVED = frozenset({"Cc", "Cs"})


def clean_name(name: str) -> str:
    """``name`` without control characters or lone surrogates, trimmed, bounded."""
    kept = "".join(ch for ch in str(name) if unicodedata.category(ch) not in REMOVED)
    return kept.strip()[:MAX_NAME].strip()


def seat_name(name: str, user_id: int, language: str) -> str:
    """The name a seat is stored with: ``name`` cleaned, or the unnamed fallback."""
    cleaned = clean_name(name)
    if cleaned:
        return cleaned
    return t(language, "seat.unnamed", number=f"{abs(user_id) % 10_000:04d}")
