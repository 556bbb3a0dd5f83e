"""A write, written once: a plan yields its statements, an executor runs them.

A unit of work (one command's writes, one transaction) is a *plan*: a
generator that yields :class:`Op` s — a statement of :mod:`bot.store.sql` and
its named parameters — and is sent each one's result back (:func:`count`: the
rows it changed; :func:`rows`: the rows it returned; :func:`run` and
:func:`many`: nothing). What the generator returns is the unit's result. The
same plan runs on both databases: the SQLite executor steps it synchronously
on its writer thread (a whole batch of units in one trip), the PostgreSQL
executor with ``await`` on a pooled connection, or — when the plan reads no
result but expected counts (:func:`speculate`) — as one script in one round
trip.

Decisions:

* A unique index's refusal is thrown into the plan as :class:`Duplicate`
  (whatever the driver's own error), so each plan maps it to the store's own
  error (:class:`~bot.store.base.ChannelBusy`, …) once, for both databases.
* A plan computes its writes from its arguments and what its statements
  return, nothing else, and the executor asks for a new generator each time
  (:data:`PlanFactory`): SQLite's group commit may run a unit again after
  another unit of its batch failed.
* A plan says what it reads: a statement whose result it ignores is a
  :func:`run`, and a count it only compares with a number (a version check:
  one row) is ``count(...).expecting(1)``. A plan made of nothing else can be
  stepped ahead of the database (:func:`speculate`: each op sent what it
  expects) and its statements sent at once, the database checking the
  expected counts; any difference, or any error, and the plan runs again
  statement by statement, where it meets what really happened.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from bot.store.base import StoreError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Op:
    """One statement of a plan: ``count`` (rows changed), ``rows`` (rows returned),
    ``run`` (nothing read) or ``many`` (the statement once per parameter mapping in
    ``params``). ``expect``: the only count the plan goes on with (see
    :meth:`expecting`)."""

    kind: Literal["count", "rows", "run", "many"]
    sql: str
    params: Any
    expect: int | None = None

    def expecting(self, changed: int) -> Op:
        """This count, read only to be compared with ``changed`` (the plan raises on
        any other): an executor may run it without waiting for it, checking the
        count in the database."""
        if self.kind != "count":
            raise ValueError(f"only a count can be expected, not {self.kind}")
        return replace(self, expect=changed)

    @property
    def ahead(self) -> bool:
        """Whether a plan can be stepped past this op before it runs (:func:`speculate`)."""
        return self.kind in ("run", "many") or self.expect is not None


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


def run(sql: str, **params: Any) -> Op:
    """Run ``sql``; the plan is sent nothing (it does not read what the statement did)."""
    return Op("run", sql, params)


def many(sql: str, params: Iterable[Mapping[str, Any]]) -> Op:
    """Run ``sql`` once for each mapping of parameters (none: nothing runs)."""
    return Op("many", sql, list(params))


def duplicate(error: BaseException) -> Duplicate:
    """The :class:`Duplicate` to throw into a plan for a driver's unique violation."""
    found = Duplicate(str(error))
    found.__cause__ = error
    return found


def speculate(plan: PlanFactory[T]) -> tuple[list[Op], T] | None:
    """Every op of a new generator of ``plan`` and its result, stepped ahead of the
    database: each op sent what the plan expects of it (nothing, or its expected
    count). None when an op's result must be read first (a plain count, rows) or
    the plan raised: it then runs statement by statement."""
    steps = plan()
    ops: list[Op] = []
    try:
        op = next(steps)
        while op.ahead:
            ops.append(op)
            op = steps.send(op.expect)
    except StopIteration as done:
        value: T = done.value
        return ops, value
    except Exception:
        return None
    steps.close()
    return None
