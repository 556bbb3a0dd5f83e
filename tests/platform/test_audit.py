"""Audit of the service's secrecy rules, where the end-to-end tests cannot reach.

* What everyone sees after a move (its text, its buttons, the public view)
  must not change when only a hidden hand changes.
* Buttons come from the engine's ``public_choices`` hook alone.
* A late seat's timed-out move is announced by its public notation.
"""

from __future__ import annotations

import copy
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import games, plugins
from bot.games.base import GameEngine, GameType
from bot.games.tigris.actions import PlaceTile
from bot.i18n import Text, t
from bot.service import Choice, ChoiceKind, GameService, News, Outcome, Player, Refusal
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ORACLE
from tests.support import oracle

SUPPORT_PHASES = ("revolt_support", "war_support")
PLAYERS = [Player(301, "Ur"), Player(302, "Uruk"), Player(303, "Lagash")]


def rendered(lines: list[Text]) -> str:
    return "\n".join(line.render("en") for line in lines)


def public_face(outcome: Outcome) -> tuple[str, list[Text], list[Text], list[int]]:
    """Everything of an outcome that everyone sees, and the buttons the actor is offered."""
    return (
        rendered((outcome.news or News()).lines),
        [c.label for c in (outcome.news or News()).choices],
        [c.label for c in outcome.reply.choices],
        (outcome.news or News()).ping,
    )


async def set_state(store: Store, channel: int, engine: Any, state: Any) -> None:
    """Overwrite a running game's state (a new version, so no cache serves the old one)."""
    row = await store.latest_game_in(channel)
    assert row is not None
    with sqlite3.connect(store.path) as raw:
        raw.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            (json.dumps(engine.dump_state(state)), row.id),
        )


async def test_support_question_and_buttons_do_not_depend_on_the_hand(
    tmp_path: Path,
) -> None:
    """Two identical Tigris games differ only in how many tiles of the conflict's colour
    the deciding seat holds: the move that opens the conflict must look the same."""
    plugins.load_builtin_games()
    engine = games.REGISTRY["tigris"].engine
    store = await Store.open(tmp_path / "z.db")
    try:
        service = GameService(store, games.REGISTRY, render=False)
        channels = (CHANNEL, CHANNEL + 1)
        for channel in channels:
            await service.lobby.new_game(
                guild_id=GUILD,
                channel_id=channel,
                user=PLAYERS[0],
                game_type_name="tigris",
                options={"scoring": "hidden"},
                seed=8,
            )
            for player in PLAYERS[1:]:
                await service.lobby.join(channel, player)
            await service.lobby.start(channel, PLAYERS[0])
        by_id = {p.id: p for p in PLAYERS}
        rng = random.Random(1)
        found = None
        for _ in range(1500):
            row = await store.latest_game_in(channels[0])
            assert row is not None
            state = engine.load_state(row.state)
            [seat] = engine.waiting_for(state)
            legal = engine.legal_actions(state, seat)
            for action in legal:
                after = copy.deepcopy(state)
                engine.apply(after, seat, action)
                if after.phase in SUPPORT_PHASES:
                    found = (row, state, seat, action, after)
                    break
            if found:
                break
            action = rng.choice(legal)
            for channel in channels:
                await service.play.act(channel, by_id[row.seats[seat].user_id], str(action))
        assert found, "no move opened a conflict"
        row, state, actor, trigger, after = found
        [decider] = engine.waiting_for(after)
        colour = after.conflict.support_colour
        hand = list(state.players[decider].hand)
        keep = trigger.colour if isinstance(trigger, PlaceTile) and decider == actor else None
        variant = list(hand)
        spare = [i for i, c in enumerate(hand) if c != colour and c != keep]
        if spare:  # one more tile of the colour
            variant[spare[0]] = colour
        else:  # one fewer (it holds at least two, or only the kept tile is spare)
            variant[hand.index(colour)] = "blue" if colour != "blue" else "red"
        assert variant.count(colour) != hand.count(colour) and variant.count(colour) >= 1
        changed = copy.deepcopy(state)
        changed.players[decider].hand = variant
        await set_state(store, channels[1], engine, changed)

        user = by_id[row.seats[actor].user_id]
        outcomes = [await service.play.act(channel, user, str(trigger)) for channel in channels]
        views = []
        for channel in channels:
            current = await store.latest_game_in(channel)
            assert current is not None
            loaded = engine.load_state(current.state)
            assert loaded.phase in SUPPORT_PHASES and engine.waiting_for(loaded) == {decider}
            views.append(engine.public_view(loaded))
        assert views[0] == views[1]
        assert public_face(outcomes[0]) == public_face(outcomes[1])
        buttons = (outcomes[0].news or News()).choices or outcomes[0].reply.choices
        assert buttons, "support is a quick decision with buttons"
    finally:
        await store.close()


class _WithoutButtons(oracle.OracleEngine):
    """Oracle without its ``public_choices`` hook: the contract's default (none)."""

    def public_choices(self, state: oracle.OracleState, seat: int) -> list[Any]:
        return GameEngine.public_choices(self, state, seat)


async def _oracle_game(service: GameService, game: str, players: list[Player]) -> None:
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=players[0], game_type_name=game, seed=3
    )
    for player in players[1:]:
        await service.lobby.join(CHANNEL, player)
    await service.lobby.start(CHANNEL, players[0])


def acts(choices: list[Choice]) -> list[str]:
    """The moves among a message's buttons (not Play, Your options...)."""
    return [c.action for c in choices if c.kind is ChoiceKind.ACT]


async def test_buttons_come_only_from_public_choices(store: Store) -> None:
    registry = {
        "oracle": ORACLE,
        "bare": GameType(_WithoutButtons(), ORACLE.render_public),
    }
    service = GameService(store, registry, render=False)
    await _oracle_game(service, "oracle", [ALICE, BOB])
    first = await service.play.act(CHANNEL, ALICE, "play " + str((await _hand(store, ALICE))[0]))
    assert acts((first.news or News()).choices) == []  # cards are never public buttons...
    own = [c.action for c in first.reply.choices]  # ...only the owner's own, ephemeral ones
    assert own == [f"play {c}" for c in sorted(set(await _hand(store, ALICE)))]
    second = await service.play.act(CHANNEL, BOB, "play " + str((await _hand(store, BOB))[0]))
    assert acts((second.news or News()).choices) == ["claim", "gift"]  # the public decision
    await service.lobby.abandon(CHANNEL, ALICE, can_manage_channel=False, confirmed=True)

    await _oracle_game(service, "bare", [ALICE, BOB])
    for player in (ALICE, BOB):
        outcome = await service.play.act(
            CHANNEL, player, "play " + str((await _hand(store, player))[0])
        )
        assert (
            acts((outcome.news or News()).choices) == []
        )  # no hook: no buttons, even for claim/gift


async def _hand(store: Store, user: Player) -> list[int]:
    """A player's Oracle hand, from the stored state."""
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    seat = row.seat_of(user.id)
    assert seat is not None
    return oracle.ENGINE.private_view(oracle.ENGINE.load_state(row.state), seat.seat)["hand"]


async def test_a_timed_out_card_is_announced_face_down(store: Store) -> None:
    now = [1_000_000.0]
    service = GameService(store, {"oracle": ORACLE}, render=False, clock=lambda: now[0])
    await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=ALICE,
        game_type_name="oracle",
        options={"deadline": "1h"},
        seed=3,
    )
    for player in (BOB, CAROL):
        await service.lobby.join(CHANNEL, player)
    await service.lobby.start(CHANNEL, ALICE)
    await service.play.act(CHANNEL, ALICE, "play " + str((await _hand(store, ALICE))[0]))
    now[0] += 3601
    outcomes = await service.timers.fire_due_timers()
    assert len(outcomes) == 1  # the late seats, as one batch
    timed_out = [line for line in outcomes[0].news.lines if line.key == "move.timeout"]
    assert sorted(line.params["seat"] for line in timed_out) == ["Bob", "Carol"]
    # in words, the card kept hidden: the verb's label alone
    assert {line.params["action"].render("en") for line in timed_out} == {"Play a card"}
    text = rendered(outcomes[0].news.lines)
    assert t("en", "move.timeout", seat="Bob", action="Play a card") in text


@pytest.mark.parametrize("game_over", ["abandoned", "new lobby"])
async def test_a_button_of_an_earlier_game_is_stale(store: Store, game_over: str) -> None:
    service = GameService(store, {"oracle": ORACLE}, render=False)
    await _oracle_game(service, "oracle", [ALICE, BOB])
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    await service.lobby.abandon(CHANNEL, ALICE, can_manage_channel=False, confirmed=True)
    if game_over == "new lobby":
        await service.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user=BOB, game_type_name="oracle"
        )
    with pytest.raises(Refusal) as refused:
        await service.play.act(
            CHANNEL, ALICE, "play 1", expected_game=row.id, expected_version=row.version
        )
    assert refused.value.text.key == "error.stale_button"
