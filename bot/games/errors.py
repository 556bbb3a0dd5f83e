"""What every layer of the games shares and nothing in it builds on: a seat's number and the
refusal of an action the rules forbid.

Decisions: these live below :mod:`bot.games.base`, :mod:`bot.games.notation` and
:mod:`bot.games.computer` so that none of those imports another to refuse a step; ``base``
re-exports both names for the engines.
"""

from __future__ import annotations

from typing import Any

#: a seat at the table, numbered from 0
Seat = int


class RuleError(Exception):
    """An action the rules forbid. ``key`` is an i18n catalog key.

    ``params`` fill the catalog string. A param named ``seat`` or ending in
    ``_seat`` holding an int is shown as that seat's player name.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, {self.params!r})"
