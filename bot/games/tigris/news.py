"""A seat's private news in words: what changed in its hand, points, treasures and
catastrophes between two of its private views (:func:`~bot.games.tigris.views.private_view`).

Decisions:

* The words come from the views alone, so a DM can say what changed since its
  seat was last told, over any number of steps (a run of computer turns).
* A changed hand says which tiles came and went, then the whole hand; changed
  points say the points gained and every colour's count; a treasure or a
  catastrophe tile used or won says how many are held now. Nothing changed:
  no words.
* Without a view before, the view itself in words: the hand, the points, the
  treasures and the catastrophe tiles (the move picker's opening).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.games.tigris.components import COLOURS
from bot.i18n import Text, join_texts

News = list[tuple[str, Mapping[str, Any]]]


def tiles(counts: Mapping[str, int]) -> Text:
    """``2 red, 1 blue``: the colours held, in the game's colour order."""
    return join_texts(
        [
            Text("tigris.news.tiles_of", {"count": counts[c], "colour": Text(f"tigris.colour.{c}")})
            for c in COLOURS
            if counts.get(c)
        ]
    )


def _counted(hand: Iterable[Any]) -> dict[str, int]:
    """How many tiles of each colour ``hand`` holds (colours held only)."""
    counts: dict[str, int] = {}
    for tile in hand:
        colour = str(tile)
        counts[colour] = counts.get(colour, 0) + 1
    return counts


def _points(view: Mapping[str, Any]) -> dict[str, int]:
    """Every colour's points in ``view``."""
    held = view.get("points", {})
    return {c: int(held.get(c, 0)) for c in COLOURS}


def _beyond(counts: Mapping[str, int], other: Mapping[str, int]) -> dict[str, int]:
    """The tiles ``counts`` holds beyond ``other`` (colours with more only)."""
    return {c: n - other.get(c, 0) for c, n in counts.items() if n > other.get(c, 0)}


def points(values: Mapping[str, int], *, signed: bool = False) -> Text:
    """``red 3, blue 0, …`` (every colour), or ``+1 red`` for the colours gained."""
    key = "tigris.news.points_gained" if signed else "tigris.news.points_of"
    return join_texts(
        [
            Text(key, {"count": values[c], "colour": Text(f"tigris.colour.{c}")})
            for c in COLOURS
            if values.get(c) or not signed
        ]
    )


def private_news(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> News:
    """What changed from ``before`` to ``after`` (see the module docstring)."""
    news: News = []
    held = _counted(after.get("hand", ()))
    had = None if before is None else _counted(before.get("hand", ()))
    if had is None or had != held:
        if had is not None:
            gained, lost = _beyond(held, had), _beyond(had, held)
            if gained:
                news.append(("tigris.news.gained", {"tiles": tiles(gained)}))
            if lost:
                news.append(("tigris.news.lost", {"tiles": tiles(lost)}))
        news.append(("tigris.news.hand", {"count": sum(held.values()), "tiles": tiles(held)}))
    now = _points(after)
    then = None if before is None else _points(before)
    if then is None or then != now:
        if then is not None:
            gained = {c: now[c] - then[c] for c in COLOURS}
            if any(gained.values()):
                news.append(("tigris.news.scored", {"points": points(gained, signed=True)}))
        news.append(("tigris.news.points", {"points": points(now)}))
    for part in ("treasures", "catastrophes"):
        count = int(after.get(part, 0))
        if before is None or int(before.get(part, 0)) != count:
            news.append((f"tigris.news.{part}", {"count": count}))
    return news
