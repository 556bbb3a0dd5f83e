"""A seat's private news in words (:mod:`bot.games.temple.news`): its sealed move, never
the public board, and nothing once the round is revealed."""

from __future__ import annotations

from temple_helpers import game

from bot.games.temple import ENGINE
from bot.games.temple.actions import Place
from bot.i18n import Text


def words(news: list[tuple[str, object]]) -> list[str]:
    return [Text(key, dict(params)).render("en") for key, params in news]  # type: ignore[call-overload]


def test_a_sealed_move_is_news_to_its_seat_and_a_reveal_is_not() -> None:
    state = game()
    fresh = ENGINE.private_view(state, 0)
    assert ENGINE.private_news(None, fresh) == []  # nothing sealed, nothing to re-lay
    place = next(a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Place))
    ENGINE.apply(state, 0, place)
    sealed = ENGINE.private_view(state, 0)
    [line] = words(ENGINE.private_news(fresh, sealed))
    assert line.startswith("Your sealed move: ") and "brick" in line, line
    assert words(ENGINE.private_news(None, sealed)) == [line]  # the picker opens with it
    assert ENGINE.private_news(sealed, ENGINE.private_view(state, 0)) == []
    # the other seat's move changes nothing of seat 0's own part
    other = ENGINE.legal_actions(state, 1)[0]
    ENGINE.apply(state, 1, other)
    revealed = ENGINE.private_view(state, 0)
    assert ENGINE.private_news(sealed, revealed) == []  # the reveal is told in public
