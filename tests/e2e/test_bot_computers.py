"""Computer seats through the real discord.py client and the fake Discord: the host
seats them by tapping and by command, a member plays a whole game against them,
and every message the member sees agrees with the stored game.

The product games' computer players are not on this branch yet, so the game is
the Oracle test game with its test brain (:mod:`tests.support.robots`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameType
from tests.conftest import ORACLE
from tests.support import robots

from . import bot_harness
from .bot_harness import open_harness
from .fake_discord import FakeDiscord


@pytest.fixture
def with_robots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's games, plus the Oracle with a computer player (for this bot only)."""
    plain = bot_harness.registry

    def registry() -> dict[str, Any]:
        robot = GameType(engine=robots.ORACLE, render_public=ORACLE.render_public)
        return {**plain(), robots.ORACLE.name: robot}

    monkeypatch.setattr(bot_harness, "registry", registry)


async def test_a_member_plays_a_game_against_computer_players(
    fake_discord: FakeDiscord, tmp_path: Path, with_robots: None
) -> None:
    async with open_harness(fake_discord, tmp_path) as h:
        created = await h.slash(h.alice, "game new robot_oracle")
        [lobby] = h.public_of(created)
        [menu_id] = [c for c in lobby.custom_ids() if c.endswith(":computer")]
        menu = await h.click(h.alice, lobby, menu_id)
        assert not menu.rejected
        offered = h.fake.visible_to(h.alice)[-1]
        [easy] = [c for c in offered.custom_ids() if c.endswith(":easy")]
        refused = await h.click(h.bob, lobby, menu_id)  # only the host seats one
        assert "Only the host" in h.ephemeral_text(refused)
        await h.click(h.alice, offered, easy)
        added = await h.slash(h.alice, "game add-computer", level="strong")
        assert "CPU 2 (strong)" in h.ephemeral_text(added)
        assert h.store is not None
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None
        assert [s.computer for s in row.seats] == [None, "easy", "strong"]
        await h.slash(h.alice, "game start")

        rng = random.Random(3)
        for _ in range(200):
            await h.running.timers.sync()
            row = await h.store.latest_game_in(h.channel.id)
            assert row is not None
            if row.status != "running":
                break
            legal = await h.legal(h.alice)
            if legal:
                itx = await h.slash(h.alice, "play", action=rng.choice(legal))
                assert not itx.rejected
        assert row.status == "finished"
        seen = [m.text for m in h.fake.visible_to(h.alice)]
        [final] = [text for text in seen if "The game is over" in text]
        for seat in row.seats:  # the final ranking is the stored one
            assert f"{seat.place}. {seat.display_name} — {seat.score}" in final, final
        everything = "\n".join(seen)
        assert "• CPU 1 (easy)" in everything and "• CPU 2 (strong)" in everything
        # the computers' moves were announced in the channel like anyone's
        rows = await h.store.moves(row.id)
        computer_lines = [m for m in rows if m.kind == "computer" and m.events]
        assert computer_lines
        # Alice is told of her own seat only: every DM she got is about her hand
        assert all("CPU" not in m.text for m in h.fake.dms_to(h.alice))


#: each product game with a member and computer players (easy: the test stays fast)
PRODUCT_GAMES = [
    ("tigris", {}, ("easy",)),
    ("tikal", {"mode": "mini"}, ("easy",)),
    ("temple", {}, ("easy", "easy")),
]


async def alice_plays(
    h: bot_harness.BotHarness, game: str, rng: random.Random, player: Any
) -> bool:
    """Alice plays one move if the game awaits her: random and legal (Temple Rush: the
    seeded player of the other tests, so rounds finish temples); whether she did."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    engine = h.running.service.registry[game].engine
    state = engine.load_state(row.state)
    (mine,) = [s.seat for s in row.seats if s.user_id == h.alice.id]
    if not engine.may_act(state, mine) or mine not in engine.waiting_for(state):
        return False
    if game == "temple":
        from bot.games.temple import Lightning, Skip

        action: Any = player.choose(state, mine)
        if state.phase == "race" and not isinstance(action, Lightning):
            action = Skip()
        notation = str(action)
    else:
        notation = rng.choice(await h.legal(h.alice))
    await bot_harness.move(h, h.alice, notation, prefer_buttons=False)
    return True


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "levels"), PRODUCT_GAMES)
async def test_a_member_plays_each_game_against_computer_players(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    game: str,
    options: dict[str, str],
    levels: tuple[str, ...],
) -> None:
    from bot import plugins
    from tests.support.temple_play import Player as TemplePlayer

    if plugins.load_builtin_games()[game].engine.computer() is None:
        pytest.skip(f"{game} has no computer player on this branch yet")
    async with open_harness(fake_discord, tmp_path) as h:
        assert h.store is not None
        created = await h.slash(h.alice, f"game new {game}", **options)
        assert not created.rejected
        for level in levels:
            added = await h.slash(h.alice, "game add-computer", level=level)
            assert "CPU" in h.ephemeral_text(added)
        await h.slash(h.alice, "game start")
        rng = random.Random(18)
        player = TemplePlayer(random.Random(18))
        for _ in range(3000):
            await h.running.timers.sync()
            row = await h.store.latest_game_in(h.channel.id)
            assert row is not None
            if row.status != "running":
                break
            await alice_plays(h, game, rng, player)
        assert row.status == "finished", "the game did not end"
        seen = [m.text for m in h.fake.visible_to(h.alice)]
        [final] = [text for text in seen if "The game is over" in text]
        for seat in row.seats:  # the final ranking is the stored one
            assert f"{seat.place}. {seat.display_name} — {seat.score}" in final, final
        for message in h.public_messages():  # only a member is ever pinged
            assert all(user.id == h.alice.id for user in message.mentions), message.text
        kinds = [m.kind for m in await h.store.moves(row.id)]
        assert "computer" in kinds and "move" in kinds
        assert not await h.store.timers(row.id)


async def test_the_host_hands_a_resigned_seat_to_a_computer_and_back(
    fake_discord: FakeDiscord, tmp_path: Path, with_robots: None
) -> None:
    """``/game replace old:@member computer:level`` seats a computer player in an
    absent or resigned seat; ``/game replace seat:N new:@member`` hands it back; a
    finished game with a computer seat is counted apart by ``/stats``."""
    from .test_bot_table import resign_button

    async with open_harness(fake_discord, tmp_path) as h:
        assert h.store is not None
        await h.slash(h.alice, "game new robot_oracle")
        await h.slash(h.bob, "game join")
        await h.slash(h.alice, "game start")
        raw = await h.raw_game()
        playing = await h.slash(h.alice, "game replace", old=h.bob, computer="easy")
        assert "still playing" in h.ephemeral_text(playing)
        assert await h.raw_game() == raw  # refused: nothing changed
        asked = await h.slash(h.bob, "game resign")
        confirm, custom_id = resign_button(asked)
        await h.click(h.bob, confirm, custom_id)
        raw = await h.raw_game()
        for user, options, refusal in [
            (h.bob, {"old": h.bob, "computer": "easy"}, "Only the game's creator"),
            (h.alice, {"old": h.bob, "new": h.mallory, "computer": "easy"}, "not both"),
        ]:
            refused = await h.slash(user, "game replace", **options)
            assert refusal in h.ephemeral_text(refused), h.ephemeral_text(refused)
            assert await h.raw_game() == raw
        handed = await h.slash(h.alice, "game replace", old=h.bob, computer="strong")
        [public] = h.public_of(handed)
        assert "• CPU 1 (strong)" in public.text.splitlines()[0]
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None
        [seat] = [s for s in row.seats if s.computer is not None]
        assert (seat.computer, seat.status, seat.user_id < 0) == ("strong", "playing", True)
        for _ in range(20):  # Alice plays until the computer has played the seat
            moves = await h.store.moves(row.id)
            if any(m.kind == "computer" for m in moves):
                break
            legal = await h.legal(h.alice)
            if legal:
                await h.slash(h.alice, "play", action=legal[0])
            await h.running.timers.sync()
        assert {m.seat for m in moves if m.kind == "computer"} == {seat.seat}
        back = await h.slash(h.alice, "game replace", seat=seat.seat + 1, new=h.mallory)
        assert not back.rejected, h.ephemeral_text(back)
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None
        assert (row.seats[seat.seat].user_id, row.seats[seat.seat].computer) == (
            h.mallory.id,
            None,
        )
        assert h.fake.dms_to(h.mallory)  # her hand, by DM

        # the table hands it to a computer again and Alice finishes the game
        asked = await h.slash(h.mallory, "game resign")
        confirm, custom_id = resign_button(asked)
        await h.click(h.mallory, confirm, custom_id)
        await h.slash(h.alice, "game replace", old=h.mallory, computer="easy")
        rng = random.Random(5)
        for _ in range(200):
            await h.running.timers.sync()
            row = await h.store.latest_game_in(h.channel.id)
            assert row is not None
            if row.status != "running":
                break
            legal = await h.legal(h.alice)
            if legal:
                await h.slash(h.alice, "play", action=rng.choice(legal))
        assert row.status == "finished"
        stats = h.ephemeral_text(await h.slash(h.alice, "stats"))
        assert "with computer players: 1 game finished" in stats, stats
        mine = h.ephemeral_text(await h.slash(h.alice, "stats", member=h.alice))
        assert "with computer players: 1 played" in mine, mine
