"""Tikal through the bot: one complete game, auctions, autocomplete and undo.

The game is driven the way players drive it in Discord: the generated
``/tikal`` commands and ``/play``, the End turn button on a step's preview,
and the bid buttons a bidder is shown. A Tikal turn is many steps by one
player, so it must reach the channel as exactly one public message (its
hand-off), with private previews in between.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.tikal import ENGINE
from bot.games.tikal.components import COST_RECOVER
from bot.i18n import t

from .bot_harness import (
    BotHarness,
    action_buttons,
    click_as_posted,
    decode_png,
    open_harness,
    open_picker,
    picker_buttons,
    said,
    unhurried,
)
from .fake_discord import FakeDiscord, FakeUser, InteractionResult, RecordedMessage

#: the game's seed (seat order, hex stack and token pool); fixed so the game replays
SEED = 20240611
#: AP actions the test player takes at most in one turn before ending it
MAX_STEPS_PER_TURN = 2


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def start_tikal(
    h: BotHarness, players: list[FakeUser], mode: str = "base", seed: int = SEED
) -> InteractionResult:
    """``players[0]`` opens a Tikal game with a fixed seed, the others join, it starts."""
    creator, *others = players
    opened = await h.slash(creator, "game new tikal", mode=mode)
    assert h.public_of(opened), h.ephemeral_text(opened)
    assert h.store is not None
    # the lobby draws a random seed; fix it before the start reads it
    with sqlite3.connect(h.store.path) as raw:
        raw.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, await h.game_id()))
    for user in others:
        await h.slash(user, "game join")
    started = await h.slash(creator, "game start")
    assert "The game of Tikal has started." in h.public_of(started)[0].text
    return started


def options_of(notation: str) -> tuple[str, dict[str, str]]:
    """The ``/tikal`` subcommand and its options that spell ``notation``."""
    action = ENGINE.parse_action(notation)
    verb = notation.split()[0]
    return verb, ENGINE.verbs.verbs[verb].words(action)


async def tikal(h: BotHarness, user: FakeUser, notation: str) -> InteractionResult:
    """Play ``notation`` through its generated ``/tikal`` subcommand."""
    verb, options = options_of(notation)
    return await h.slash(user, f"tikal {verb}", **options)


def ids(message: RecordedMessage, prefix: str) -> list[str]:
    return [cid for cid in message.custom_ids() if cid.startswith(prefix)]


def previews(itx: InteractionResult) -> list[RecordedMessage]:
    return [m for m in itx.messages if m.attachments]


def step_words(name: str, notation: str) -> str:
    """A fragment of the public line a step must produce (the hand-off lists it)."""
    words = notation.split()
    verb = words[0]
    if verb == "place":
        return f"on {words[1]} (rotation {words[2]})."
    if verb == "enter":
        figure = words[2] if len(words) > 2 else "worker"
        return t("en", "tikal.event.entered", seat=name, figure=figure, space=words[1])
    if verb == "move":
        return f"{name} moves a {words[3] if len(words) > 3 else 'worker'} from {words[1]} to "
    if verb == "dig":
        return f"{name} uncovers the temple on {words[1]}: now worth"
    if verb == "recover":
        return f"{name} recovers a "
    if verb == "end":
        return f"{name} ends the turn ("
    raise AssertionError(f"no words known for {notation!r}")


def choose_step(legal: list[str], taken: int, rng: random.Random) -> str:
    """The test player's policy: lay the hex, take a few cheap steps, then end."""
    places = [a for a in legal if a.startswith("place ")]
    if places:
        return rng.choice(places)
    if taken >= MAX_STEPS_PER_TURN:
        return "end"
    by_verb: dict[str, list[str]] = {}
    for action in legal:
        verb = action.split()[0]
        if verb in ("enter", "move", "dig", "recover"):
            by_verb.setdefault(verb, []).append(action)
    if "recover" in by_verb:
        return rng.choice(by_verb["recover"])
    if "dig" in by_verb and rng.random() < 0.7:
        return rng.choice(by_verb["dig"])
    if not by_verb or rng.random() < 0.25:
        return "end"
    verb = rng.choice(sorted(by_verb))
    return rng.choice(by_verb[verb])


# -- one complete game ----------------------------------------------------------------


@pytest.mark.slow
async def test_one_complete_base_game_posts_one_message_per_hand_off(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    assert h.store is not None
    # what is sent, not when: every hand-off waits for its board to be the interaction's
    # response, however long this machine takes to draw it (the late path, an answer and
    # a follow-up, is test_bot_public_answer.py's); every assertion below is unchanged
    unhurried(h, monkeypatch)
    players = [h.alice, h.bob]
    await start_tikal(h, players)
    names = {u.id: u.name for u in players}
    rng = random.Random(SEED)
    moves = 0
    hand_offs = 0
    checkpoints_seen = 0
    zooms = 0  # previews with the zoomed region where the mover can act
    while (waiting := await h.waiting(players)) != []:
        [mover] = waiting
        public_at_start = len(h.public_messages())
        taken = 0
        steps: list[str] = []
        told_now = False  # an interim message tells the turn's steps so far
        last_preview: RecordedMessage | None = None
        while True:
            action = choose_step(await h.legal(mover), taken, rng)
            if action == "end" and last_preview is not None:
                # End turn: the button on the last step's preview
                itx = await h.click(mover, last_preview, action_buttons(last_preview)["end"])
            elif moves % 2:
                itx = await h.slash(mover, "play", action=action)
            else:
                itx = await tikal(h, mover, action)
            assert not itx.rejected, itx.rejected
            moves += 1
            steps.append(action)
            h.told_move(itx, t("en", "move.accepted", action=said("tikal", action)))
            # a step of the turn is previewed privately; the hand-off (End turn) is answered
            # by its public message, which tells the move
            assert (h.answered_publicly(itx) is not None) == (action == "end")
            if action == "end":
                break
            taken += action.split()[0] != "place"
            # a step of the turn: a private preview of the board; a recovered token cannot
            # be taken back, so the channel hears of it now, in one interim message (no
            # board) that the hand-off message replaces
            if action.startswith("recover "):
                told_now = True
            interim = h.public_messages()[public_at_start:]
            assert len(interim) == told_now, [m.text for m in interim]
            if told_now:
                assert interim[0].attachments == [], interim[0].attachments
                assert step_words(names[mover.id], "recover") in interim[0].text
            [preview] = previews(itx)
            assert preview.ephemeral and preview.ephemeral_for is mover
            files = [a.filename for a in preview.attachments]
            assert files in (["board.png"], ["board.png", "zoom.png"]), files
            zooms += len(files) == 2
            if moves < 12:
                board = decode_png(preview.attachments[0].data)
                if len(files) == 2:  # where the mover can act, cut from the board
                    zoom = decode_png(preview.attachments[1].data)
                    assert zoom.width < board.width and zoom.height < board.height
            # Undo unless the step is a checkpoint (a recovered token); End turn always
            undoable = not action.startswith("recover ")
            assert bool(ids(preview, "zg:undo:")) == undoable, (action, preview.custom_ids())
            checkpoints_seen += not undoable
            assert "end" in action_buttons(preview)
            last_preview = preview
        # the hand-off: exactly one public message, with every step of the turn in words
        hand_offs += 1
        [public] = h.public_of(itx)
        assert h.public_messages()[public_at_start:] == [public]
        assert [a.filename for a in public.attachments] == ["board.png"]
        position = -1
        for step in steps:
            found = public.text.find(step_words(names[mover.id], step), position + 1)
            assert found > position, (step, public.text)
            position = found
        now_waiting = await h.waiting(players)
        assert [u.id for u in public.mentions] == [u.id for u in now_waiting]
        if now_waiting:
            assert public.text.splitlines()[-1] == t(
                "en", "game.your_turn", mentions=now_waiting[0].mention
            )
        assert moves < 400, "the game does not end"
    assert zooms > 0

    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [line.split(" — ")[0] for line in final.text.splitlines() if line[:1].isdigit()]
    assert sorted(r.split(". ", 1)[1] for r in ranked) == ["alice", "bob"]
    assert final.mentions == []
    decode_png(final.attachments[0].data)
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.status == "finished"
    assert len(await h.store.moves(row.id)) == moves
    assert hand_offs >= 30  # every hex laid, and the scoring turns
    assert checkpoints_seen > 0
    for message in h.public_messages():
        assert all(a.filename == "board.png" for a in message.attachments)
        assert len(message.content) <= 2000


# -- auctions -------------------------------------------------------------------------


async def test_auction_bids_come_as_the_bidders_own_buttons_and_commands(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    started = await start_tikal(h, players, mode="auction")
    [first] = await h.waiting(players)
    second = next(u for u in players if u is not first)
    [start_message] = [m for m in h.public_of(started) if ids(m, "zg:play:")]
    assert [u.id for u in start_message.mentions] == [first.id]
    assert action_buttons(start_message) == {}  # a bid is nobody else's business to click
    assert not ids(start_message, "zg:mine:")  # no "Your options": Play holds the bids

    # Play: the bidder's own picker, pass and the lowest legal amounts as buttons
    legal = await h.legal(first)
    bids = [a for a in legal if a.startswith("bid ")]
    opened, picker = await open_picker(h, first, start_message)
    assert h.public_of(opened) == []
    labels = list(picker_buttons(picker))
    quick = [label for label in labels if label == "Pass" or label.startswith("Bid ")]
    assert quick[0] == "Pass" and len(quick) > 2
    assert quick[1:] == [f"Bid {a.split()[1]}" for a in bids[: len(quick) - 1]]
    assert "Undo" not in labels  # a bid is final
    # the other player is not offered anything
    refused = await h.click(second, start_message, ids(start_message, "zg:play:")[0])
    assert "It is not your turn" in h.ephemeral_text(refused)
    assert all(not m.components for m in refused.messages)

    # tapping a bid button bids, at once
    chosen = bids[1]
    clicked = await h.click(first, picker, picker_buttons(picker)[f"Bid {chosen.split()[1]}"])
    assert t("en", "move.accepted", action=said("tikal", chosen)) in h.ephemeral_text(clicked)
    assert h.store is not None
    [*_, last] = await h.store.moves(await h.game_id())
    assert last.action == chosen
    [public] = h.public_of(clicked)
    amount = int(chosen.split()[1])
    assert t("en", "tikal.event.bid", seat=first.name, amount=amount) in public.text
    assert [u.id for u in public.mentions] == [second.id]
    assert ids(public, "zg:play:")  # the next bidder opens their own picker
    assert not ids(start_message, "zg:play:")  # only the newest message has Play
    assert public.attachments == []  # a bid: the board comes when the turn is won
    assert not picker_buttons(picker)  # not theirs any more: no menu
    # an older Play of theirs (a client that still shows it) is answered, changing nothing
    before = await h.raw_game()
    play = f"zg:play:{await h.game_id()}"
    stale = await click_as_posted(h, first, start_message, play)
    assert "It is not your turn" in h.ephemeral_text(stale)
    assert await h.raw_game() == before

    # /tikal bid: the autocomplete offers exactly the legal amounts...
    legal = await h.legal(second)
    amounts = [a.split()[1] for a in legal if a.startswith("bid ")]
    assert amounts and amounts[0] == str(amount + 1)
    assert await h.autocomplete(second, "tikal bid", "amount") == amounts[:25]
    assert await h.autocomplete(first, "tikal bid", "amount") == []
    # ... an illegal amount is refused with its reason, privately, changing nothing
    score = 20
    refusals = {
        str(amount): t("en", "tikal.error.bid_too_low", minimum=amount + 1),
        str(score + 1): t("en", "tikal.error.bid_too_high", amount=score + 1, score=score),
    }
    public_before = len(h.public_messages())
    for typed, reason in refusals.items():
        itx = await h.slash(second, "tikal bid", amount=typed)
        assert all(m.ephemeral for m in itx.messages)
        assert reason in h.ephemeral_text(itx)
        assert await h.raw_game() == before
    wrong_seat = await h.slash(first, "tikal bid", amount=amounts[0])
    assert "It is not your turn" in h.ephemeral_text(wrong_seat)
    assert await h.raw_game() == before
    assert len(h.public_messages()) == public_before
    # ... and any legal amount is taken
    high = amounts[len(amounts) // 2]
    played = await h.slash(second, "tikal bid", amount=high)
    [public] = h.public_of(played)
    assert h.answered_publicly(played) is public  # a bid reads the same in public
    assert t("en", "tikal.event.bid", seat=second.name, amount=int(high)) in public.text
    assert [u.id for u in public.mentions] == [first.id]

    # the first bidder passes with their picker's button: the second wins and picks a hex
    _, picker = await open_picker(h, first, public)
    offered = list(picker_buttons(picker))
    assert offered[0] == "Pass" and offered[1] == f"Bid {int(high) + 1}"
    passed = await h.click(first, picker, picker_buttons(picker)["Pass"])
    [public] = h.public_of(passed)
    assert t("en", "tikal.event.passed", seat=first.name) in public.text
    assert t("en", "tikal.event.won", seat=second.name, amount=int(high)) in public.text
    assert await h.waiting(players) == [second]
    # picking a revealed hex is public anyway: buttons on the public message itself
    picks = action_buttons(public)
    assert set(picks) == {a for a in await h.legal(second) if a.startswith("pick ")}
    assert len(picks) == 2
    picked = await h.click(second, public, picks["pick 1"])
    assert t("en", "move.accepted", action=said("tikal", "pick 1")) in h.ephemeral_text(picked)
    assert h.public_of(picked) == []  # the winner goes on: lay the hex
    [preview] = previews(picked)
    assert preview.ephemeral_for is second
    assert [a.filename for a in preview.attachments] == ["board.png", "zoom.png"]


# -- autocomplete -----------------------------------------------------------------------


async def choices(
    h: BotHarness, user: FakeUser, command: str, option: str, partial: str = "", **chosen: Any
) -> dict[str, str]:
    """The suggestions for ``option`` of ``command``: value -> the name shown."""
    found = await h.fake.autocomplete(user, h.channel, command, option, partial, **chosen)
    return {str(c["value"]): str(c["name"]) for c in found}


async def test_autocomplete_offers_only_legal_places_and_moves_with_costs(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tikal(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)

    # /tikal place: legal spaces, and the legal rotations of a space
    places = [a.split()[1:] for a in await h.legal(mover)]
    spaces = sorted({space for space, _ in places})
    offered = await h.autocomplete(mover, "tikal place", "space")
    assert sorted(offered) == spaces[:25] and len(offered) == min(25, len(spaces))
    for space in spaces[:3]:
        rotations = await h.autocomplete(mover, "tikal place", "rotation", space=space)
        assert rotations == sorted(r for s, r in places if s == space)
    everywhere = await h.autocomplete(mover, "tikal place", "rotation")
    assert everywhere == sorted({r for _, r in places})
    assert await h.autocomplete(other, "tikal place", "space") == []
    assert await h.autocomplete(other, "tikal place", "rotation") == []
    assert await h.autocomplete(mover, "tikal move", "target") == []  # not in this phase

    await tikal(h, mover, "place {} {}".format(*places[0]))
    enters = [a for a in await h.legal(mover) if a.startswith("enter ") and "leader" not in a]
    base = enters[0].split()[1]
    await tikal(h, mover, enters[0])
    await tikal(h, mover, enters[0])  # two workers on the base camp: 8 AP left
    ap = 8

    # /tikal move target: only the legal destinations, cheapest first, with their cost
    legal = await h.legal(mover)
    targets = {a.split()[2] for a in legal if a.startswith(f"move {base} ")}
    offered_moves = await choices(h, mover, "tikal move", "target", origin=base)
    assert set(offered_moves) == targets and targets
    costs: dict[str, int] = {}
    for value, name in offered_moves.items():
        cost = int(name.rsplit(" — ", 1)[1].split(" AP ")[0])
        assert name.endswith(f"— {cost} AP ({ap - cost} left)"), name
        assert 1 <= cost <= ap
        costs[value] = cost
    assert list(costs.values()) == sorted(costs.values())
    # without an origin: every legal destination of any figure
    assert set(await h.autocomplete(mover, "tikal move", "target")) == {
        a.split()[2] for a in legal if a.startswith("move ")
    }
    # typing narrows; an origin without the mover's figures offers nothing
    typed = await h.autocomplete(mover, "tikal move", "target", "B", origin=base)
    assert typed == [v for v in offered_moves if "b" in v.lower()]
    empty = next(s for s in costs if not any(a.startswith(f"move {s} ") for a in legal))
    assert await h.autocomplete(mover, "tikal move", "target", origin=empty) == []
    assert await h.autocomplete(mover, "tikal move", "origin") == [base]
    # the other player is offered nothing
    assert await h.autocomplete(other, "tikal move", "target", origin=base) == []
    assert await h.autocomplete(other, "tikal move", "origin") == []
    assert await h.autocomplete(other, "play", "action") == []

    # the label's cost is what the move costs: the dearest destination offered
    target = max(costs, key=lambda v: (costs[v], v))
    moved = await tikal(h, mover, f"move {base} {target}")
    text = h.ephemeral_text(moved)
    assert f"from {base} to {target} ({costs[target]} AP)." in text
    assert t("en", "tikal.summary.ap", ap=ap - costs[target], entered=2, limit=10) in text


# -- undo -------------------------------------------------------------------------------


async def stored_state(h: BotHarness) -> Any:
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    return row.state


@pytest.mark.slow
async def test_undo_within_a_turn_and_not_past_a_recovered_token(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tikal(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    at_start = await stored_state(h)
    public_at_start = len(h.public_messages())

    place = (await h.legal(mover))[0]
    placed = await tikal(h, mover, place)
    [first_preview] = previews(placed)
    after_place = await stored_state(h)
    enter = next(a for a in await h.legal(mover) if a.startswith("enter "))
    entered = await tikal(h, mover, enter)
    [second_preview] = previews(entered)

    # the other player cannot take back the mover's step
    before = await h.raw_game()
    refused = await h.slash(other, "game undo")
    assert t("en", "error.undo_not_yours", seat=mover.name) in h.ephemeral_text(refused)
    assert await h.raw_game() == before

    # Undo on the latest preview takes the last step back: a new private preview
    undone = await h.click(mover, second_preview, ids(second_preview, "zg:undo:")[0])
    assert t("en", "move.undone", action=said("tikal", enter)) in h.ephemeral_text(undone)
    assert h.public_of(undone) == []
    assert await stored_state(h) == after_place
    [preview] = previews(undone)
    assert preview.ephemeral_for is mover
    assert [a.filename for a in preview.attachments] == ["board.png", "zoom.png"]
    assert ids(preview, "zg:undo:")  # the hex laid can be taken back too
    # the older preview's Undo is stale now
    before = await h.raw_game()
    stale = await h.click(mover, first_preview, ids(first_preview, "zg:undo:")[0])
    assert t("en", "error.stale_button") in h.ephemeral_text(stale)
    assert await h.raw_game() == before
    # /game undo takes back the hex; then nothing is left to take back
    undone = await h.slash(mover, "game undo")
    assert t("en", "move.undone", action=said("tikal", place)) in h.ephemeral_text(undone)
    assert await stored_state(h) == at_start
    before = await h.raw_game()
    refused = await h.slash(mover, "game undo")
    assert t("en", "error.nothing_to_undo") in h.ephemeral_text(refused)
    assert await h.raw_game() == before
    assert len(h.public_messages()) == public_at_start  # none of this was public

    # play on until someone can recover a treasure token with AP left for a step after it
    rng = random.Random(SEED)
    for _ in range(300):
        [mover] = await h.waiting(players)
        legal = await h.legal(mover)
        recovers = [a for a in legal if a.startswith("recover ")]
        turn = (await stored_state(h))["turn"]
        if recovers and turn is not None and turn["ap"] > COST_RECOVER:
            break
        action = choose_step(legal, 0, rng)
        await h.slash(mover, "play", action=action)
    else:
        raise AssertionError("nobody could recover a token")

    recovered = await h.slash(mover, "play", action=recovers[0])
    # it cannot be taken back: the channel hears of it now, without a board
    [told] = h.public_of(recovered)
    assert f"{mover.name} recovers a " in told.text and told.attachments == []
    [preview] = previews(recovered)
    assert not ids(preview, "zg:undo:")  # a revealed token cannot be taken back
    assert "end" in action_buttons(preview)
    after_recover = await stored_state(h)
    # a step after it can be undone, but not the recovery behind it
    [step, *_] = [a for a in await h.legal(mover) if a.startswith(("enter ", "move "))]
    stepped = await h.slash(mover, "play", action=step)
    [preview] = previews(stepped)
    undone = await h.click(mover, preview, ids(preview, "zg:undo:")[0])
    assert t("en", "move.undone", action=said("tikal", step)) in h.ephemeral_text(undone)
    assert await stored_state(h) == after_recover
    before = await h.raw_game()
    refused = await h.slash(mover, "game undo")
    assert t("en", "error.nothing_to_undo") in h.ephemeral_text(refused)
    assert await h.raw_game() == before
