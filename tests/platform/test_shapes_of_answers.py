"""The service's answer types refuse what cannot happen, and the notation has one speller.

An :class:`~bot.service.outcome.Outcome` is built from parts (:class:`Reply`,
:class:`News`, :class:`Step`) so that a ping or a tally has a message to go in; the
combinations the parts still allow but the game never makes are refused when built.
Words become notation in one place (:meth:`bot.games.notation.Verb.spell`), for an
action's ``str``, the slash options and the picker's taps alike.
"""

from __future__ import annotations

import pytest

from bot.discord.cogs.games import option_word
from bot.games.tigris.actions import Swap
from bot.i18n import Text
from bot.service import News, Outcome, Step, StepKind
from bot.service.pick_token import ITEM_SEP, NONE_WORD
from bot.service.picker import written


def test_an_interim_public_message_has_no_board() -> None:
    with pytest.raises(ValueError):
        News([Text("game.waiting_for")], board=b"png", interim=True)
    assert News([Text("game.waiting_for")], interim=True).board is None


def test_a_step_names_its_game_and_version_and_only_a_final_one_finishes() -> None:
    with pytest.raises(ValueError):
        Outcome(game_id=1, step=Step(StepKind.HANDOFF))  # no version
    with pytest.raises(ValueError):
        Outcome(game_id=1, version=3, step=Step(StepKind.FINAL))  # final, not finished
    with pytest.raises(ValueError):
        Outcome(game_id=1, version=3, step=Step(StepKind.HANDOFF), finished=True)
    ended = Outcome(game_id=1, version=3, step=Step(StepKind.FINAL), finished=True)
    assert ended.kind is StepKind.FINAL and ended.tally is None
    abandoned = Outcome(game_id=1, news=News([Text("lobby.abandoned")]), finished=True)
    assert abandoned.kind is None and abandoned.has_public and not abandoned.story


def test_an_outcome_without_news_has_nothing_public() -> None:
    quiet = Outcome(game_id=1)
    assert quiet.news is None and not quiet.has_public and not quiet.story
    assert not Outcome(news=News()).has_public


def test_the_action_the_options_and_the_taps_spell_the_same_notation() -> None:
    verb = Swap.VERB
    action = verb.build(["red", "blue"])
    assert str(action) == verb.spell(["red blue"]) == "swap red blue"
    assert verb.spell([option_word(" red blue ")]) == "swap red blue"
    assert verb.spell(written([f"red{ITEM_SEP}blue"])) == "swap red blue"
    assert verb.spell([option_word("  "), option_word(None)]) == "swap"
    assert verb.spell(written([NONE_WORD])) == "swap"
