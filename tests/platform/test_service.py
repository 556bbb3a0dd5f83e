"""The service with the Oracle test game on a real SQLite store."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from bot import games
from bot.i18n import t
from bot.service import GameService, Outcome, Player, Refusal, help_lines
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL, DAVE, GUILD, MALLORY

ENGINE = games.REGISTRY["oracle"].engine


async def _lobby(service: GameService, *players: Player, **options: str) -> Outcome:
    outcome = await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=players[0],
        game_type_name="oracle",
        options=options,
        seed=42,
    )
    for player in players[1:]:
        await service.lobby.join(CHANNEL, player)
    return outcome


async def _started(service: GameService, *players: Player) -> Outcome:
    await _lobby(service, *players)
    return await service.lobby.start(CHANNEL, players[0])


def _refusal_key(excinfo: pytest.ExceptionInfo[Refusal]) -> str:
    return excinfo.value.text.key


async def _snapshot(store: Store) -> tuple:
    game = await store.latest_game_in(CHANNEL)
    assert game is not None
    return await store.raw_game(game.id)


@BOTH_BACKENDS
async def test_start_shows_seat_order_colours_and_pings_everyone(service: GameService) -> None:
    outcome = await _started(service, ALICE, BOB, CAROL)
    seat_lines = [line for line in outcome.news.lines if line.key == "lobby.seat_line"]
    assert len(seat_lines) == 3
    assert {line.params["player"] for line in seat_lines} == {"Alice", "Bob", "Carol"}
    colours = {line.params["colour"].render("en") for line in seat_lines}
    assert colours == {"amber", "purple", "teal"}  # words, not hex codes
    assert sorted(outcome.news.ping) == [ALICE.id, BOB.id, CAROL.id]  # simultaneous first round
    assert Image.open(io.BytesIO(outcome.news.board)).format == "PNG"
    # everyone receives their private hand at the start
    assert sorted(p.user_id for p in outcome.private) == [ALICE.id, BOB.id, CAROL.id]


async def _awaited(service: GameService) -> list[int]:
    """The user ids of the seats the channel's game waits for."""
    game = await service.store.latest_game_in(CHANNEL)
    return [
        game.seats[s].user_id for s in sorted(ENGINE.waiting_for(ENGINE.load_state(game.state)))
    ]


@BOTH_BACKENDS
async def test_full_game_reaches_a_ranking(service: GameService, store: Store) -> None:
    outcome = await _started(service, ALICE, BOB, CAROL)
    chooser = random.Random(3)
    people = {p.id: p for p in (ALICE, BOB, CAROL)}
    moves = 0
    while not outcome.finished:
        player = people[chooser.choice(await _awaited(service))]
        action = chooser.choice(await service.reading.legal_actions(CHANNEL, player))
        outcome = await service.play.act(CHANNEL, player, str(action))
        moves += 1
    assert moves == 3 * 4  # three rounds: three plays and a claim each
    assert outcome.news.ping == []
    assert outcome.news.lines[-1].key == "game.ranking_line"
    game = await store.latest_game_in(CHANNEL)
    assert game is not None and game.status == "finished"
    assert len(await store.moves(game.id)) == moves
    assert await store.timers(game.id) == []  # no reminder for a finished game
    status = await service.reading.status(CHANNEL)
    assert status.reply.lines[-1].key == "game.final_ranking"
    # the channel is free again
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=BOB, game_type_name="oracle"
    )


@BOTH_BACKENDS
async def test_hidden_card_is_not_announced_publicly(service: GameService) -> None:
    await _started(service, ALICE, BOB)
    hand = ENGINE.private_view(await _state(service), await _seat(service, ALICE))["hand"]
    outcome = await service.play.act(CHANNEL, ALICE, f"play {hand[0]}")
    assert outcome.news is None  # sealed
    assert any(line.key == "oracle.event.you_played" for line in outcome.reply.lines)
    assert all(p.user_id == ALICE.id for p in outcome.private)
    assert (await service.reading.log_lines(CHANNEL, 5)).reply.lines[
        0
    ].key == "log.empty"  # not yet public
    bob_hand = ENGINE.private_view(await _state(service), await _seat(service, BOB))["hand"]
    reveal = await service.play.act(CHANNEL, BOB, f"play {bob_hand[0]}")
    public_text = " ".join(t("en", line.key, **line.params) for line in reveal.news.lines)
    assert "Alice played a hidden card" in public_text
    assert f"play {hand[0]}" not in public_text
    # the round's last card is named by the reveal: its player's answer tells nothing more
    assert f":{bob_hand[0]}" in public_text
    assert reveal.reply.told
    assert not any(line.key == "oracle.event.you_played" for line in reveal.reply.lines)
    log = await service.reading.log_lines(CHANNEL, 5)
    # the cards stay hidden in the log: the verb's label alone
    assert [line.params["action"].render("en") for line in log.reply.lines[1:]] == [
        "Play a card"
    ] * 2


async def _state(service: GameService):
    game = await service.store.latest_game_in(CHANNEL)
    return ENGINE.load_state(game.state)


async def _seat(service: GameService, player: Player) -> int:
    game = await service.store.latest_game_in(CHANNEL)
    return game.seat_of(player.id).seat


@BOTH_BACKENDS
async def test_public_view_ignores_hidden_data(service: GameService) -> None:
    await _started(service, ALICE, BOB, CAROL)
    state = await _state(service)
    view = ENGINE.public_view(state)
    for seat in range(3):
        state.hands[seat] = [5, 5, 5][: len(state.hands[seat])]
    state.deck.reverse()
    assert ENGINE.public_view(state) == view
    state.played[0] = 4  # a hidden card on the table changes only "has played"
    assert ENGINE.public_view(state)["hand_sizes"] == view["hand_sizes"]


@pytest.mark.parametrize(
    "attempt, key",
    [
        (lambda s: s.play.act(CHANNEL, MALLORY, "play 1"), "error.not_in_game"),
        (lambda s: s.play.act(CHANNEL, ALICE, "dance"), "oracle.error.bad_notation"),
        (lambda s: s.play.act(CHANNEL, ALICE, "play 9"), "oracle.error.no_such_card"),
        (lambda s: s.play.act(CHANNEL, ALICE, "claim"), "oracle.error.nothing_to_choose"),
        (lambda s: s.play.act(CHANNEL + 1, ALICE, "play 1"), "error.no_game"),
        (lambda s: s.lobby.join(CHANNEL, DAVE), "error.already_started"),
        (lambda s: s.lobby.leave(CHANNEL, BOB), "error.leave_started"),
        (lambda s: s.lobby.start(CHANNEL, ALICE), "error.already_started"),
        (lambda s: s.reading.log_lines(CHANNEL, 0), "error.bad_count"),
        (
            lambda s: s.lobby.abandon(CHANNEL, MALLORY, can_manage_channel=False, confirmed=True),
            "error.abandon_not_allowed",
        ),
        (
            lambda s: s.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL, user=DAVE, game_type_name="oracle"
            ),
            "error.channel_busy",
        ),
        (
            lambda s: s.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL + 2, user=DAVE, game_type_name="chess"
            ),
            "error.unknown_game",
        ),
        (
            lambda s: s.lobby.new_game(
                guild_id=GUILD,
                channel_id=CHANNEL + 2,
                user=DAVE,
                game_type_name="oracle",
                options={"style": "loud"},
            ),
            "error.bad_option_value",
        ),
    ],
)
@BOTH_BACKENDS
async def test_bad_input_is_refused_and_changes_nothing(
    service: GameService, store: Store, attempt, key: str
) -> None:
    await _started(service, ALICE, BOB)
    before = await _snapshot(store)
    with pytest.raises(Refusal) as excinfo:
        await attempt(service)
    assert _refusal_key(excinfo) == key
    assert await _snapshot(store) == before
    assert await store.open_game_in(CHANNEL + 2) is None
    # every refusal reads as a sentence, not a key
    text = t("en", excinfo.value.text.key, **excinfo.value.text.params)
    assert text != key and "{" not in text


@BOTH_BACKENDS
async def test_out_of_turn_is_refused_with_whom_we_wait_for(
    service: GameService, store: Store
) -> None:
    await _started(service, ALICE, BOB)
    for player in (ALICE, BOB):  # both play; the winner must choose
        hand = ENGINE.private_view(await _state(service), await _seat(service, player))["hand"]
        await service.play.act(CHANNEL, player, f"play {hand[0]}")
    state = await _state(service)
    loser = BOB if state.chooser == await _seat(service, ALICE) else ALICE
    winner = ALICE if loser is BOB else BOB
    before = await _snapshot(store)
    with pytest.raises(Refusal) as excinfo:
        await service.play.act(CHANNEL, loser, "claim")
    assert _refusal_key(excinfo) == "error.not_your_turn"
    assert excinfo.value.text.params["players"] == winner.name
    assert await _snapshot(store) == before


@BOTH_BACKENDS
async def test_lobby_rules(service: GameService, store: Store) -> None:
    await _lobby(service, ALICE)
    with pytest.raises(Refusal) as excinfo:
        await service.lobby.start(CHANNEL, ALICE)
    assert _refusal_key(excinfo) == "error.not_enough_players"
    await service.lobby.join(CHANNEL, BOB)
    with pytest.raises(Refusal) as excinfo:
        await service.lobby.join(CHANNEL, BOB)
    assert _refusal_key(excinfo) == "error.already_joined"
    with pytest.raises(Refusal) as excinfo:
        await service.lobby.start(CHANNEL, BOB)
    assert _refusal_key(excinfo) == "error.only_creator_starts"
    with pytest.raises(Refusal) as excinfo:
        await service.lobby.leave(CHANNEL, ALICE)
    assert _refusal_key(excinfo) == "error.creator_cannot_leave"
    with pytest.raises(Refusal) as excinfo:
        await service.play.act(CHANNEL, ALICE, "play 1")
    assert _refusal_key(excinfo) == "error.not_started"
    await service.lobby.join(CHANNEL, CAROL)
    await service.lobby.join(CHANNEL, DAVE)
    with pytest.raises(Refusal) as excinfo:
        await service.lobby.join(CHANNEL, MALLORY)
    assert _refusal_key(excinfo) == "error.game_full"
    await service.lobby.leave(CHANNEL, CAROL)
    game = await store.open_game_in(CHANNEL)
    assert [s.display_name for s in game.seats] == ["Alice", "Bob", "Dave"]
    assert game.options == {"style": "plain", "deadline": "none", "absent": "3"}  # defaults


@BOTH_BACKENDS
async def test_abandon_asks_first_and_allows_channel_managers(
    service: GameService, store: Store
) -> None:
    await _started(service, ALICE, BOB)
    ask = await service.lobby.abandon(CHANNEL, MALLORY, can_manage_channel=True, confirmed=False)
    assert ask.reply.lines[0].key == "lobby.abandon_confirm" and ask.reply.choices
    assert (await store.open_game_in(CHANNEL)).status == "running"
    done = await service.lobby.abandon(CHANNEL, MALLORY, can_manage_channel=True, confirmed=True)
    assert done.finished
    assert await store.open_game_in(CHANNEL) is None
    game = await store.latest_game_in(CHANNEL)
    assert game.status == "abandoned" and await store.timers(game.id) == []


@BOTH_BACKENDS
async def test_concurrent_commands_in_one_channel_are_serialized(
    service: GameService, store: Store
) -> None:
    """The active Relay player fires six 1-AP steps at once: four fit in the turn."""
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=1
    )
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.start(CHANNEL, ALICE)
    game = await store.latest_game_in(CHANNEL)
    active = ALICE if game.seats[0].user_id == ALICE.id else BOB
    results = await asyncio.gather(
        *(service.play.act(CHANNEL, active, "step 1") for _ in range(6)), return_exceptions=True
    )
    wins = [r for r in results if isinstance(r, Outcome)]
    refusals = [r for r in results if isinstance(r, Refusal)]
    assert len(wins) == 4 and len(refusals) == 2
    assert {r.text.key for r in refusals} == {"error.not_your_turn"}
    assert [m.action for m in await store.moves(game.id)] == ["step 1"] * 4
    assert [o.kind.value for o in wins] == ["continue"] * 3 + ["handoff"]


@BOTH_BACKENDS
async def test_two_services_on_one_database_never_both_win(database_url: str) -> None:
    """Two processes' worth of services on one database: the version check decides."""
    first_store = await Store.open(database_url)
    second_store = await Store.open(database_url)
    try:
        first = GameService(first_store, games.REGISTRY, render=False)
        second = GameService(second_store, games.REGISTRY, render=False)
        await _started(first, ALICE, BOB)
        for player in (ALICE, BOB):
            hand = ENGINE.load_state((await first_store.latest_game_in(CHANNEL)).state).hands[
                (await first_store.latest_game_in(CHANNEL)).seat_of(player.id).seat
            ]
            await first.play.act(CHANNEL, player, f"play {hand[0]}")
        game = await first_store.latest_game_in(CHANNEL)
        chooser = next(s for s in game.seats if s.seat == ENGINE.load_state(game.state).chooser)
        winner = ALICE if chooser.user_id == ALICE.id else BOB
        results = await asyncio.gather(
            first.play.act(CHANNEL, winner, "claim"),
            second.play.act(CHANNEL, winner, "gift"),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Outcome) for r in results) == 1
        refused = [r for r in results if isinstance(r, Refusal)]
        assert len(refused) == 1
        # lost the race (conflict), or came after the winner's commit and met its state
        assert refused[0].text.key in {
            "error.conflict",
            "error.not_your_turn",
            "oracle.error.nothing_to_choose",
        }
        assert len(await first_store.moves(game.id)) == 3
    finally:
        await first_store.close()
        await second_store.close()


@BOTH_BACKENDS
async def test_reminders_fire_when_due_and_survive_a_restart(database_url: str) -> None:
    now = [1_000_000.0]
    store = await Store.open(database_url)
    service = GameService(store, games.REGISTRY, deadline_hours=1, clock=lambda: now[0])
    await _started(service, ALICE, BOB)
    assert await service.timers.fire_due_timers() == []  # nothing due yet
    await store.close()

    store = await Store.open(database_url)  # a restart
    try:
        service = GameService(store, games.REGISTRY, deadline_hours=1, clock=lambda: now[0])
        now[0] += 3600
        outcomes = await service.timers.fire_due_timers()
        assert len(outcomes) == 1
        assert outcomes[0].news.lines[0].key == "reminder.public"
        assert sorted(outcomes[0].news.ping) == [ALICE.id, BOB.id]
        assert await service.timers.fire_due_timers() == []  # re-armed an hour later
        hand = ENGINE.load_state((await store.latest_game_in(CHANNEL)).state).hands
        game = await store.latest_game_in(CHANNEL)
        await service.play.act(CHANNEL, ALICE, f"play {hand[game.seat_of(ALICE.id).seat][0]}")
        now[0] += 3600
        outcomes = await service.timers.fire_due_timers()
        assert [o.news.ping for o in outcomes] == [[BOB.id]]  # only who we still wait for
    finally:
        await store.close()


@BOTH_BACKENDS
async def test_help_lists_games_and_explains_one(service: GameService) -> None:
    general = help_lines(games.REGISTRY, None)
    assert "oracle" in t("en", general[0].key, **general[0].params)
    lines = help_lines(games.REGISTRY, "oracle")
    assert [line.key for line in lines] == ["help.game_header", "oracle.help", "help.commands"]
    with pytest.raises(Refusal):
        help_lines(games.REGISTRY, "chess")


@BOTH_BACKENDS
async def test_suggestions_offer_only_legal_moves_to_the_waited_player(
    service: GameService,
) -> None:
    await _started(service, ALICE, BOB)
    state = await _state(service)
    seat = await _seat(service, ALICE)
    assert await service.reading.suggestions(CHANNEL, ALICE) == [
        f"play {c}" for c in sorted(set(state.hands[seat]))
    ]
    assert await service.reading.suggestions(CHANNEL, MALLORY) == []
    assert await service.reading.suggestions(CHANNEL, ALICE, "claim") == []
