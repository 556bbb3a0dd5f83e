"""Tigris & Euphrates through the service: decisions become buttons, secrets stay private."""

from __future__ import annotations

import random

import pytest

from bot import games, plugins
from bot.i18n import t
from bot.service import ChoiceKind, GameService, News, Player, StepKind
from tests.conftest import CHANNEL, GUILD

PLAYERS = [Player(201, "Ur"), Player(202, "Uruk"), Player(203, "Lagash")]


def _text(lines) -> str:
    return "\n".join(t("en", line.key, **line.params) for line in lines)


@pytest.mark.slow
async def test_decisions_offer_buttons_and_hands_never_go_public(service: GameService) -> None:
    plugins.load_builtin_games()
    engine = games.REGISTRY["tigris"].engine
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=PLAYERS[0], game_type_name="tigris", seed=11
    )
    for player in PLAYERS[1:]:
        await service.lobby.join(CHANNEL, player)
    outcome = await service.lobby.start(CHANNEL, PLAYERS[0])
    by_id = {p.id: p for p in PLAYERS}
    chooser = random.Random(4)
    decisions = 0
    while not outcome.finished:
        row = await service.store.latest_game_in(CHANNEL)
        state = engine.load_state(row.state)
        [seat] = engine.waiting_for(state)  # Tigris always waits for exactly one player
        user_id = row.seats[seat].user_id
        if outcome.kind is StepKind.HANDOFF:
            assert outcome.news.ping == [user_id]
        player = by_id[user_id]
        legal = [str(a) for a in await service.reading.legal_actions(CHANNEL, player)]
        # the engine's public choices, which cover every legal answer: on the public
        # message after a hand-off, on the player's own answer when they go on
        public_choices = [str(a) for a in engine.public_choices(state, seat)]
        buttons = (
            [c for c in (outcome.news or News()).choices if c.kind is ChoiceKind.ACT]
            if outcome.kind is not StepKind.CONTINUE
            else [c for c in outcome.reply.choices if c.kind is ChoiceKind.ACT]
        )
        if 1 < len(public_choices) <= 10:
            assert [c.action for c in buttons] == public_choices
            assert set(legal) <= set(public_choices)
            for choice in buttons:  # labels are words in every language
                for lang in ("en", "zh", "zh-TW", "ko"):
                    label = choice.label.render(lang)
                    assert label and "{" not in label and label != choice.label.key
                assert choice.label.key.startswith("tigris.choice."), choice.label.key
            decisions += 1
        else:
            assert [c for c in (outcome.news or News()).choices if c.kind is ChoiceKind.ACT] == []
        swap_texts = []
        for seat in row.seats:
            hand = engine.private_view(state, seat.seat)["hand"]
            swap_texts.append("swap " + " ".join(hand))
        public = _text((outcome.news or News()).lines)
        # nobody's hand is spelt out in public, and scores stay hidden
        assert not any(text in public for text in swap_texts if len(text.split()) > 3)
        public_keys = {line.key for line in (outcome.news or News()).lines}
        assert not public_keys & {"tigris.event.scored", "tigris.event.monument_points"}
        action = chooser.choice(legal)
        outcome = await service.play.act(CHANNEL, player, action)
        if action.startswith("swap"):
            assert action not in _text((outcome.news or News()).lines)
            if outcome.kind is not StepKind.CONTINUE:  # published: the log shows it face down
                log = await service.reading.log_lines(CHANNEL, 1)
                count = len(action.split()) - 1
                words = f"swap {count} {'tile' if count == 1 else 'tiles'}"  # in words, face down
                assert log.reply.lines[-1].params["action"].render("en") == words
    assert decisions > 0
