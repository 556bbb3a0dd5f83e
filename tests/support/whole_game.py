"""A whole game through the service, read as its players read it, in one language.

Members play by taps (:meth:`bot.service.tapping.Tapping.tap`: a random option of
each menu, now and then Undo or Start over), computer seats from their timers,
and now and then every awaited member lets the deadline pass, so the table's
and the timeout's lines are read too. Everything a player reads is collected
in that language: public lines, replies, private messages, the tally, button
and menu texts (titles, headers, labels, descriptions), refusals, the lobby,
``/game status`` and ``/game hand``; and every text the renderers draw on an
image (through :class:`renderer.lettering.Pen`, recorded as each image is
drawn).

Decisions:

* The renderers are wrapped in closures, so the service draws on its threads
  (:mod:`bot.service.drawing`), in this process, where the recording is read;
  the renderers' caches are cleared first so cached sprites are drawn (and
  recorded) too.
* Every seat, member or computer, reads in the game's language: the demo's
  and a one-language server's case (public lines follow the game's language,
  private ones the player's).
* A whole game is repeatable: the computer seats' secrets, which the store
  draws from the operating system and which seed their decisions, are drawn
  here from the game's seed (the one edge patched), so a game that fails
  once fails again with the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from bot import games, plugins
from bot.games.base import GameType
from bot.i18n import Text
from bot.service import GameService, News, Outcome, Player, Refusal, TapAnswer
from bot.service.menus import END, RESTART, UNDO, Menu
from bot.store import Store
from renderer import common, lettering

CHANNEL = 7301
GUILD = 9301
#: the members' names: one Latin, one not (a name is never checked for words)
MEMBER_NAMES = ("Ann", "王小明", "김민준")
#: taps in one step before the harness gives up on it (a menu that never ends)
MAX_TAPS = 60
MAX_STEPS = 5000
#: how often awaited members let the deadline pass, and tap Undo or Start over
SLEEP_CHANCE = 0.03
CONTROL_CHANCE = 0.05


@dataclass
class Read:
    """What the players read: (where, text) pairs, and the image texts by renderer."""

    lang: str
    texts: list[tuple[str, str]] = field(default_factory=list)
    drawn: list[tuple[str, str]] = field(default_factory=list)
    #: the members' names (a computer seat's name is the game's words)
    names: tuple[str, ...] = ()
    #: every seat's name, the computers' included
    seat_names: tuple[str, ...] = ()
    #: how many images were drawn, by renderer
    images: dict[str, int] = field(default_factory=dict)

    def add(self, where: str, lines: Iterable[Text | str]) -> None:
        for line in lines:
            text = line if isinstance(line, str) else line.render(self.lang)
            self.texts.append((where, text))

    def outcome(self, where: str, outcome: Outcome) -> None:
        self.add(f"{where}reply", outcome.reply.lines)
        self.add(f"{where}public", (outcome.news or News()).lines)
        self.add(f"{where}tally", outcome.tally or [])
        for message in outcome.private:
            self.add(f"{where}private", message.lines)
        self.add(
            f"{where}button",
            [c.label for c in (*outcome.reply.choices, *(outcome.news or News()).choices)],
        )
        if outcome.lobby is not None:
            self.add(f"{where}lobby", outcome.lobby.lines)
            for option in outcome.lobby.menus:
                self.add(f"{where}lobby", [option.label])
                self.add(f"{where}lobby", [label for _, label in option.values])
        if outcome.reply.menu is not None:
            self.menu(outcome.reply.menu)

    def menu(self, menu: Menu) -> None:
        texts: list[Text] = [menu.title]
        for section in menu.sections:
            if section.header is not None:
                texts.append(section.header)
            for option in section.options:
                texts.append(option.label)
                if option.detail is not None:
                    texts.append(option.detail)
        texts += [option.label for option in menu.controls]
        self.add("menu", texts)

    def answer(self, answer: TapAnswer) -> None:
        self.add("tap", answer.lines)
        if answer.outcome is not None:
            self.outcome("tap:", answer.outcome)
        if answer.menu is not None:
            self.menu(answer.menu)

    def everything(self) -> list[tuple[str, str]]:
        return self.texts + self.drawn


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def clear_renderer_caches() -> None:
    """Forget the renderers' cached sprites and strips, so they are drawn (and their
    texts recorded) again."""
    import renderer.annotate
    import renderer.temple
    import renderer.tigris
    import renderer.tikal
    import renderer.tikal_hex

    modules = (common, lettering, renderer.annotate, renderer.tigris, renderer.tikal)
    for module in (*modules, renderer.temple, renderer.tikal_hex):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", "").startswith("renderer"):
                clear()


def recorded(read: Read, render: Any) -> Any:
    """``render`` drawing under :func:`renderer.lettering.recording`, its texts kept in
    ``read`` (a closure: the service draws it on a thread of this process)."""
    if render is None:
        return None
    where = f"image:{render.__module__}.{render.__name__}"

    def draw(*args: Any, **kwargs: Any) -> Any:
        with lettering.recording() as found:
            image = render(*args, **kwargs)
        read.drawn += [(where, lettered.text) for lettered in found]
        read.images[where] = read.images.get(where, 0) + 1
        return image

    return draw


def recording_registry(read: Read) -> dict[str, GameType]:
    plugins.load_builtin_games()
    return {
        name: GameType(
            engine=game.engine,
            render_public=recorded(read, game.render_public),
            render_private=recorded(read, game.render_private),
            render_zoom=recorded(read, game.render_zoom),
            render_rules=game.render_rules,
            render_picture=recorded(read, game.render_picture),
        )
        for name, game in games.REGISTRY.items()
        if name in ("tikal", "tigris", "temple")
    }


async def play_whole_game(
    tmp_path: Path,
    game: str,
    lang: str,
    *,
    members: int,
    computers: int,
    options: dict[str, str],
    seed: int,
    images: bool = True,
) -> Read:
    """One whole game of ``game`` in ``lang`` (see the module docstring)."""
    read = Read(lang, names=MEMBER_NAMES[:members])
    registry = recording_registry(read)
    clear_renderer_caches()
    store = await Store.open(tmp_path / f"{game}-{lang}-{seed}.db")
    clock = Clock()
    secrets = random.Random(f"secrets:{seed}")
    drawn = mock.patch("bot.store.base.new_seat_secret", lambda: secrets.getrandbits(62))
    try:
        drawn.start()
        service = GameService(store, registry, clock=clock, render=images, computer_pause=0.0)
        seated = [Player(4100 + n, MEMBER_NAMES[n]) for n in range(members)]
        host = seated[0]
        read.outcome(
            "",
            await service.lobby.new_game(
                guild_id=GUILD,
                channel_id=CHANNEL,
                user=host,
                game_type_name=game,
                options=options,
                seed=seed,
                language=lang,
            ),
        )
        for player in seated[1:]:
            read.outcome("", await service.lobby.join(CHANNEL, player))
        read.outcome("", await service.lobby.computer_menu(CHANNEL, host))
        for _ in range(computers):
            read.outcome("", await service.lobby.add_computer(CHANNEL, host, "easy"))
        read.outcome("", await service.lobby.start(CHANNEL, host))
        row = await store.latest_game_in(CHANNEL)
        assert row is not None
        read.seat_names = tuple(s.display_name for s in row.seats)
        await _play(service, registry[game], read, seated, clock, random.Random(seed))
        read.outcome("status:", await service.reading.status(CHANNEL))
        read.outcome("log:", await service.reading.log_lines(CHANNEL, 40))
    finally:
        drawn.stop()
        await store.close()
    return read


async def _play(
    service: GameService,
    game_type: GameType,
    read: Read,
    seated: list[Player],
    clock: Clock,
    rng: random.Random,
) -> None:
    engine = game_type.engine
    for _ in range(MAX_STEPS):
        for fired in await service.timers.fire_due_timers():
            read.outcome("timer:", fired)
        row = await service.store.latest_game_in(CHANNEL)
        assert row is not None
        if row.status != "running":
            return
        state = engine.load_state(row.state)
        awaited = [s for s in sorted(engine.waiting_for(state)) if row.seats[s].computer is None]
        if not awaited:  # the computer seats answer when their timer is due
            due = await service.store.next_timer()
            clock.now = max(clock.now + 1, due.due_at if due is not None else 0.0)
            continue
        if rng.random() < SLEEP_CHANCE:  # everyone awaited lets the deadline pass
            clock.now += 3 * 24 * 3600
            continue
        seat = rng.choice(awaited)
        player = next(p for p in seated if p.id == row.seats[seat].user_id)
        if engine.has_private_view and rng.random() < 0.1:
            read.outcome("hand:", await service.reading.hand(CHANNEL, player))
        try:
            await _tap_a_step(service, read, player, rng)
        except Refusal as refusal:
            read.add("refusal", [refusal.text])
            clock.now += 120  # past any retry cooldown
    raise AssertionError(f"{engine.name} did not finish in {MAX_STEPS} steps")


async def _tap_a_step(service: GameService, read: Read, player: Player, rng: random.Random) -> None:
    """Taps from the Play button until a step is played (or the menu runs out)."""
    answer = await service.tapping.tap(CHANNEL, player)
    for _ in range(MAX_TAPS):
        read.answer(answer)
        if answer.outcome is not None or answer.menu is None:
            return
        picked = _choose(answer.menu, rng)
        answer = await service.tapping.tap(CHANNEL, player, answer.menu.token, picked)
    read.answer(answer)


def _choose(menu: Menu, rng: random.Random) -> list[str]:
    controls = [o for o in menu.controls if o.token in (RESTART, UNDO)]
    if controls and rng.random() < CONTROL_CHANCE:
        return [rng.choice(controls).token]
    options = [(o, s) for s in menu.sections for o in s.options]
    options += [(o, None) for o in menu.controls if o.token == END or not options]
    option, section = rng.choice(options)
    if section is not None and section.max_values > 1:
        count = rng.randint(section.min_values, section.max_values)
        return [o.token for o in rng.sample(list(section.options), count)]
    return [option.token]
