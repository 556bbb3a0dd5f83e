"""The two spellings of the store's SQL: each statement is written once, a dialect spells it.

The store's statements (:mod:`bot.store.sql`) and its migrations
(:mod:`bot.store.schema`) are written once, in the SQL SQLite and PostgreSQL
share, with **named parameters** (``:game_id``) and, where the two spell a
thing differently, a **macro** in braces that each dialect fills in:

==================  =========================================  =================================
written             SQLite                                     PostgreSQL
==================  =========================================  =================================
``:name``           ``?1``, ``?2``… in order of first use      ``$1``, ``$2``… likewise
``col {in:name}``   ``IN (SELECT value FROM json_each(?n))``   ``= ANY($n)``
``{least}(a, b)``   ``MIN(a, b)``                              ``LEAST(a, b)``
``{greatest}``      ``MAX``                                    ``GREATEST``
``{for_update}``    (nothing: one writer at a time)            ``FOR UPDATE``
``{skip_locked:t}`` (nothing)                                  ``FOR UPDATE OF t SKIP LOCKED``
``{seats_json}``    a game's seats as one JSON array text      the same, from ``json_agg``
``{newest_name}``   a seat's name in the ``MAX(g.id)`` row     ``array_agg`` ordered by game
``{serial_key}``    ``INTEGER PRIMARY KEY AUTOINCREMENT``      ``BIGINT GENERATED … IDENTITY …``
``{bigint}``        ``INTEGER``                                ``BIGINT`` (Discord's ids)
``{real}``          ``REAL``                                   ``DOUBLE PRECISION`` (seconds)
==================  =========================================  =================================

Decisions:

* Both databases run ``RETURNING``, ``ON CONFLICT … DO UPDATE/NOTHING`` and
  ``FILTER (WHERE …)`` as written, so those need no macro.
* Parameters are numbered on both (``?n`` is SQLite's own numbered style):
  a call's named parameters become one list in the statement's order, which
  both drivers bind faster than names (measured: sqlite3 binds a name about
  a quarter of a microsecond slower than a position).
* A list parameter (for ``{in:…}``) is sent as a list to PostgreSQL (an
  array) and as its JSON text to SQLite; every other value goes to the driver
  as it is (both store a ``bool`` in an integer column as 0 or 1).
* A statement is turned into a dialect's text once (a bounded cache keyed by
  the statement), so a call costs a dictionary lookup; the drivers' own
  prepared-statement caches then see one text per statement.
* Literal braces in a statement are doubled (``DEFAULT '{{}}'``), as in
  :meth:`str.format`, which fills the macros.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.base import dumps

#: a named parameter: ``:name``, not a ``::type`` cast
PARAMETER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
#: a list parameter, as a statement is written (``{in:name}``)
LIST_PARAMETER = re.compile(r"\{in:(\w+)\}")


class _Pattern:
    """A macro with an argument (``{in:user_ids}``): ``*`` in the pattern becomes it."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern

    def __format__(self, argument: str) -> str:
        return self.pattern.replace("*", argument)


_SQLITE_SEATS = (
    "(SELECT json_group_array(json_array(seat, user_id, display_name, colour, status,"
    " timeouts, auto, place, score, computer, secret))"
    " FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat))"
)
_POSTGRES_SEATS = (
    "COALESCE((SELECT json_agg(json_build_array(seat, user_id, display_name, colour, status,"
    " timeouts, auto, place, score, computer, secret) ORDER BY seat)"
    " FROM seats WHERE seats.game_id = games.id)::text, '[]')"
)

# a game's named deadlines as a JSON object of name -> due time, the time written out
# exactly (SQLite's JSON would round it to 15 digits; PostgreSQL's float8 text is the
# shortest exact one); NULL when it has none
_SQLITE_DEADLINES = (
    "(SELECT json_group_object(name, printf('%!.17g', due_at)) FROM timers"
    " WHERE timers.game_id = games.id AND timers.kind = 'deadline' HAVING COUNT(*) > 0)"
)
_POSTGRES_DEADLINES = (
    "(SELECT json_object_agg(name, due_at::text) FROM timers"
    " WHERE timers.game_id = games.id AND timers.kind = 'deadline')::text"
)

# the moves since the game's last public message (seq, seat, action, created_at, kind,
# events, checkpoint), when it has any, as one JSON array; its times written out exactly
_SQLITE_PENDING = (
    "CASE WHEN games.published_seq < games.last_seq THEN (SELECT json_group_array("
    "json_array(seq, seat, action, printf('%!.17g', created_at), kind, json(events),"
    " checkpoint)) FROM (SELECT * FROM moves WHERE moves.game_id = games.id"
    " AND moves.seq > games.published_seq ORDER BY seq)) END"
)
_POSTGRES_PENDING = (
    "CASE WHEN games.published_seq < games.last_seq THEN (SELECT json_agg(json_build_array("
    "seq, seat, action, created_at::text, kind, events::json, checkpoint) ORDER BY seq)"
    " FROM moves WHERE moves.game_id = games.id AND moves.seq > games.published_seq)::text END"
)

_MACROS: dict[str, dict[str, Any]] = {
    "sqlite": {
        "in": _Pattern("IN (SELECT value FROM json_each(:*))"),
        "least": "MIN",
        "greatest": "MAX",
        "for_update": "",
        "skip_locked": _Pattern(""),
        "seats_json": _SQLITE_SEATS,
        "deadlines_json": _SQLITE_DEADLINES,
        "pending_json": _SQLITE_PENDING,
        # SQLite takes a bare column's value from the row of the query's one MAX()
        "newest_name": "s.display_name",
        "serial_key": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "bigint": "INTEGER",
        "real": "REAL",
    },
    "postgres": {
        "in": _Pattern("= ANY(:*)"),
        "least": "LEAST",
        "greatest": "GREATEST",
        "for_update": " FOR UPDATE",
        "skip_locked": _Pattern(" FOR UPDATE OF * SKIP LOCKED"),
        "seats_json": _POSTGRES_SEATS,
        "deadlines_json": _POSTGRES_DEADLINES,
        "pending_json": _POSTGRES_PENDING,
        "newest_name": "(array_agg(s.display_name ORDER BY g.id DESC))[1]",
        "serial_key": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        "bigint": "BIGINT",
        "real": "DOUBLE PRECISION",
    },
}


@dataclass(frozen=True)
class Compiled:
    """A statement in one dialect: its text, the name of each numbered parameter in
    order, and which of them are lists."""

    text: str
    names: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()


class Dialect:
    """One database's spelling of the store's statements (:data:`SQLITE`, :data:`POSTGRES`)."""

    def __init__(self, name: str, *, mark: str) -> None:
        self.name = name
        #: what precedes a parameter's number: ``?`` (SQLite), ``$`` (PostgreSQL)
        self.mark = mark
        self._macros = _MACROS[name]
        self.compile = functools.lru_cache(maxsize=1024)(self._compile)

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def expand(self, statement: str) -> str:
        """The statement with its macros filled in (its parameters left as written)."""
        return statement.format_map(self._macros)

    def _compile(self, statement: str) -> Compiled:
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in names:
                names.append(name)
            return f"{self.mark}{names.index(name) + 1}"

        text = PARAMETER.sub(number, self.expand(statement))
        return Compiled(text, tuple(names), tuple(LIST_PARAMETER.findall(statement)))

    def bind(self, compiled: Compiled, params: Mapping[str, Any]) -> list[Any]:
        """A call's parameters, in the statement's order, as this dialect's driver takes them."""
        values = [params[name] for name in compiled.names]
        if compiled.lists and self.name == "sqlite":
            for name in compiled.lists:
                index = compiled.names.index(name)
                values[index] = dumps(list(values[index]))
        return values

    def bind_many(self, compiled: Compiled, rows: Sequence[Mapping[str, Any]]) -> list[Any]:
        return [self.bind(compiled, row) for row in rows]


SQLITE = Dialect("sqlite", mark="?")
POSTGRES = Dialect("postgres", mark="$")
