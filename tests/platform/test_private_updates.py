"""A seat is sent its private view only when what it alone sees changed, and a
private message never contradicts the image it comes with."""

from __future__ import annotations

import json
import random
from pathlib import Path

from bot import games, plugins
from bot.service import GameService, News, Player, announce
from bot.service.outcome import StepKind
from bot.store import Store
from tests.conftest import BOTH_BACKENDS

ANN, BO = Player(4101, "Ann"), Player(4102, "Bo")
CHANNEL, GUILD = 7101, 9001


class Clock:
    now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


CLOCK = Clock()


async def _temple(tmp_path: Path) -> tuple[GameService, Store]:
    plugins.load_builtin_games()
    store = await Store.open(tmp_path / "temple.db")
    service = GameService(store, games.REGISTRY, clock=CLOCK, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ANN, game_type_name="temple", seed=3
    )
    await service.lobby.join(CHANNEL, BO)
    await service.lobby.start(CHANNEL, ANN)
    return service, store


async def _first_place(service: GameService, player: Player) -> str:
    actions = await service.reading.legal_actions(CHANNEL, player)
    return next(str(a) for a in actions if str(a).startswith("place"))


async def test_a_reveal_sends_no_private_image_when_nothing_private_changed(
    tmp_path: Path,
) -> None:
    service, store = await _temple(tmp_path)
    try:
        sealed = await service.play.act(CHANNEL, ANN, await _first_place(service, ANN))
        assert sealed.private == []  # Ann's own preview is her answer; Bo's view is unchanged
        revealed = await service.play.act(CHANNEL, BO, "pass")
        assert revealed.has_public
        # Ann's sealed move was revealed to everyone and Bo passed: nothing private is new
        assert revealed.private == []
        texts = [line.render("en") for line in revealed.reply.lines]
        assert not any("change it until" in text for text in texts)  # round 1 is over
    finally:
        await store.close()


async def test_a_timed_out_seat_is_not_told_it_may_change_a_revealed_move(
    tmp_path: Path,
) -> None:
    service, store = await _temple(tmp_path)
    try:
        await service.play.act(CHANNEL, ANN, await _first_place(service, ANN))
        row = await store.latest_game_in(CHANNEL)
        assert row is not None
        timers = [t for t in await store.timers(row.id) if t.kind == "deadline"]
        CLOCK.now = max(t.due_at for t in timers) + 1
        fired = await service.timers.fire_due_timers()
        lines = [line.render("en") for outcome in fired for line in (outcome.news or News()).lines]
        assert any("ran out of time" in line for line in lines)
        assert "Ann sealed a move." in lines  # her own step, pending until the hand-off
        assert "Bo sealed a move." not in lines  # the timeout line says what Bo did
        for outcome in fired:
            for message in outcome.private:
                assert not any("change it" in line.render("en") for line in message.lines)
    finally:
        await store.close()


def test_the_default_sends_any_change_and_temple_only_its_secrets() -> None:
    plugins.load_builtin_games()
    tigris = games.REGISTRY["tigris"].engine
    assert tigris.private_view_changed({"hand": ["red"]}, {"hand": ["blue"]})
    assert not tigris.private_view_changed({"hand": ["red"]}, {"hand": ["red"]})
    temple = games.REGISTRY["temple"].engine
    state = temple.new_game(2, {}, 3)
    before = temple.private_view(state, 0)
    after = dict(before, round=before["round"] + 1, die="star")
    assert not temple.private_view_changed(before, after)  # the round and dice are public
    sealed = dict(after, submission={"parts": ["place 1 A1 4"], "complete": True})
    assert temple.private_view_changed(before, sealed)
    passed = dict(after, submission={"parts": ["pass"], "complete": True})
    assert not temple.private_view_changed(before, passed)  # a pass previews nothing


@BOTH_BACKENDS
async def test_each_hand_off_tells_every_member_what_changed_since_they_were_told(
    store: Store,
) -> None:
    """Random Tigris play on both databases: after each hand-off, the views stored as
    told are every seat's view of the state stored, and its private messages are
    exactly the seats whose view changed since they were last told, in those words."""
    plugins.load_builtin_games()
    service = GameService(store, games.REGISTRY, clock=CLOCK, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ANN, game_type_name="tigris", seed=8
    )
    await service.lobby.join(CHANNEL, BO)
    await service.lobby.start(CHANNEL, ANN)
    engine = games.REGISTRY["tigris"].engine
    players = {ANN.id: ANN, BO.id: BO}
    rng = random.Random(8)
    hand_offs = 0
    for _ in range(40):
        game = await service.ctx.running(CHANNEL)
        told = game.row.told_views()
        assert told is not None
        seat = min(game.waiting())
        player = players[game.row.seats[seat].user_id]
        action = rng.choice(await service.reading.legal_actions(CHANNEL, player))
        outcome = await service.play.act(CHANNEL, player, str(action))
        if outcome.kind is StepKind.CONTINUE or outcome.news is None or outcome.news.interim:
            continue  # told nothing privately: the next hand-off message will
        hand_offs += 1
        after = await service.ctx.running(CHANNEL)
        views = {s.seat: engine.private_view(after.state, s.seat) for s in after.row.seats}
        assert after.row.told_views() == {s: json.loads(json.dumps(v)) for s, v in views.items()}
        expected = {
            after.row.seats[s].user_id: [
                line.render("en") for line in announce.news(after, told[s], views[s])
            ]
            for s in views
            if engine.private_view_changed(told[s], views[s])
        }
        said = {m.user_id: [line.render("en") for line in m.lines[1:]] for m in outcome.private}
        assert said == expected
    assert hand_offs >= 10
