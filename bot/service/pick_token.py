"""The move picker's state as a short token: what a seat has chosen so far.

A pick in progress is the stamp of the position it was opened at, the verb,
the words of the parameters already chosen, in the verb's order, and the
group of values being looked into (a board column band, a range of numbers).
It travels in a Discord ``custom_id`` (at most 100 characters, shared with
the adapter's prefix), so it is written compactly:
``"<stamp>[u].<verb index>.<word>.<word>~<group>"``.

Decisions:

* The stamp says which position the menu was made for. In a game played in
  turns it is the game's stored version: any commit (a step, an undo, a
  timeout) makes the token stale. In a game of sealed rounds it is the
  seat's own stamp (``s`` and eight hex digits, :func:`seat_stamp`): the round
  and the actions the seat may take, so another seat's sealed move leaves an
  open picker valid and only a change to the seat's own choices makes it
  stale. Either way the service then answers with a fresh menu; the store's
  version check still guards every commit.
* A ``u`` after the stamp records that the menu offers Undo (the seat's last
  step can be taken back); it is only a hint for drawing the button: the
  undo itself is checked against the move log.
* The verb is its index in the engine's verb table (one or two digits).
* A word never holds ``.``, ``~`` or a space (squares, colours, counts,
  ``4:A1``, ``red-blue``): the items of a ``rest`` parameter are joined by
  ``,`` and an optional parameter left out is written ``_``.
* A token that does not read back is refused like a stale one; nothing in
  it is trusted: every choice is checked against the seat's legal actions.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.games.notation import VerbTable, ascii_int

#: the word of an optional parameter left out
NONE_WORD = "_"
#: joins the items of a ``rest`` parameter inside one word
ITEM_SEP = ","
SEP = "."
GROUP = "~"
#: the Undo hint after the stamp
UNDO_MARK = "u"
#: the longest token the picker ever writes (the adapter adds its own prefix)
MAX_TOKEN = 80
#: a stamp: a version (ASCII digits, no leading zero) or a seat's stamp
STAMP = re.compile(r"(?:0|[1-9][0-9]{0,17})|s[0-9a-f]{8}")


class BadToken(ValueError):
    """A token that does not read back as a pick of this game."""


def seat_stamp(turn: object, choices: Iterable[str]) -> str:
    """A seat's stamp in a game of sealed rounds: the round (``turn``) and the seat's
    own choices (its actions' notations), hashed to ``s`` and eight hex digits."""
    digest = hashlib.sha256(repr(turn).encode())
    for choice in sorted(choices):
        digest.update(b"\0" + choice.encode())
    return "s" + digest.hexdigest()[:8]


@dataclass(frozen=True)
class Pending:
    """A pick in progress: the stamp it was opened at, the verb, the chosen words."""

    stamp: str
    verb: str | None = None
    values: tuple[str, ...] = ()
    group: str | None = None
    #: the menu offers Undo (a hint for drawing it)
    undo: bool = False

    def then(self, *words: str) -> Pending:
        """This pick with more words chosen (and no group)."""
        return replace(self, values=(*self.values, *words), group=None)

    def encode(self, table: VerbTable) -> str:
        parts = [self.stamp + (UNDO_MARK if self.undo else "")]
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
        head = parts[0]
        undo = head.endswith(UNDO_MARK)
        stamp = head[:-1] if undo else head
        if STAMP.fullmatch(stamp) is None:
            raise BadToken(token)
        verb = None
        if len(parts) > 1:
            try:
                verb = list(table.verbs)[ascii_int(parts[1])]
            except (ValueError, IndexError):
                raise BadToken(token) from None
        values = tuple(parts[2:])
        if verb is not None and len(values) > len(table[verb].params):
            raise BadToken(token)
        if any(not word for word in values) or (sep and not group):
            raise BadToken(token)
        return Pending(stamp, verb, values, group if sep else None, undo)
