"""The stored JSON's text: one canonical form, written and read with orjson.

Every JSON value the store keeps (a game's state, its options, the told views,
a move's events, a timer's or a message's payload, the paused timers) is
written by :func:`dumps` and read by :func:`loads`; the store calls nothing
else (:func:`bot.store.base.dumps` is this one).

Decisions:

* **The canonical text is the one the store always wrote**:
  ``json.dumps(value, separators=(",", ":"), sort_keys=True,
  ensure_ascii=False)``, byte for byte. orjson with ``OPT_SORT_KEYS`` writes
  that text for every value a game or the service stores (string keys,
  integers of 64 bits, strings with any character, lists and tuples, true,
  false and null; ``tests/platform/test_json_codec.py`` compares the two over
  every game's random play), about ten times faster. So the bytes stored do
  not change, and what compares or hashes stored text (both backends' values,
  ``migrate-db``'s byte-for-byte copy, the record's and the replay's
  comparisons, which re-encode both sides) sees the same text as before.
* **What orjson refuses is written as before**: a dict with a key that is not
  a string (the standard library sorts the keys, then writes them as strings;
  orjson would sort the strings, so ``10`` before ``9``), an integer beyond 64
  bits, a date or a dataclass (the standard library refuses them: so does
  this), a nesting deeper than orjson's 254 levels. The slow path writes
  :func:`json.dumps`'s text; an integer beyond 64 bits, which orjson would
  read back as a float, is refused with :class:`ValueError` rather than stored to come
  back changed (no stored value holds one: ids and seeds are 64-bit, as the
  columns are).
* Two differences stay, for values nothing stores (no state, event or payload
  holds a float): a float under 1e-4 is written ``0.00001`` rather than
  ``1e-05`` (the same number read back), and NaN or an infinity is written
  ``null`` (the standard library's ``NaN`` is not JSON: PostgreSQL's ``json``
  refuses it).
* **Old rows load unchanged**: orjson reads any JSON text (spaces,
  ``\\u00e9`` escapes, PostgreSQL's ``json_agg`` output); a text it refuses
  (the standard library's ``NaN``, ``Infinity``, a number past a double) is
  read by the standard library, so whatever was stored reads as it did.
  A text neither reads raises :class:`json.JSONDecodeError` (orjson's error
  is one).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: orjson's options: keys sorted; dates and dataclasses left to the slow path, which
#: refuses them as the standard library always did
#: the integers orjson reads back as integers
_MIN_READ = -(2**63)
_MAX_READ = 2**64 - 1
_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any) -> str:
    """The canonical JSON text of a stored value (see the module's decisions)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode("utf-8")
    except orjson.JSONEncodeError:
        return _standard_dumps(value)


def loads(text: str | bytes) -> Any:
    """The value of a stored JSON text, whichever code wrote it."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _standard_dumps(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    if _beyond_64_bits(value):
        raise ValueError("a stored JSON value holds an integer beyond 64 bits")
    return text


def _beyond_64_bits(value: Any) -> bool:
    """Whether ``value`` holds an integer (a key or a value) that orjson reads back as a
    float: past an unsigned 64-bit integer, or under a signed one."""
    if isinstance(value, int):
        return not _MIN_READ <= value <= _MAX_READ
    if isinstance(value, dict):
        return any(_beyond_64_bits(k) or _beyond_64_bits(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_beyond_64_bits(item) for item in value)
    return False
