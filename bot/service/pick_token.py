"""The move picker's state as a short token: what a seat has chosen so far.

A pick in progress is the game's version, the verb and the words of the
parameters already chosen, in the verb's order, and the group of values
being looked into (a board column, a range of numbers). It travels in a
Discord ``custom_id`` (at most 100 characters, shared with the adapter's
prefix), so it is written compactly: ``"<version>.<verb index>.<word>.<word>~<group>"``.

Decisions:

* The version is the game row's version when the picker was opened: any
  commit to the game (a step, an undo, a timeout, another seat's sealed
  submission) makes the token stale, and the service refuses it and offers
  a fresh picker, as it refuses a stale button.
* The verb is its index in the engine's verb table (one or two digits).
  Every number in a token is read by :func:`~bot.games.notation.ascii_int`:
  ASCII digits only (``²``, ``①``, ``١`` are refused, not read).
* A word never holds ``.``, ``~`` or a space (squares, colours, counts,
  ``4:A1``, ``red-blue``): the items of a ``rest`` parameter are joined by
  ``,`` and an optional parameter left out is written ``_``.
* A token that does not read back is refused like a stale one; nothing in
  it is trusted: every choice is checked against the seat's legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.games.notation import VerbTable, ascii_int
from bot.store import INTEGER_DIGITS, MAX_INTEGER

#: the word of an optional parameter left out
NONE_WORD = "_"
#: joins the items of a ``rest`` parameter inside one word
ITEM_SEP = ","
SEP = "."
GROUP = "~"
#: the longest token the picker ever writes (the adapter adds its own prefix)
MAX_TOKEN = 80


class BadToken(ValueError):
    """A token that does not read back as a pick of this game."""


@dataclass(frozen=True)
class Pending:
    """A pick in progress: the version it was opened at, the verb, the chosen words."""

    version: int
    verb: str | None = None
    values: tuple[str, ...] = ()
    group: str | None = None

    def then(self, *words: str) -> Pending:
        """This pick with more words chosen (and no group)."""
        return replace(self, values=(*self.values, *words), group=None)

    def encode(self, table: VerbTable) -> str:
        parts = [str(self.version)]
        if self.verb is not None:
            parts.append(str(list(table.verbs).index(self.verb)))
            parts.extend(self.values)
        token = SEP.join(parts)
        if self.group is not None:
            token += GROUP + self.group
        return token

    @staticmethod
    def decode(token: str, table: VerbTable) -> Pending:
        if not isinstance(token, str) or len(token) > MAX_TOKEN:
            raise BadToken(str(token)[:MAX_TOKEN])
        body, sep, group = token.partition(GROUP)
        parts = body.split(SEP)
        verbs = list(table.verbs)
        try:
            version = ascii_int(parts[0], 0, MAX_INTEGER, digits=INTEGER_DIGITS)
            verb = verbs[ascii_int(parts[1], 0, len(verbs) - 1)] if len(parts) > 1 else None
        except (ValueError, IndexError):
            raise BadToken(token) from None
        values = tuple(parts[2:])
        if verb is not None and len(values) > len(table[verb].params):
            raise BadToken(token)
        if any(not word for word in values) or (sep and not group):
            raise BadToken(token)
        return Pending(version, verb, values, group if sep else None)
