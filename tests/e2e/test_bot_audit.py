"""Audit of the product rules through the real bot and the fake Discord.

1. Hidden information stays hidden: no hand, hidden score or discarded tile in
   a public message, a public button, the move log or someone else's
   autocomplete.
2. Bad input (non-players, out of turn, no game, DMs, malformed or overlong
   text, stale, foreign or forged buttons) gets a clear ephemeral answer and
   leaves the stored game byte-identical.
3. Nothing is lost: interactions fired at the same moment are serialized, and
   of conflicting answers exactly one wins; a move that was committed is
   announced even when its board cannot be drawn.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.i18n import t

from .bot_harness import (
    WAIT,
    BotHarness,
    action_buttons,
    as_posted,
    click_as_posted,
    labelled,
    last_buttons,
    move,
    open_harness,
    picker_buttons,
    said,
    start_oracle,
)
from .fake_discord import (
    FakeDiscord,
    FakeUser,
    InteractionResult,
    InteractionType,
    RecordedMessage,
    walk_components,
)

SUPPORT_PHASES = ("revolt_support", "war_support")


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


# -- helpers --------------------------------------------------------------------


def answered_privately(h: BotHarness, itx: InteractionResult, expected: str | None = None) -> str:
    """The interaction got a non-empty ephemeral answer, nothing public, no traceback."""
    assert itx.acknowledged and itx.ephemeral, itx.label
    assert not itx.rejected, itx.rejected
    assert h.public_of(itx) == [], f"{itx.label} posted publicly"
    text = h.ephemeral_text(itx)
    assert text.strip(), f"{itx.label} got an empty answer"
    assert "Traceback" not in text and "Exception" not in text, text
    if expected is not None:
        assert text == expected, f"{itx.label}: {text!r}"
    return text


def labels(message: RecordedMessage) -> list[str]:
    """The labels of a message's move buttons as posted (not Undo or "Your options")."""
    return [
        c["label"]
        for c in walk_components(as_posted(message))
        if c.get("type") == 2 and str(c.get("custom_id", "")).startswith("zg:act:")
    ]


def button_actions(message: RecordedMessage) -> list[str]:
    """The actions a message's move buttons played as posted (the end of their custom ids)."""
    return [
        str(c["custom_id"]).split(":", 4)[4]
        for c in walk_components(as_posted(message))
        if str(c.get("custom_id", "")).startswith("zg:act:")
    ]


async def forged_click(
    h: BotHarness, user: FakeUser, message: RecordedMessage, custom_id: str
) -> InteractionResult:
    """Click ``custom_id`` as if it were on ``message`` (an old layout, a modified client)."""
    button = next(c for c in message.walk_components() if c.get("type") == 2)
    original = button["custom_id"]
    button["custom_id"] = custom_id
    try:
        return await h.click(user, message, custom_id)
    finally:
        button["custom_id"] = original


async def slash_in_dm(
    h: BotHarness, user: FakeUser, command: str, **options: Any
) -> InteractionResult:
    """A guild command arriving from a DM (a client whose command list is out of date)."""
    fake = h.fake
    _cmd, data, target, specs = fake._resolve_command(h.channel, command)
    for name, value in options.items():
        spec = next(o for o in specs if o["name"] == name)
        target.append(fake._encode_option(spec, value, {}, h.channel))
    itx = await fake._send_interaction(
        user=user,
        channel=fake.dm_channel(user),
        itype=InteractionType.APPLICATION_COMMAND,
        data=data,
        label=f"/{command} in DMs",
    )
    await h.running.wait_interaction_done(itx.id, WAIT)
    return itx


async def together(h: BotHarness, *sends: Awaitable[InteractionResult]) -> list[InteractionResult]:
    """Fire interactions at the same moment; wait until the bot answered every one."""
    itxs = list(await asyncio.gather(*sends))
    for itx in itxs:
        await h.running.wait_interaction_done(itx.id, WAIT)
    return itxs


async def start_tigris(h: BotHarness, players: list[FakeUser], scoring: str = "hidden") -> None:
    creator, *others = players
    await h.slash(creator, "game new tigris", scoring=scoring)
    for user in others:
        await h.slash(user, "game join")
    started = await h.slash(creator, "game start")
    assert h.public_of(started), h.ephemeral_text(started)


async def to_decision(h: BotHarness, players: list[FakeUser]) -> tuple[FakeUser, RecordedMessage]:
    """Everyone plays a card; return the round's winner and the message with the buttons."""
    for user in players:
        await move(h, user, (await h.legal(user))[0])
    [chooser] = await h.waiting(players)
    message = last_buttons(h)
    assert message is not None
    return chooser, message


async def stored_state(h: BotHarness, channel: Any = None) -> tuple[Any, Any]:
    assert h.store is not None
    row = await h.store.latest_game_in((channel or h.channel).id)
    assert row is not None and row.state is not None
    return row, h.running.service.registry[row.game_type].engine.load_state(row.state)


# -- 2. bad input -----------------------------------------------------------------


async def test_bad_input_in_a_tigris_game_is_answered_privately_and_changes_nothing(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tigris(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    bad = "tigris.error.bad_notation"
    junk = "🂡\u200b\u202e ﷽ t̷̢i̵l̶e̸"
    cases: list[tuple[FakeUser, str, dict[str, Any], str | None]] = [
        (mover, "play", {"action": "tile red Z99"}, t("en", bad, text="tile red Z99")),
        (mover, "play", {"action": " "}, t("en", bad, text=" ")),
        (mover, "play", {"action": "x" * 100}, t("en", bad, text="x" * 100)),
        (mover, "play", {"action": junk}, t("en", bad, text=junk)),
        (mover, "play", {"action": "@everyone <@1> tile"}, None),
        (mover, "play", {"action": "support 99999999999999999999"}, None),
        (mover, "tigris tile", {"colour": "purple", "square": "F5"}, None),
        (mover, "tigris tile", {"colour": "red", "square": "Z99"}, None),
        (mover, "tigris tile", {"colour": junk, "square": "F5"}, None),
        (mover, "tigris leader", {"leader": "emperor", "square": "F5"}, None),
        (mover, "tigris support", {"count": "-1"}, None),
        (mover, "tigris swap", {"tiles": "red red red red red red red"}, None),
        (mover, "tigris war", {"colour": "red"}, None),  # no war now
        (mover, "tigris decline", {}, None),
        (other, "tigris pass", {}, None),
        (other, "play", {"action": "pass"}, None),
        (h.mallory, "play", {"action": "pass"}, t("en", "error.not_in_game")),
        (h.mallory, "tigris pass", {}, t("en", "error.not_in_game")),
        (h.mallory, "game hand", {}, t("en", "error.not_in_game")),
        (h.mallory, "game leave", {}, t("en", "error.leave_started")),
        (h.mallory, "game start", {}, t("en", "error.already_started")),
        (h.mallory, "game join", {}, t("en", "error.already_started")),
        (h.mallory, "game abandon", {}, t("en", "error.abandon_not_allowed")),
        (h.mallory, "game new tigris", {}, t("en", "error.channel_busy")),
    ]
    before = await h.raw_game()
    public = len(h.public_messages())
    for user, command, options, expected in cases:
        itx = await h.slash(user, command, **options)
        text = answered_privately(h, itx, expected)
        if user is other:
            assert text.startswith("It is not your turn"), text
        assert not any(m.mentions for m in itx.messages), "a refusal pinged someone"
    assert await h.raw_game() == before
    assert len(h.public_messages()) == public


async def test_no_game_here_and_commands_from_dms(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    before = await h.raw_game()
    for command, options in (
        ("play", {"action": "play 1"}),
        ("tigris pass", {}),
        ("tigris tile", {"colour": "red", "square": "F5"}),
        ("game hand", {}),
        ("game leave", {}),
        ("game start", {}),
        ("game status", {}),
        ("game log", {}),
        ("game abandon", {}),
    ):
        itx = await h.slash(h.alice, command, channel=h.other_channel, **options)
        answered_privately(h, itx, t("en", "error.no_game"))
        dm = await slash_in_dm(h, h.alice, command, **options)
        assert [m.text for m in dm.messages] == [t("en", "error.dm_only")], command
        assert all(m.ephemeral for m in dm.messages)
    assert await h.raw_game() == before
    assert h.public_messages(h.other_channel) == []


async def test_text_parameters_are_bounded(harness: BotHarness) -> None:
    """Discord refuses overlong text before the bot sees it: every free-text option has a
    maximum, so a refusal that quotes the input stays one short message."""
    h = harness
    for name in ("play", "tigris"):
        command = h.fake.command(name, h.guild)
        assert command is not None
        stack = [command]
        while stack:
            node = stack.pop()
            for option in node.get("options") or []:
                if option["type"] in (1, 2):
                    stack.append(option)
                elif option["type"] == 3 and not option.get("choices"):
                    assert 0 < option.get("max_length", 6000) <= 100, (name, option["name"])
    await start_tigris(h, [h.alice, h.bob])
    with pytest.raises(ValueError, match="bad length"):
        await h.fake.slash(h.alice, h.channel, "tigris tile", colour="r" * 101, square="F5")


# -- 2. buttons -----------------------------------------------------------------


async def test_forged_and_foreign_buttons_change_nothing(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    chooser, message = await to_decision(h, players)
    other = next(u for u in players if u is not chooser)
    row, _ = await stored_state(h)
    game, version = row.id, row.version

    # a second game in the other channel, with a button of its own
    await h.slash(h.carol, "game new oracle", channel=h.other_channel)
    await h.slash(h.mallory, "game join", channel=h.other_channel)
    await h.slash(h.carol, "game start", channel=h.other_channel)
    for user in (h.carol, h.mallory):
        [card, *_] = await h.legal(user, h.other_channel)
        await h.slash(user, "play", channel=h.other_channel, action=card)
    foreign = next(m for m in reversed(h.public_messages(h.other_channel)) if action_buttons(m))
    row_b, _ = await stored_state(h, h.other_channel)

    before, before_b = await h.raw_game(), await h.raw_game(h.other_channel)
    stale = t("en", "error.stale_button")
    cases = [
        # this game's button carried to the other channel's message
        (chooser, foreign, f"zg:act:{game}:{version}:claim", stale),
        # the other game's button forged onto this channel's message
        (chooser, message, f"zg:act:{row_b.id}:{row_b.version}:claim", stale),
        (chooser, message, "zg:act:999:1:claim", stale),
        (chooser, message, f"zg:act:{game}:{version - 1}:claim", stale),
        (chooser, message, f"zg:act:{game}:{version}:", stale),
        (chooser, message, f"zg:act:{game}:x:claim", stale),
        (chooser, message, f"zg:abandon:{row_b.id}", stale),
        (chooser, message, "zg:", stale),
        (other, message, f"zg:act:{game}:{version}:claim", None),  # not their decision
        (h.mallory, message, f"zg:act:{game}:{version}:gift", t("en", "error.not_in_game")),
        (
            h.bob,
            message,
            f"zg:abandon:{game}",
            t("en", "error.abandon_not_allowed"),
        ),  # not the creator
        # right game and version, an action the buttons never offered
        (chooser, message, f"zg:act:{game}:{version}:play 5", None),
        (chooser, message, f"zg:act:{game}:{version}:" + "ü" * 80, None),
    ]
    for user, target, custom_id, expected in cases:
        itx = await forged_click(h, user, target, custom_id)
        text = answered_privately(h, itx, expected)
        assert "claim" not in text or custom_id.endswith("claim"), text
    assert await h.raw_game() == before
    assert await h.raw_game(h.other_channel) == before_b


async def test_buttons_of_an_ended_game_are_stale(harness: BotHarness) -> None:
    """A decision's button answers ``error.stale_button`` once its game is over — abandoned,
    replaced by a new lobby or a new game, or finished — never "no game here"."""
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    chooser, message = await to_decision(h, players)
    claim = action_buttons(message)["claim"]
    stale = t("en", "error.stale_button")

    asked = await h.slash(h.alice, "game abandon")
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    await h.click(h.alice, confirm, confirm.custom_ids()[0])
    assert not action_buttons(message)  # an ended game's message keeps no live button
    answered_privately(h, await click_as_posted(h, chooser, message, claim), stale)

    await h.slash(h.bob, "game new oracle")  # a new lobby in the channel
    answered_privately(h, await click_as_posted(h, chooser, message, claim), stale)
    lobby = await h.raw_game()
    await h.slash(h.alice, "game join")
    await h.slash(h.bob, "game start")  # a new running game
    assert lobby != await h.raw_game()
    running = await h.raw_game()
    answered_privately(h, await click_as_posted(h, chooser, message, claim), stale)
    assert await h.raw_game() == running

    # the new game played to its end: its last buttons are stale too
    rng = random.Random(5)
    last = None
    while waiting := await h.waiting(players):
        user = rng.choice(waiting)
        await move(h, user, rng.choice(await h.legal(user)))
        last = last_buttons(h) or last
    assert last is not None
    finished = await h.raw_game()
    for custom_id in action_buttons(last).values():
        answered_privately(h, await h.click(chooser, last, custom_id), stale)
    posted = [c for c in button_actions(last) if c not in action_buttons(last)]
    for action in posted:  # taken away by a newer message: clicked on an old client
        custom_id = next(
            str(c["custom_id"])
            for c in walk_components(as_posted(last))
            if str(c.get("custom_id", "")).endswith(f":{action}")
        )
        answered_privately(h, await click_as_posted(h, chooser, last, custom_id), stale)
    assert await h.raw_game() == finished


# -- 1. hidden information ----------------------------------------------------------


async def test_a_hand_never_becomes_public_buttons(harness: BotHarness) -> None:
    """When one player is left to play a card, their cards must not become buttons."""
    h = harness
    players = [h.alice, h.bob, h.carol]
    await start_oracle(h, *players)
    rng = random.Random(11)
    while waiting := await h.waiting(players):
        user = rng.choice(waiting)
        await move(h, user, rng.choice(await h.legal(user)))
    public = h.public_messages()
    assert any(labels(m) for m in public), "no decision was offered as buttons"
    decision = {labelled("oracle", "claim"), labelled("oracle", "gift")}
    cards = [said("oracle", f"play {card}") for card in range(1, 6)]
    for message in public:
        assert set(labels(message)) <= decision, labels(message)
        assert not re.search(r"play [1-5]", message.text), message.text
        assert not any(card in message.text for card in cards), message.text


@pytest.mark.slow
async def test_tigris_with_hidden_scoring_keeps_hands_and_scores_private(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]  # carol's DMs are closed
    await start_tigris(h, players, scoring="hidden")
    engine = games.REGISTRY["tigris"].engine
    rng = random.Random(2025)
    supports = 0
    for _ in range(3000):
        waiting = await h.waiting(players)
        if not waiting:
            break
        [user] = waiting
        row, state = await stored_state(h)
        view = engine.public_view(state)
        if view["turn"]["phase"] in SUPPORT_PHASES:
            # the support buttons follow from public information (the hand size) only;
            # they are on the public message, or, when the player goes on (an attacker
            # commits first), in the move picker their own answer carries (their own
            # legal counts, from 0)
            latest = [m for m in h.fake.visible_to(user) if button_actions(m) or picker_buttons(m)][
                -1
            ]
            seat = row.seat_of(user.id).seat
            size = view["players"][seat]["hand_size"]
            if button_actions(latest):
                assert button_actions(latest) == [f"support {n}" for n in range(size + 1)]
                assert labels(latest) == [
                    t("en", "tigris.choice.support", count=n) for n in range(size + 1)
                ]
            else:
                offered = [
                    label
                    for label in picker_buttons(latest)
                    if label.startswith(t("en", "tigris.choice.support", count=0)[:-1])
                ]
                assert 1 <= len(offered) <= size + 1, picker_buttons(latest)
                assert offered == [
                    t("en", "tigris.choice.support", count=n) for n in range(len(offered))
                ]
            supports += 1
        await move(h, user, rng.choice(await h.legal(user)))
    assert await h.waiting(players) == []
    assert supports, "the game never asked for support"

    public = h.public_messages()
    title = t("en", "tigris.title")
    headers = {t("en", key, game=title) for key in ("hand.news", "hand.header")}
    headers.add(t("en", "dm.fallback"))

    def private_part(text: str) -> list[str]:
        """A private view's lines: after its header where a message leads with other
        lines (a step's answer, a "your turn" note), else the whole message."""
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if line in headers]
        return lines[starts[0] + 1 :] if starts else lines

    private_lines = {
        line
        for user in players
        for m in h.fake.dms_to(user) + h.fake.ephemerals_for(user)
        if any(a.filename == "hand.png" for a in m.attachments)  # a private view and its lines
        for line in private_part(m.text)
        if line and line not in headers
    }
    assert private_lines, "no private line was sent"
    for message in public[:-1]:  # the last one is the final ranking, which reveals scores
        assert all(a.filename == "board.png" for a in message.attachments)
        for line in message.text.splitlines():
            assert line not in private_lines, line
        assert not set(button_actions(message)) & {"pass"}, "a full turn became buttons"
        assert not any(a.startswith(("swap", "tile")) for a in button_actions(message))

    # the log shows a swap as a count, whoever asks
    assert h.store is not None
    moves = await h.store.moves(await h.game_id())
    log = h.ephemeral_text(await h.slash(h.mallory, "game log", count=50))
    swapped = [m for m in moves[-50:] if m.action.startswith("swap ")]
    for recorded in swapped:
        assert f"#{recorded.seq} " in log
    assert not re.search(r"swap (red|blue|green|black)", log), log


async def test_autocomplete_offers_nothing_to_others(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tigris(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    assert await h.autocomplete(mover, "play", "action")  # the mover is offered moves
    probes: list[tuple[str, str, dict[str, Any]]] = [
        ("play", "action", {}),
        ("tigris tile", "colour", {}),
        ("tigris tile", "square", {"colour": "red"}),
        ("tigris swap", "tiles", {}),
        ("tigris leader", "leader", {}),
        ("tigris support", "count", {}),
    ]
    for user, channel in ((other, h.channel), (h.mallory, h.channel), (mover, h.other_channel)):
        for command, option, filled in probes:
            for typed in ("", "red", "ü" * 50):
                got = await h.autocomplete(user, command, option, typed, channel=channel, **filled)
                assert got == [], (user.name, command, option, typed, got)


# -- 3. nothing is lost -------------------------------------------------------------


async def test_concurrent_lobby_commands_are_serialized(harness: BotHarness) -> None:
    h = harness
    f = h.fake
    created = await together(
        h,
        f.slash(h.alice, h.channel, "game new oracle"),
        f.slash(h.bob, h.channel, "game new oracle"),
    )
    winners = [itx for itx in created if h.public_of(itx)]
    assert len(winners) == 1
    [loser] = [itx for itx in created if itx not in winners]
    answered_privately(h, loser, t("en", "error.channel_busy"))
    creator = winners[0].user
    others = [u for u in (h.alice, h.bob, h.carol, h.mallory) if u is not creator]

    joined = await together(h, *(f.slash(u, h.channel, "game join") for u in others))
    # each join is announced with its own count: none was lost or counted twice
    announced = sorted(h.public_of(itx)[0].text for itx in joined)
    assert sorted(line[-5] for line in announced) == ["2", "3", "4"]
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    assert sorted(s.user_id for s in row.seats) == sorted(u.id for u in [creator, *others])

    started = await together(h, *(f.slash(creator, h.channel, "game start") for _ in range(3)))
    assert sum(1 for itx in started if h.public_of(itx)) == 1
    for itx in started:
        if not h.public_of(itx):
            answered_privately(h, itx, t("en", "error.already_started"))

    # everyone plays at once: all four moves are kept, each confirmed to its player, and
    # the last one reveals the round in one public message, which answers its player
    cards = {u.id: (await h.legal(u))[0] for u in [creator, *others]}
    played = await together(
        h, *(f.slash(u, h.channel, "play", action=cards[u.id]) for u in [creator, *others])
    )
    for itx in played:
        accepted = t("en", "move.accepted", action=said("oracle", cards[itx.user.id]))
        if h.public_of(itx):
            assert h.answered_publicly(itx) is not None and h.ephemeral_text(itx) == ""
        else:
            assert h.ephemeral_text(itx).startswith(accepted)
    assert sum(len(h.public_of(itx)) for itx in played) == 1
    assert len((await h.raw_game())[2]) == 4


async def test_conflicting_answers_to_one_decision_exactly_one_wins(harness: BotHarness) -> None:
    h = harness
    f = h.fake
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    chooser, message = await to_decision(h, players)
    buttons = action_buttons(message)
    moves_before = len((await h.raw_game())[2])
    itxs = await together(
        h,
        f.click(chooser, message, buttons["claim"]),
        f.click(chooser, message, buttons["gift"]),
        f.slash(chooser, h.channel, "play", action="gift"),
        f.click(chooser, message, buttons["claim"]),
        f.slash(chooser, h.channel, "play", action="claim"),
    )
    winners = [itx for itx in itxs if h.public_of(itx)]
    assert len(winners) == 1, [h.ephemeral_text(i) for i in itxs]
    for itx in itxs:
        if itx is not winners[0]:
            answered_privately(h, itx)
    moves = (await h.raw_game())[2]
    assert len(moves) == moves_before + 1
    # a public decision that reads the same in public is answered by its public message
    [public] = h.public_of(winners[0])
    assert h.answered_publicly(winners[0]) is public, moves[-1]
    assert h.ephemeral_text(winners[0]) == ""


async def test_a_board_that_cannot_be_drawn_does_not_hide_a_committed_move(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    service = h.running.service

    def broken(*args: Any) -> bytes:
        raise RuntimeError("renderer crashed")

    registry = dict(service.registry)
    registry["oracle"] = dataclasses.replace(
        registry["oracle"], render_public=broken, render_private=broken
    )
    service.ctx.registry = registry
    moves = len((await h.raw_game())[2])
    card = (await h.legal(h.alice))[0]
    itx = await h.slash(h.alice, "play", action=card)
    assert len((await h.raw_game())[2]) == moves + 1  # the sealed card is committed
    assert h.ephemeral_text(itx).startswith(t("en", "move.accepted", action=said("oracle", card)))
    assert t("en", "error.internal") not in h.ephemeral_text(itx)
    assert all(not m.attachments for m in itx.messages)  # its preview could not be drawn
    card = (await h.legal(h.bob))[0]
    itx = await h.slash(h.bob, "play", action=card)
    assert len((await h.raw_game())[2]) == moves + 2  # the reveal is committed
    [public] = h.public_of(itx)
    assert public.attachments == []  # announced without its board
    row, state = await stored_state(h)
    chooser = row.seats[state.chooser].user_id
    assert {u.id for u in public.mentions} == {chooser}  # the winner is told to choose


# -- the catalog ---------------------------------------------------------------------


async def test_refusals_speak_the_users_language(harness: BotHarness) -> None:
    h = harness
    wei = h.fake.add_user("wei", locale="zh-CN")
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    _, message = await to_decision(h, players)
    cases = [
        (await h.slash(wei, "play", action="play 1"), "error.not_in_game"),
        (await h.slash(wei, "game abandon"), "error.abandon_not_allowed"),
        (await h.slash(wei, "game hand", channel=h.other_channel), "error.no_game"),
        (await slash_in_dm(h, wei, "game status"), "error.dm_only"),
        (await forged_click(h, wei, message, "zg:act:999:1:claim"), "error.stale_button"),
        (await forged_click(h, wei, message, "zg:old"), "error.stale_button"),
    ]
    for itx, key in cases:
        text = "\n".join(m.text for m in itx.messages)
        assert text == t("zh", key) != t("en", key), (key, text)
    # the abandon confirmation's button is labelled in the invoker's language
    h.alice.locale = "zh-CN"
    asked = await h.slash(h.alice, "game abandon")
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    assert [c["label"] for c in confirm.walk_components() if c.get("type") == 2] == [
        t("zh", "lobby.confirm_button")
    ]
