"""Tap to play through the fake Discord: whole games with component interactions only.

After ``/game new`` no slash command is sent: the players tap Join on the lobby
message, the host picks the options in its menus and taps Start; then each
awaited player clicks the "Play" button of the newest public message, and then
only the components of the ephemeral picker message it opens (a select or a
button of the menu, End turn, a confirmation), which updates in place until
their part is played and then shows their next menu while they still act; at
the end a player taps Rematch. The test reads the store only to know whom the
game awaits and when it is over, and counts the game loads each tap costs
(one).

Also: Discord's component limits on every message, a picker refused to
whoever is not awaited, a stale picker answered with a fresh one, forged
``zg:pick:`` ids answered as stale or unreadable, changing nothing, and two
Temple Rush pickers open at once: one seat's sealed move leaves the other's
picker valid.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t

from .bot_harness import WAIT, BotHarness, decode_png, open_harness
from .fake_discord import FakeDiscord, FakeUser, InteractionResult, RecordedMessage

#: generous caps that turn a game that never ends into a failure
MAX_TAPS = int(__import__("os").environ.get("MAX_TAPS", "6000"))
#: the lobby message's component kinds (Join/Leave/Start, option menus)
LOBBY = ("lobby", "lopt")


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def start(
    h: BotHarness, game: str, players: list[FakeUser], seed: int, **options: Any
) -> float:
    """``/game new`` then only taps on the lobby message: Join, the host's option menus,
    Start. The seed is fixed in the store (the lobby draws a random one). Returns the
    time of the last slash command."""
    creator, *others = players
    opened = await h.slash(creator, f"game new {game}")
    last_command = time.monotonic()
    [lobby] = h.public_of(opened)
    assert h.store is not None
    with sqlite3.connect(h.store.path) as raw:
        raw.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, await h.game_id()))
    ids = {cid.split(":")[3]: cid for cid in lobby.custom_ids() if cid.split(":")[1] in LOBBY}
    for user in others:
        joined = await h.click(user, lobby, ids["join"])
        assert not joined.rejected and h.public_of(joined) == []
    for name, value in options.items():
        chosen = await select(h, creator, h.fake.message(lobby.id), ids[name], [value])
        assert not chosen.rejected, h.ephemeral_text(chosen)
    started = await h.click(creator, h.fake.message(lobby.id), ids["start"])
    assert "has started" in h.public_of(started)[0].text, h.ephemeral_text(started)
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and dict(row.options).items() >= options.items()
    return last_command


async def select(
    h: BotHarness, user: FakeUser, message: RecordedMessage, custom_id: str, values: list[str]
) -> InteractionResult:
    itx = await h.fake.select(user, message, custom_id, values)
    await h.running.wait_interaction_done(itx.id, WAIT)
    return itx


def play_button(h: BotHarness) -> tuple[RecordedMessage, str]:
    """The newest public message with a Play button, and the button's custom_id."""
    for message in reversed(h.public_messages()):
        ids = [c for c in message.custom_ids() if c.startswith("zg:play:")]
        if ids:
            return message, ids[0]
    raise AssertionError("no public message with a Play button")


def selects_of(message: RecordedMessage) -> list[JSONish]:
    """The picker message's selects: one menu, split in parts of 25 when longer."""
    return [
        comp
        for comp in message.walk_components()
        if comp.get("type") == 3 and str(comp.get("custom_id", "")).startswith("zg:pick:")
    ]


def menu_of(message: RecordedMessage) -> tuple[JSONish, list[JSONish]]:
    """The picker message's first select (or None) and its option buttons (End turn
    among them: it plays a step too)."""
    buttons = []
    for comp in message.walk_components():
        cid = str(comp.get("custom_id", ""))
        what = cid.rsplit(":", 1)[-1]
        if cid.startswith("zg:pick:") and comp.get("type") == 2 and (what.isdigit() or what == "e"):
            buttons.append(comp)
    selects = selects_of(message)
    return (selects[0] if selects else None), buttons


JSONish = Any


class LoadCounter:
    """Counts the bot's loads of a game from the store (``open_game_in``, ``get_game``)."""

    def __init__(self, h: BotHarness) -> None:
        assert h.store is not None
        self.count = 0
        store = h.store
        for name in ("open_game_in", "get_game"):
            original = getattr(store, name)

            async def counted(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                self.count += 1
                return await _original(*args, **kwargs)

            setattr(store, name, counted)


def check_limits(message: RecordedMessage) -> None:
    """Discord's limits on a message's components (the fake refuses more, this says what)."""
    rows = message.components
    assert len(rows) <= 5, message.custom_ids()
    assert sum(1 for _ in message.walk_components()) <= 40
    for row in rows:
        assert row["type"] == 1 and 1 <= len(row["components"]) <= 5
        for comp in row["components"]:
            assert 1 <= len(comp.get("custom_id", "")) <= 100
            if comp["type"] == 2:
                assert 1 <= len(comp["label"]) <= 80
            if comp["type"] == 3:
                assert len(row["components"]) == 1
                assert 1 <= len(comp["options"]) <= 25
                assert all(1 <= len(o["label"]) <= 100 for o in comp["options"])
                low, high = comp.get("min_values", 1), comp.get("max_values", 1)
                assert 1 <= low <= high <= len(comp["options"])


class Tapper:
    """A table of players who only tap; counts taps and steps."""

    def __init__(self, h: BotHarness, players: list[FakeUser], rng: random.Random) -> None:
        self.h = h
        self.players = players
        self.rng = rng
        self.taps = 0
        self.selects = 0
        self.multi = 0
        self.split = 0  # menus shown as several selects
        self.opened = 0
        self.loads = LoadCounter(h)

    async def tap(self, itx_of: Any, *, picker: bool = True) -> InteractionResult:
        """One click; a picker's (Play, an option, a control) loads the game once."""
        self.taps += 1
        assert self.taps < MAX_TAPS, "the game does not end"
        before = self.loads.count
        itx: InteractionResult = await itx_of
        if picker:
            assert self.loads.count - before == 1, "a tap loads the game once"
        assert not itx.rejected, [str(r) for r in itx.rejected]
        for message in itx.messages:
            check_limits(message)
            assert t("en", "error.internal") not in message.text
        return itx

    async def open(self, user: FakeUser) -> RecordedMessage | None:
        """Click Play as ``user``: their picker message (None if refused)."""
        message, custom_id = play_button(self.h)
        itx = await self.tap(self.h.click(user, message, custom_id))
        self.opened += 1
        [picker] = [m for m in itx.messages if m.ephemeral]
        assert picker.ephemeral_for is user
        return picker if picker.components else None

    async def choose(self, user: FakeUser, picker: RecordedMessage) -> bool:
        """One tap in the picker's menu; False when it shows no menu any more."""
        h = self.h
        _, buttons = menu_of(picker)
        selects = selects_of(picker)
        self.split += len(selects) > 1
        if not selects and not buttons:
            return False
        # each option of every select and each button equally likely; now and then
        # Start over (a lightning layout may need it to give the race up)
        restart = ids_ending(picker, ":r")
        if restart and self.rng.random() < 0.05:
            await self.tap(h.click(user, picker, restart[0]))
            return True
        choices = [(menu, o["value"]) for menu in selects for o in menu["options"]]
        choices += [(button, None) for button in buttons]
        component, _ = self.rng.choice(choices)
        if component.get("type") == 3:
            options = [o["value"] for o in component["options"]]
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            count = self.rng.randint(low, high)
            self.selects += 1
            self.multi += high > 1
            await self.tap(
                select(h, user, picker, component["custom_id"], self.rng.sample(options, count))
            )
        else:
            await self.tap(h.click(user, picker, component["custom_id"]))
        return True

    async def play(self) -> None:
        """Tap until the game is over: Play when the player has no menu open (a new
        turn), else their open picker's menu."""
        h = self.h
        open_for: dict[int, RecordedMessage] = {}
        while waiting := await h.waiting(self.players):
            user = self.rng.choice(waiting)
            picker = open_for.pop(user.id, None)
            if picker is None or not any(menu_of(picker)):
                picker = await self.open(user)
            assert picker is not None, picker
            version = await self.version()
            public = len(h.public_messages())
            while await self.version() == version:
                assert await self.choose(user, picker), picker.text
                if __import__("os").environ.get("TAPLOG"):
                    print("TAP", user.name, picker.text.replace("\n", " | ")[:200])
            # the step was played: the same message shows what it did, and the next menu
            assert t("en", "error.internal") not in picker.text
            if len(h.public_messages()) > public:
                open_for.clear()  # handed over: everyone opens a fresh picker
            elif any(menu_of(picker)):
                open_for[user.id] = picker

    async def version(self) -> int:
        assert self.h.store is not None
        row = await self.h.store.latest_game_in(self.h.channel.id)
        assert row is not None
        return row.version


async def finish(h: BotHarness, tapper: Tapper, names: list[str], started: float) -> float:
    """The game ended with its ranking; a tap on Rematch starts the next one; no slash
    command was sent after ``started``."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.status == "finished"
    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [line.split(" — ")[0] for line in final.text.splitlines() if line[:1].isdigit()]
    assert sorted(r.split(". ", 1)[1] for r in ranked) == sorted(names)
    [rematch] = [c for c in final.custom_ids() if c.startswith("zg:rematch:")]
    again = await tapper.tap(h.click(tapper.players[-1], final, rematch), picker=False)
    assert any("has started" in m.text for m in h.public_of(again)), h.ephemeral_text(again)
    new = await h.store.latest_game_in(h.channel.id)
    assert new is not None and new.id != row.id and new.status == "running"
    assert sorted(s.display_name for s in new.seats) == sorted(names)
    for message in h.fake.messages:
        check_limits(message)
    assert not any(itx.rejected for itx in h.fake.interactions)
    # after /game new, only components: no slash command
    commands = [i for i in h.fake.interactions if i.type == 2]
    assert all(i.sent_at <= started for i in commands)
    return time.monotonic() - started


GAMES = [
    ("tigris", {}, 5),
    ("tikal", {"mode": "base"}, 6),
    ("tikal", {"mode": "auction"}, 7),
    ("tikal", {"mode": "mini"}, 8),
    ("temple", {}, 9),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "seed"), GAMES, ids=[f"{g}-{o}" for g, o, _ in GAMES])
async def test_a_whole_game_by_tapping_only(
    harness: BotHarness, game: str, options: dict[str, str], seed: int
) -> None:
    h = harness
    players = [h.alice, h.bob]
    started = await start(h, game, players, seed, **options)
    tapper = Tapper(h, players, random.Random(seed))
    await tapper.play()
    took = await finish(h, tapper, [u.name for u in players], started)
    logging.getLogger(__name__).info(
        "%s %s: %d taps, %d pickers, %.1f s", game, options, tapper.taps, tapper.opened, took
    )
    assert tapper.selects > 0
    if game == "tigris":
        assert tapper.multi > 0  # a swap's tiles: one multiple-choice select
        assert tapper.split > 0  # a square among more than 25: one menu, several selects


# -- one turn in detail ----------------------------------------------------------------


def ids_ending(message: RecordedMessage, kind: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith("zg:pick:") and c.endswith(kind)]


async def step_once(tapper: Tapper, user: FakeUser, picker: RecordedMessage) -> None:
    """Tap options until one step is played (the game's version moves)."""
    version = await tapper.version()
    while await tapper.version() == version:
        assert await tapper.choose(user, picker), picker.text


async def awaited(h: BotHarness, players: list[FakeUser]) -> tuple[FakeUser, FakeUser]:
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    return mover, other


async def test_a_tikal_turn_by_taps_with_preview_undo_and_end_turn(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start(h, "tikal", players, 6, mode="base")
    tapper = Tapper(h, players, random.Random(1))
    mover, other = await awaited(h, players)
    public_before = len(h.public_messages())
    picker = await tapper.open(mover)
    assert picker is not None and picker.ephemeral_for is mover
    assert picker.components and picker.text
    # opened with the map around where the mover can act (the hexes to lay the tile on)
    [zoom] = picker.attachments
    assert zoom.filename == "zoom.png" and decode_png(zoom.data).width < 1248
    # a Tikal turn begins with the hex to place: play it, then steps until one can be undone
    for _ in range(4):
        await step_once(tapper, mover, picker)
        assert "Played: " in picker.text, picker.text
        files = [a.filename for a in picker.attachments]  # the preview, and the zoom of
        assert files in (["board.png"], ["board.png", "zoom.png"])  # where they can act
        assert ids_ending(picker, ":e"), picker.custom_ids()  # End turn
        assert any(menu_of(picker)), picker.custom_ids()  # and the next menu
        assert len(h.public_messages()) == public_before  # nothing public within a turn
        if ids_ending(picker, ":u"):
            break
    # the step is taken back from the same message, which updates in place
    version = await tapper.version()
    itx = await tapper.tap(h.click(mover, picker, ids_ending(picker, ":u")[0]))
    assert itx.callback_type == 7 and itx.response is picker  # an update, no new message
    assert await tapper.version() == version + 1
    assert "Took back: " in picker.text
    assert any(menu_of(picker))
    await step_once(tapper, mover, picker)
    # End turn: the hand-off is posted publicly, as for a typed move
    itx = await tapper.tap(h.click(mover, picker, ids_ending(picker, ":e")[0]))
    assert itx.response is picker
    [public] = h.public_of(itx)
    assert public in h.public_messages()[public_before:]
    assert [u.id for u in public.mentions] == [other.id]
    assert any(c.startswith("zg:play:") for c in public.custom_ids())
    assert not ids_ending(picker, ":e") and not menu_of(picker)[1]  # no menu: not theirs now
    assert await h.waiting(players) == [other]


async def test_a_picker_is_refused_to_whoever_is_not_awaited(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start(h, "tigris", players, 5)
    _, other = await awaited(h, players)
    message, play = play_button(h)
    before = await h.raw_game()
    for user, key in ((other, "It is not your turn"), (h.mallory, t("en", "error.not_in_game"))):
        itx = await h.click(user, message, play)
        assert not itx.rejected
        [answer] = itx.messages
        assert answer.ephemeral and answer.ephemeral_for is user and not answer.components
        assert key in answer.text
    assert await h.raw_game() == before
    # in the clicker's own language
    h.mallory.locale = "ko"
    itx = await h.click(h.mallory, message, play)
    assert t("ko", "error.not_in_game") in itx.messages[0].text


async def test_a_stale_picker_says_so_and_offers_a_fresh_one(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start(h, "tigris", players, 5)
    tapper = Tapper(h, players, random.Random(3))
    mover, _ = await awaited(h, players)
    old = await tapper.open(mover)
    fresh = await tapper.open(mover)
    assert old is not None and fresh is not None and old is not fresh
    await step_once(tapper, mover, fresh)  # the game moves on through the other picker
    after = await h.raw_game()
    select_menu, buttons = menu_of(old)
    if select_menu is not None:
        itx = await select(
            h, mover, old, select_menu["custom_id"], [select_menu["options"][0]["value"]]
        )
    else:
        itx = await h.click(mover, old, buttons[0]["custom_id"])
    assert not itx.rejected and itx.response is old
    assert t("en", "picker.stale_fresh") in old.text
    assert any(menu_of(old)), old.custom_ids()  # the fresh menu, at the new version
    version = await tapper.version()
    assert all(f":{version}" in c for c in old.custom_ids() if c.endswith(":s"))
    assert await h.raw_game() == after


#: numbers past the store's integer range, as in test_bot_buttons
FORGED_NUMBERS = ("9223372036854775808", "1" + "0" * 40)


async def test_forged_pick_ids_are_stale_or_unreadable_and_change_nothing(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start(h, "tigris", players, 5)
    tapper = Tapper(h, players, random.Random(4))
    mover, _ = await awaited(h, players)
    picker = await tapper.open(mover)
    assert picker is not None
    game = await h.game_id()
    version = await tapper.version()
    before = await h.raw_game()
    stale = t("en", "error.stale_button")
    forged = {
        **{f"zg:pick:{n}:{version}:0": stale for n in FORGED_NUMBERS},
        **{f"zg:pick:{game}:{n}:0": stale for n in FORGED_NUMBERS},
        **{f"zg:pick:{game}:{n}:u": stale for n in FORGED_NUMBERS},
        **{f"zg:play:{n}": stale for n in FORGED_NUMBERS},
        f"zg:pick:{game}:{version}.zz.qq:0": t("en", "picker.bad_token"),
        f"zg:pick:{game}:{version}.99:0": t("en", "picker.bad_token"),
        f"zg:pick:{game}:{version}:99": t("en", "picker.bad_choice"),
        f"zg:pick:{game}:{version + 5}:0": t("en", "picker.stale_fresh"),
        f"zg:pick:{game}:s0123abcd:0": t("en", "picker.stale_fresh"),
        f"zg:pick:{game + 1}:{version}:0": stale,
        f"zg:pick:{game}:{version}:x": stale,
        f"zg:pick:{game}:{version}:u": t("en", "picker.bad_choice"),  # no Undo on this menu
        f"zg:pick:{game}:{version}.1:u": t("en", "picker.stale_fresh"),  # no such pick now
        f"zg:pick:{game}:{version}:s": t("en", "picker.bad_choice"),  # a button named as a select
        f"zg:mine:{game}": stale,  # "Your options" of older messages
    }
    for custom_id, expected in forged.items():
        button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        picker.components = [{"type": 1, "components": [button]}]
        caplog.clear()
        itx = await h.click(mover, picker, custom_id)
        assert not itx.rejected, custom_id
        text = "\n".join(m.text for m in itx.messages)
        assert expected in text, (custom_id, text)
        if expected.startswith(("This picker", "That choice")):  # answered with a fresh menu
            assert t("en", "picker.title.verb") in text, (custom_id, text)
        assert t("en", "error.internal") not in text, custom_id
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], custom_id
    assert await h.raw_game() == before


# -- sealed rounds ------------------------------------------------------------------------


async def test_two_temple_pickers_at_once_one_seal_leaves_the_other_valid(
    harness: BotHarness,
) -> None:
    """Two players open their pickers in the same round; one seals a move; the other's
    open picker still plays (its stamp is the seat's own choices, not the game's
    version), and a change to its own choices makes it stale."""
    h = harness
    players = [h.alice, h.bob, h.carol]
    await start(h, "temple", players, 9)
    tapper = Tapper(h, players, random.Random(2))
    first, second = (await h.waiting(players))[:2]
    pickers = {}
    for user in (first, second):
        picker = await tapper.open(user)
        assert picker is not None
        pickers[user.id] = picker
    version = await tapper.version()
    # the first seals a move with one tap: the first option that plays (a placed brick)
    await _seal(tapper, first, pickers[first.id])
    assert await tapper.version() > version
    # the second's picker, opened before, still plays its move
    before = await tapper.version()
    await _seal(tapper, second, pickers[second.id])
    assert await tapper.version() > before
    assert t("en", "picker.stale_fresh") not in pickers[second.id].text


async def _seal(tapper: Tapper, user: FakeUser, picker: RecordedMessage) -> None:
    """Tap the first option of the picker's first section until a step is played."""
    h = tapper.h
    version = await tapper.version()
    while await tapper.version() == version:
        select_menu, buttons = menu_of(picker)
        options = [b for b in buttons if not b["custom_id"].endswith(":e")]
        assert t("en", "picker.stale_fresh") not in picker.text, picker.text
        if select_menu is not None:
            value = select_menu["options"][-1]["value"]
            await tapper.tap(select(h, user, picker, select_menu["custom_id"], [value]))
        else:
            await tapper.tap(h.click(user, picker, options[-1]["custom_id"]))


async def test_a_click_runs_its_class_without_its_message_rebuilt(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click runs its item class from its custom_id and the click alone
    (:func:`bot.discord.items.register`): discord.py parses none of the clicked
    message's components and rebuilds no view of it, and buttons and selects (the
    lobby's, the picker's) play as before."""
    import discord
    import discord.message

    parsed: list[Any] = []
    rebuilt: list[int] = []
    factory = discord.message._component_factory
    from_message = discord.ui.View.from_message

    def counted_factory(data: Any, *args: Any) -> Any:
        parsed.append(data.get("custom_id"))
        return factory(data, *args)

    def counted_from_message(cls: Any, message: Any, **kwargs: Any) -> Any:
        rebuilt.append(message.id)
        return from_message(message, **kwargs)

    monkeypatch.setattr(discord.message, "_component_factory", counted_factory)
    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(counted_from_message))
    h = harness
    players = [h.alice, h.bob]
    await start(h, "tikal", players, 7, mode="base")  # Join, the option's select, Start
    tapper = Tapper(h, players, random.Random(3))
    mover, _ = await awaited(h, players)
    version = await tapper.version()
    picker = await tapper.open(mover)
    assert picker is not None
    for _ in range(3):
        await step_once(tapper, mover, picker)
    assert await tapper.version() > version  # the taps played
    assert parsed == [] and rebuilt == []
