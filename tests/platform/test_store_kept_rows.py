"""The kept games' own bookkeeping (:class:`bot.store.kept.KeptGames`), no database: a
row is kept only when no other write of its game (for a read: of any game) started while
it was under way, and a channel keeps one game."""

from __future__ import annotations

from bot.store import GameRow
from bot.store.kept import KeptGames
from tests.conftest import CHANNEL


def _row(version: int, game_id: int = 1, channel: int = CHANNEL) -> GameRow:
    return GameRow(
        id=game_id,
        guild_id=1,
        channel_id=channel,
        game_type="oracle",
        status="running",
        creator_id=10,
        options={},
        seed=5,
        state={"n": version},
        version=version,
        created_at=0.0,
        updated_at=0.0,
        waiting_since=None,
        seats=(),
    )


def test_a_row_is_not_kept_when_another_write_of_its_game_started_meanwhile() -> None:
    kept = KeptGames(4)
    # a step in flight, then another write of the game (an admin's pause) starts and ends
    step = kept.writing(1)
    kept.touched(1)
    kept.written(1, step, _row(2))
    assert kept.in_channel(CHANNEL) is None  # the step's row may be older than the pause
    # a read under way while a write of any game starts keeps nothing
    ticket = kept.reading()
    kept.touched(99)
    kept.read(_row(3), ticket)
    assert kept.in_channel(CHANNEL) is None
    # alone, each keeps its row; a write drops it
    kept.written(1, kept.writing(1), _row(4))
    assert kept.in_channel(CHANNEL) == _row(4)
    kept.read(_row(5), kept.reading())
    assert kept.in_channel(CHANNEL) == _row(5)
    kept.touched(1)
    assert kept.in_channel(CHANNEL) is None
    # another game in the channel replaces the one kept for it
    kept.read(_row(1, game_id=2), kept.reading())
    kept.read(_row(1, game_id=3), kept.reading())
    assert kept.in_channel(CHANNEL) == _row(1, game_id=3) and len(kept) == 1
