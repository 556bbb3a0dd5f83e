"""After the game, through the service on a real SQLite store: rematch, export, statistics."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import games, plugins
from bot.i18n import LANGUAGES, catalog, t
from bot.service import ChoiceKind, GameService, Player, Refusal
from bot.service.after import EXPORT_BUDGET, rotated
from bot.service.animation import animate
from bot.service.record import RecordError, boards, parse_record
from bot.service.replay import standing
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, DAVE, MALLORY
from tests.support.after_play import Clock, Played, play_out, start_game

plugins.load_builtin_games()
REGISTRY = games.REGISTRY
CHANNEL = 7001
OTHER = 7002
GUILD = 1


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _key(excinfo: pytest.ExceptionInfo[Refusal]) -> str:
    return excinfo.value.text.key


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return GameService(store, REGISTRY, render=False, clock=clock)


async def _finished(
    service: GameService,
    clock: Clock,
    game: str = "oracle",
    players: tuple[Player, ...] = (ALICE, BOB, CAROL),
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> Played:
    played = await start_game(
        service, channel, game, players, guild=guild, seed=seed, options=options
    )
    return await play_out(service, channel, players, random.Random(seed), clock, played)


# -- the final message -------------------------------------------------------------


@pytest.mark.slow_except("postgres-tikal-options1")
@pytest.mark.parametrize(
    ("game", "options"),
    [("tigris", {}), ("tikal", {"mode": "mini"}), ("temple", {"deadline": "1h"})],
)
@BOTH_BACKENDS
async def test_a_product_game_exports_every_board_the_channel_saw(
    service: GameService, store: Store, clock: Clock, game: str, options: dict[str, str]
) -> None:
    played = await _finished(service, clock, game, (ALICE, BOB), seed=5, options=options)
    row = await store.latest_game_in(CHANNEL)
    assert row is not None and row.status == "finished"
    engine = REGISTRY[game].engine

    # the final message explains each score and offers a rematch
    final = played.final
    assert final is not None
    assert [c.kind for c in final.news.choices] == [ChoiceKind.REMATCH]
    result = engine.result(engine.load_state(row.state))
    assert result is not None
    ranking = [line for line in final.news.lines if line.key == "game.ranking_line"]
    assert len(ranking) == len(row.seats)
    for seat, line in zip(result.ranking, ranking, strict=True):
        key, _ = result.details[seat]
        assert key != "game.score"  # a real explanation, not the bare word
        assert all(key in catalog(lang) for lang in LANGUAGES)
        assert line.params["detail"].render("en") in line.render("en")
        assert (row.seats[seat].place, row.seats[seat].score) == (
            result.places[seat],
            result.scores[seat],
        )

    service.render = True
    exported = await service.after.export(CHANNEL)
    assert exported.game_id == row.id
    assert exported.record_name == f"ziggurat-{game}-{row.id}.json"
    assert len(exported.record) + len(exported.animation or b"") <= EXPORT_BUDGET
    record = parse_record(exported.record, REGISTRY)
    assert (record.game, record.seed, record.options) == (game, row.seed, row.options)
    assert [s.name for s in record.seats] == [s.display_name for s in row.seats]
    shown, state = boards(engine, len(record.seats), record.options, record.seed, record.moves)
    # every board the channel was shown, and only those, in order
    assert [_json(b.view) for b in shown] == [_json(v) for v in played.views]
    assert _json(engine.dump_state(state)) == _json(row.state)
    # the rows: every step that stands, nothing taken back, no undo rows
    moves = await store.moves(row.id)
    assert [m.seq for m in record.moves] == [m.seq for m in standing(moves)]
    doc = json.loads(exported.record)
    assert sum(m["published"] for m in doc["moves"]) == len(shown) - 1
    assert all(m["kind"] != "undo" for m in doc["moves"])
    assert "user_id" not in exported.record.decode()
    # the animation: the first and the last board, pixel for pixel
    assert exported.animation is not None
    gif = Image.open(io.BytesIO(exported.animation))
    assert gif.format == "GIF" and 1 < gif.n_frames <= len(shown)
    labels = record.labels()
    for index, board in ((0, shown[0]), (gif.n_frames - 1, shown[-1])):
        gif.seek(index)
        drawn = Image.open(io.BytesIO(REGISTRY[game].render_public(board.view, labels, "en")))
        frame = gif.convert("RGB").crop((0, 0, *drawn.size))
        assert ImageChops.difference(frame, drawn.convert("RGB")).getbbox() is None


@BOTH_BACKENDS
async def test_steps_taken_back_are_not_exported(
    service: GameService, store: Store, clock: Clock
) -> None:
    played = await _finished(service, clock, "relay", (ALICE, BOB), seed=2)
    assert played.undos > 0
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    moves = await store.moves(row.id)
    exported = await service.after.export(CHANNEL)
    assert exported.animation is None  # the service draws nothing when rendering is off
    doc = json.loads(exported.record)
    kept = [m["seq"] for m in doc["moves"]]
    assert kept == [m.seq for m in standing(moves)]
    assert len(kept) < len(moves)
    assert {m["kind"] for m in doc["moves"]} == {"move"}


# -- running and abandoned games ------------------------------------------------------


@BOTH_BACKENDS
async def test_a_running_game_is_not_exported_and_an_abandoned_one_only_to_its_last_message(
    service: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB, CAROL)
    with pytest.raises(Refusal) as nothing:
        await service.after.export(CHANNEL)
    assert _key(nothing) == "error.no_game"
    played = await start_game(service, CHANNEL, "oracle", players, seed=3)
    await play_out(service, CHANNEL, players, random.Random(3), clock, played, stop_after=5)
    # a sealed card, not yet revealed
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    engine = REGISTRY["oracle"].engine
    awaited = sorted(engine.waiting_for(engine.load_state(row.state)))
    sealer = next(p for p in players if p.id == row.seats[awaited[0]].user_id)
    card = str((await service.reading.legal_actions(CHANNEL, sealer))[0])
    await service.play.act(CHANNEL, sealer, card)
    with pytest.raises(Refusal) as running:
        await service.after.export(CHANNEL)
    assert _key(running) == "after.error.export_running"

    await service.lobby.abandon(CHANNEL, ALICE, can_manage_channel=False, confirmed=True)
    row = await store.latest_game_in(CHANNEL)
    assert row is not None and row.status == "abandoned"
    assert row.last_seq > row.published_seq  # the sealed card was never published
    exported = await service.after.export(CHANNEL)
    doc = json.loads(exported.record)
    assert doc["status"] == "abandoned"
    assert max(m["seq"] for m in doc["moves"]) <= row.published_seq
    assert "after.export_abandoned" in [line.key for line in exported.lines]
    record = parse_record(exported.record, REGISTRY)
    shown, _ = boards(engine, 3, record.options, record.seed, record.moves)
    assert [_json(b.view) for b in shown] == [_json(v) for v in played.views]
    # an abandoned lobby (never started) is not a game to export
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=OTHER, user=BOB, game_type_name="oracle"
    )
    await service.lobby.abandon(OTHER, BOB, can_manage_channel=False, confirmed=True)
    with pytest.raises(Refusal) as lobby:
        await service.after.export(OTHER)
    assert _key(lobby) == "error.no_game"


# -- rematch --------------------------------------------------------------------------


@BOTH_BACKENDS
async def test_rematch_same_players_and_options_rotated_seats_new_seed(
    service: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB, CAROL)
    await _finished(service, clock, "oracle", players, options={"style": "fancy"})
    old = await store.latest_game_in(CHANNEL)
    assert old is not None and old.status == "finished"

    with pytest.raises(Refusal) as outsider:
        await service.after.rematch(CHANNEL, MALLORY, old.id)
    assert _key(outsider) == "after.error.rematch_not_player"
    with pytest.raises(Refusal) as elsewhere:
        await service.after.rematch(OTHER, BOB, old.id)
    assert _key(elsewhere) == "error.stale_button"
    assert await store.open_game_in(CHANNEL) is None  # nothing was opened

    outcome = await service.after.rematch(CHANNEL, BOB, old.id)
    new = await store.open_game_in(CHANNEL)
    assert new is not None and new.status == "running" and new.id != old.id
    assert [s.user_id for s in new.seats] == [uid for uid, _, _ in rotated(old)]
    assert [s.user_id for s in new.seats] == [s.user_id for s in old.seats[1:] + old.seats[:1]]
    assert new.options == old.options == {"style": "fancy", "deadline": "none", "absent": "3"}
    assert new.seed != old.seed
    assert (new.language, new.guild_id, new.creator_id) == (old.language, old.guild_id, BOB.id)
    assert outcome.news.lines[0].key == "after.rematch_started"
    assert "lobby.started" in [line.key for line in outcome.news.lines]
    assert sorted(outcome.news.ping) == sorted(p.id for p in players)  # everyone is awaited
    assert [s.colour for s in new.seats] == [s.colour for s in old.seats]  # colours by seat

    with pytest.raises(Refusal) as busy:
        await service.after.rematch(CHANNEL, CAROL, old.id)
    assert _key(busy) == "after.error.rematch_busy"
    with pytest.raises(Refusal) as unfinished:
        await service.after.rematch(CHANNEL, CAROL, new.id)
    assert _key(unfinished) == "error.stale_button"
    # the rematch plays to its end, and offers a rematch of its own
    played = Played()
    await play_out(service, CHANNEL, players, random.Random(9), clock, played)
    assert played.final is not None
    assert [c.kind for c in played.final.news.choices] == [ChoiceKind.REMATCH]


async def _resigned_and_finished(
    service: GameService, clock: Clock, players: tuple[Player, ...], leaver: Player
) -> Any:
    played = await start_game(service, CHANNEL, "relay", players, seed=3)
    await play_out(service, CHANNEL, players, random.Random(3), clock, played, stop_after=3)
    await service.seats.resign(CHANNEL, leaver, confirmed=True)
    await play_out(service, CHANNEL, players, random.Random(4), clock, played)
    old = await service.store.latest_game_in(CHANNEL)
    assert old is not None and old.status == "finished"
    assert [s.status for s in old.seats if s.user_id == leaver.id] == ["resigned"]
    return old


@BOTH_BACKENDS
async def test_a_rematch_does_not_seat_a_player_who_resigned(
    service: GameService, store: Store, clock: Clock
) -> None:
    old = await _resigned_and_finished(service, clock, (ALICE, BOB, CAROL), CAROL)
    outcome = await service.after.rematch(CHANNEL, BOB, old.id)
    new = await store.open_game_in(CHANNEL)
    assert new is not None and new.status == "running"
    kept = [uid for uid, _, _ in rotated(old) if uid != CAROL.id]
    assert [s.user_id for s in new.seats] == kept and len(kept) == 2  # rotated, CAROL left out
    keys = [line.key for line in outcome.news.lines]
    assert keys[:2] == ["after.rematch_started", "after.rematch_without"]
    assert outcome.news.lines[1].params["players"] == CAROL.name
    assert CAROL.id not in outcome.news.ping


@BOTH_BACKENDS
async def test_a_player_who_resigned_may_ask_for_the_rematch_themselves(
    service: GameService, store: Store, clock: Clock
) -> None:
    old = await _resigned_and_finished(service, clock, (ALICE, BOB, CAROL), CAROL)
    outcome = await service.after.rematch(CHANNEL, CAROL, old.id)
    new = await store.open_game_in(CHANNEL)
    assert new is not None and sorted(s.user_id for s in new.seats) == sorted(
        p.id for p in (ALICE, BOB, CAROL)
    )
    assert "after.rematch_without" not in [line.key for line in outcome.news.lines]


@BOTH_BACKENDS
async def test_too_few_players_left_for_a_rematch_leave_it_a_lobby(
    service: GameService, store: Store, clock: Clock
) -> None:
    old = await _resigned_and_finished(service, clock, (ALICE, BOB), BOB)
    outcome = await service.after.rematch(CHANNEL, ALICE, old.id)
    new = await store.open_game_in(CHANNEL)
    assert new is not None and new.status == "lobby"
    assert [s.user_id for s in new.seats] == [ALICE.id] and new.creator_id == ALICE.id
    assert [line.key for line in outcome.news.lines] == [
        "after.rematch_lobby",
        "after.rematch_without",
    ]
    assert outcome.news.lines[0].params["min"] == 2 and outcome.news.ping == []
    await service.lobby.join(CHANNEL, DAVE)
    started = await service.lobby.start(CHANNEL, ALICE)
    assert "lobby.started" in [line.key for line in started.news.lines]


# -- statistics -----------------------------------------------------------------------


def _lines(outcome: Any) -> list[str]:
    return [line.render("en") for line in outcome.reply.lines]


@BOTH_BACKENDS
async def test_stats_count_finished_games_once_and_never_abandoned_ones(
    service: GameService, store: Store, clock: Clock
) -> None:
    assert _lines(await service.after.stats(GUILD)) == [t("en", "after.stats.none")]
    await _finished(service, clock, "oracle", (ALICE, BOB, CAROL), seed=1)
    await _finished(service, clock, "relay", (BOB, DAVE), channel=OTHER, seed=4)
    first = await store.latest_game_in(CHANNEL)
    second = await store.latest_game_in(OTHER)
    assert first is not None and second is not None
    # a game in another server does not count here
    await _finished(service, clock, "oracle", (ALICE, BOB), channel=7003, guild=2, seed=6)
    # an abandoned game never counts, even one that was played
    played = await start_game(service, 7004, "oracle", (ALICE, CAROL), seed=8)
    await play_out(service, 7004, (ALICE, CAROL), random.Random(8), clock, played, stop_after=6)
    await service.lobby.abandon(7004, ALICE, can_manage_channel=False, confirmed=True)

    def expected(user: Player, *rows: Any) -> tuple[int, int, float]:
        places = [r.seat_of(user.id).place for r in rows if r.seat_of(user.id) is not None]
        return len(places), sum(p == 1 for p in places), sum(places) / len(places)

    results = await store.guild_results(GUILD)
    assert results.games == {"oracle": 1, "relay": 1}
    by = {(r.game_type, r.user_id): (r.played, r.wins, r.average_place) for r in results.players}
    assert by == {
        ("oracle", ALICE.id): expected(ALICE, first),
        ("oracle", BOB.id): expected(BOB, first),
        ("oracle", CAROL.id): expected(CAROL, first),
        ("relay", BOB.id): expected(BOB, second),
        ("relay", DAVE.id): expected(DAVE, second),
    }
    shown = _lines(await service.after.stats(GUILD))
    assert shown[0] == t("en", "after.stats.header")
    assert t("en", "after.stats.game", game=t("en", "oracle.title"), count=1) in shown
    assert any(line.startswith("1. ") for line in shown)
    member = _lines(await service.after.stats(GUILD, BOB))
    assert member[0] == t("en", "after.stats.member_header", player="Bob")
    assert len(member) == 3  # oracle and relay
    assert _lines(await service.after.stats(GUILD, MALLORY)) == [
        t("en", "after.stats.member_none", player="Mallory")
    ]

    # the final step again (a retried click, a double delivery): refused, nothing counted twice
    last = (await store.moves(first.id, last=1))[0]
    with pytest.raises(Refusal):
        await service.play.act(CHANNEL, Player(first.seats[last.seat].user_id, "x"), last.action)
    assert await store.guild_results(GUILD) == results
    # a restart: a new service on the same database file counts the same
    path = store.path
    await store.close()
    reopened = await Store.open(path)
    try:
        again = GameService(reopened, REGISTRY, render=False, clock=clock)
        assert await reopened.guild_results(GUILD) == results
        assert _lines(await again.after.stats(GUILD)) == shown
    finally:
        await reopened.close()


async def test_stats_list_the_best_players_of_a_game_first(store: Store) -> None:
    service = GameService(store, REGISTRY, render=False)
    people = [Player(2000 + n, f"P{n:02d}") for n in range(12)]

    def unit(db: Any) -> None:
        for n, person in enumerate(people):
            db.execute(
                "INSERT INTO games (guild_id, channel_id, game_type, status, creator_id, seed,"
                " created_at, updated_at) VALUES (1, ?, 'oracle', 'finished', ?, 1, 0, 0)",
                (9000 + n, person.id),
            )
            game_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
            db.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, place, score)"
                " VALUES (?, 0, ?, ?, 0, ?, 0)",
                (game_id, person.id, person.name, 1 if n < 3 else 2),
            )

    await store.write(unit)
    shown = _lines(await service.after.stats(1))
    assert shown[1] == t("en", "after.stats.game", game=t("en", "oracle.title"), count=12)
    assert [line.split(":")[0] for line in shown[2:5]] == ["1. P00", "2. P01", "3. P02"]
    assert len(shown) == 2 + 10 + 1
    assert shown[-1] == t("en", "after.stats.more", count=2)


# -- the animation and the record file -------------------------------------------------


def _boards(count: int) -> list[bytes]:
    pngs = []
    for n in range(count):
        image = Image.new("RGB", (300, 200 + 10 * (n % 3)), "#203040")
        image.paste((200, 40 + 6 * n, 90), (10 + 7 * n, 20, 60 + 7 * n, 120))
        for x in range(0, 300, 3):  # detail that does not compress away
            image.putpixel((x, 150 + n % 40), (x % 256, (x * 7 + n) % 256, 128))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        pngs.append(buffer.getvalue())
    return pngs


def test_the_animation_keeps_every_board_exactly_when_it_fits() -> None:
    pngs = _boards(8)
    animation = animate(pngs)
    assert animation is not None
    assert (animation.frames, animation.boards, animation.scale) == (8, 8, 1.0)
    gif = Image.open(io.BytesIO(animation.data))
    assert gif.n_frames == 8 and gif.info.get("loop") == 0
    for index, png in enumerate(pngs):
        gif.seek(index)
        board = Image.open(io.BytesIO(png)).convert("RGB")
        frame = gif.convert("RGB")
        assert frame.size == (300, 220)  # boards of different heights share the tallest canvas
        left = (frame.width - board.width) // 2
        region = frame.crop((left, 0, left + board.width, board.height))
        assert ImageChops.difference(region, board).getbbox() is None


def test_the_animation_shrinks_then_thins_to_fit_its_budget() -> None:
    pngs = _boards(40)
    full = animate(pngs)
    assert full is not None
    budget = len(full.data) // 2
    smaller = animate(pngs, budget)
    assert smaller is not None and len(smaller.data) <= budget
    assert smaller.scale < 1.0
    tight = animate(pngs, len(full.data) // 12)
    assert tight is not None and len(tight.data) <= len(full.data) // 12
    assert tight.frames < 40 and tight.scale == 0.5
    gif = Image.open(io.BytesIO(tight.data))
    assert gif.n_frames == tight.frames
    assert animate(pngs, 200) is None  # not even the start and the end fit
    assert animate([]) is None


def _record(**changes: Any) -> bytes:
    doc: dict[str, Any] = {
        "format": "ziggurat-game",
        "version": 1,
        "game": "relay",
        "seed": 4,
        "options": {},
        "language": "en",
        "seats": [
            {"seat": 0, "name": "Alice", "colour": "#f1a208"},
            {"seat": 1, "name": "Bob", "colour": "#9b59b6"},
        ],
        "moves": [{"seq": 1, "seat": 0, "action": "step 1", "kind": "move", "checkpoint": False}],
    }
    doc.update(changes)
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"\xff\xfe", "after.replay.not_json"),
        (b"{", "after.replay.not_json"),
        (b"[]", "after.replay.not_a_record"),
        (_record(format="other"), "after.replay.not_a_record"),
        (_record(version=2), "after.replay.bad_version"),
        (_record(game="chess"), "after.replay.unknown_game"),
        (_record(seed="4"), "after.replay.bad_field"),
        (_record(seed=True), "after.replay.bad_field"),
        (_record(options={"style": 3}), "after.replay.bad_field"),
        (_record(game="oracle", options={"style": "loud"}), "after.replay.bad_options"),
        (_record(seats=[]), "after.replay.bad_field"),
        (_record(seats=[{"seat": 0, "name": "A", "colour": "red"}]), "after.replay.bad_field"),
        (
            _record(seats=[{"seat": 0, "name": "A", "colour": "#000000"}]),
            "after.replay.bad_players",
        ),
        (_record(moves="all"), "after.replay.bad_field"),
        (_record(moves=[{"seq": 1, "seat": 5, "action": "end"}]), "after.replay.bad_field"),
        (_record(moves=[{"seq": 0, "seat": 0, "action": "end"}]), "after.replay.bad_field"),
        (_record(moves=[{"seq": 1, "seat": 0, "action": ""}]), "after.replay.bad_field"),
        (
            _record(moves=[{"seq": 1, "seat": 0, "action": "x", "checkpoint": 1}]),
            "after.replay.bad_field",
        ),
    ],
)
def test_a_bad_record_is_refused_with_one_line(data: bytes, key: str) -> None:
    with pytest.raises(RecordError) as refused:
        parse_record(data, REGISTRY)
    assert refused.value.text.key == key
    assert "\n" not in str(refused.value) and str(refused.value) != key


@pytest.mark.parametrize("action", ["fly 3", "step 9"])
def test_a_record_whose_move_the_rules_refuse_does_not_replay(action: str) -> None:
    record = parse_record(_record(moves=[{"seq": 1, "seat": 0, "action": action}]), REGISTRY)
    with pytest.raises(RecordError) as refused:
        boards(REGISTRY["relay"].engine, 2, record.options, record.seed, record.moves)
    assert refused.value.text.key == "after.replay.bad_move"
    assert "move 1" in str(refused.value) and "\n" not in str(refused.value)


async def test_a_game_that_no_longer_replays_is_refused_without_logging_its_moves(
    service: GameService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    def unit(db: Any) -> None:
        db.execute(
            "INSERT INTO games (guild_id, channel_id, game_type, status, creator_id, seed, state,"
            " created_at, updated_at, published_seq, last_seq)"
            " VALUES (1, ?, 'relay', 'finished', ?, 1, '{}', 0, 0, 1, 1)",
            (CHANNEL, ALICE.id),
        )
        game_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        for seat, player in enumerate((ALICE, BOB)):
            db.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at)"
                " VALUES (?, ?, ?, ?, 0)",
                (game_id, seat, player.id, player.name),
            )
        db.execute(
            "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (?, 1, 0, ?, 0)",
            (game_id, "step 3 secret"),
        )

    await store.write(unit)
    with pytest.raises(Refusal) as refused:
        await service.after.export(CHANNEL)
    assert _key(refused) == "after.error.export_replay"
    assert "secret" not in caplog.text and "no longer replays" in caplog.text
