"""A seat's private news in words: its sealed move and the areas it may re-lay, from two
of its private views (:func:`~bot.games.temple.views.private_view`).

Decisions:

* Only what the seat alone knows counts (:func:`~bot.games.temple.views.own_part`):
  the rest of the view is on the public board. A sealed move is told with its
  parts; areas to re-lay (another player completed a card above the seat's
  build) are named. A reveal that clears the sealed move is public news, not
  private: no words.
* Without a view before, the view itself in words: the sealed move, if any, and
  the areas to re-lay (the move picker's opening).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.temple.views import own_part
from bot.i18n import Text, join_texts

News = list[tuple[str, Mapping[str, Any]]]


def private_news(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> News:
    """What changed from ``before`` to ``after`` (see the module docstring)."""
    mine = own_part(after)
    then = {} if before is None else own_part(before)
    news: News = []
    sealed = mine.get("submission") or {}
    if sealed.get("words") and sealed != (then.get("submission") or {}):
        key = "temple.news.sealed" if sealed.get("complete") else "temple.news.draft"
        news.append((key, {"move": Text.from_json(sealed["words"])}))
    pools = mine.get("relay_pools") or {}
    if pools and pools != then.get("relay_pools"):
        areas = join_texts([Text("temple.news.area", {"area": int(a) + 1}) for a in sorted(pools)])
        news.append(("temple.news.relay", {"areas": areas}))
    return news
