"""A write, written once: a plan yields its statements, an executor runs them.

A unit of work (one command's writes, one transaction) is a *plan*: a
generator that yields :class:`Op` s — a statement of :mod:`bot.store.sql` and
its named parameters — and is sent each one's result back (:func:`count`: the
rows it changed; :func:`rows`: the rows it returned; :func:`many`: nothing).
What the generator returns is the unit's result. The same plan runs on both
databases: the SQLite executor steps it synchronously on its writer thread
(a whole batch of units in one trip), the PostgreSQL executor with ``await``
on a pooled connection.

Decisions:

* A unique index's refusal is thrown into the plan as :class:`Duplicate`
  (whatever the driver's own error), so each plan maps it to the store's own
  error (:class:`~bot.store.base.ChannelBusy`, …) once, for both databases.
* A plan computes its writes from its arguments and what its statements
  return, nothing else, and the executor asks for a new generator each time
  (:data:`PlanFactory`): SQLite's group commit may run a unit again after
  another unit of its batch failed.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from bot.store.base import StoreError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Op:
    """One statement of a plan: ``count`` (rows changed), ``rows`` (rows returned) or
    ``many`` (the statement once per parameter mapping in ``params``)."""

    kind: Literal["count", "rows", "many"]
    sql: str
    params: Any


#: a unit of work, written once (see the module docstring)
Plan = Generator[Op, Any, T]
#: a new generator of the plan each time it runs
PlanFactory = Callable[[], Plan[T]]


class Duplicate(StoreError):
    """A unique index refused a row (the driver's own error is the ``__cause__``)."""


def count(sql: str, **params: Any) -> Op:
    """Run ``sql``; the plan is sent the number of rows it changed."""
    return Op("count", sql, params)


def rows(sql: str, **params: Any) -> Op:
    """Run ``sql``; the plan is sent the rows it returned (readable by name and by index)."""
    return Op("rows", sql, params)


def many(sql: str, params: Iterable[Mapping[str, Any]]) -> Op:
    """Run ``sql`` once for each mapping of parameters (none: nothing runs)."""
    return Op("many", sql, list(params))


def duplicate(error: BaseException) -> Duplicate:
    """The :class:`Duplicate` to throw into a plan for a driver's unique violation."""
    found = Duplicate(str(error))
    found.__cause__ = error
    return found
