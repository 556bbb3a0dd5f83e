"""Every parser refuses with a reason and never crashes, in any script or digit system.

For every registered game: arbitrary text as a whole notation, and arbitrary
text in each option of each generated command (as Discord would deliver it),
gives either an action or a :class:`~bot.games.base.RuleError` — never another
exception. Autocomplete with arbitrary values already chosen answers a list.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games, plugins
from bot.discord.cogs.games import option_word
from bot.games import notation
from bot.games.base import GameEngine, RuleError

plugins.load_builtin_games()
ENGINES = sorted(games.REGISTRY.items())
TEXT = st.text(alphabet=st.characters(), max_size=60)
#: words that look like notation: digits of other scripts, superscripts, signs
TRICKY = st.sampled_from(["²", "١٢", "５", "-1", "+3", "0x1", "1e3", "٣", "𝟙", "Ⅻ", "", " "])
WORDS = st.one_of(TEXT, TRICKY, st.integers(-(10**30), 10**30).map(str))


def _parse(engine: GameEngine, text: str) -> None:
    try:
        action = engine.parse_action(text)
    except RuleError as error:
        assert error.key  # a reason, from the catalog
        return
    assert engine.parse_action(str(action)) == action  # what parses, round-trips


@pytest.mark.parametrize("name,game_type", ENGINES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(TEXT, WORDS))
def test_arbitrary_notation_is_an_action_or_a_refusal(name, game_type, text: str) -> None:
    _parse(game_type.engine, text)


@pytest.mark.parametrize("name,game_type", ENGINES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_arbitrary_slash_options_are_an_action_or_a_refusal(name, game_type, data) -> None:
    engine = game_type.engine
    for verb in engine.verbs.verbs.values():
        values = {p.name: data.draw(WORDS) for p in verb.params}
        _parse(engine, verb.spell(option_word(values[p.name]) for p in verb.params))


@pytest.mark.slow_except(
    "oracle-game_type0", "relay-game_type1", "tikal-game_type4", "tigris-game_type3"
)
@pytest.mark.parametrize("name,game_type", ENGINES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_autocomplete_with_arbitrary_choices_answers_a_list(name, game_type, data) -> None:
    engine = game_type.engine
    state = engine.new_game(engine.min_players, {}, data.draw(st.integers(0, 2**31 - 1)))
    for seat in engine.waiting_for(state):
        for verb in engine.verbs.verbs.values():
            for param in verb.params:
                chosen = {p.name: data.draw(WORDS) for p in verb.params if p is not param}
                suggestions = engine.legal_values(state, seat, verb.name, param.name, chosen)
                assert isinstance(suggestions, list)


@pytest.mark.parametrize(("name", "game_type"), ENGINES, ids=[n for n, _ in ENGINES])
def test_a_table_remembers_what_it_parsed_as_frozen_values_and_nothing_refused(
    name, game_type, monkeypatch
) -> None:
    """An action parsed again is the object parsed before, equal to a fresh parse; every
    action class is a frozen dataclass (so sharing one is safe); a refused text is
    refused again, never remembered; a full memory starts again."""
    engine = game_type.engine
    table = engine.verbs
    for declared in table:
        assert dataclasses.is_dataclass(declared.action)
        assert declared.action.__dataclass_params__.frozen, declared.action
    state = engine.new_game(engine.min_players, {}, 3)
    seat = min(engine.waiting_for(state))
    texts = [str(action) for action in engine.legal_actions(state, seat)[:40]]
    assert texts
    monkeypatch.setattr(notation, "PARSED_MEMORY", len(texts))
    table._parsed.clear()
    first = [engine.parse_action(text) for text in texts]
    assert [engine.parse_action(text) for text in texts] == first
    assert all(a is b for a, b in zip(first, [engine.parse_action(t) for t in texts], strict=True))
    table._parsed.clear()  # forgotten: parsed afresh, to equal values
    assert [engine.parse_action(text) for text in texts] == first
    assert str(engine.parse_action(texts[0])) == texts[0]  # its notation, spelled once
    assert str(dataclasses.replace(first[0])) == str(first[0]) == texts[0]  # and afresh
    for _ in range(2):
        with pytest.raises(RuleError):
            engine.parse_action("zz-not-a-verb 1")
    assert "zz-not-a-verb 1" not in table._parsed
    engine.parse_action(texts[0] + " ")  # one more than the memory holds: it starts again
    assert len(table._parsed) == 1
