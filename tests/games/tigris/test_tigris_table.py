"""What the table may play for a Tigris & Euphrates seat: timeouts and automatic answers."""

from __future__ import annotations

from tigris_positions import play, position

from bot.games.tigris import ENGINE
from bot.games.tigris.actions import Pass, Support

REVOLT = {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"}


def test_a_late_turn_passes_and_a_late_supporter_commits_nothing() -> None:
    state = position(REVOLT, hands=[["red", "red"], ["red", "blue"]])
    assert ENGINE.timeout_action(state, 0) == Pass()
    assert ENGINE.timeout_action(state, 1) is None  # not its turn
    play(state, "leader farmer I4")  # a revolt: the attacker commits first
    assert ENGINE.timeout_action(state, 0) == Support(0)


def test_an_automatic_answer_only_when_the_conflict_is_decided_in_public() -> None:
    # the defender holds two tiles: committing could still turn the revolt (1+2 >= 1+1)
    state = position(REVOLT, hands=[["red", "red"], ["red", "blue"]])
    play(state, "leader farmer I4")
    assert ENGINE.auto_action(state, 0) is None  # the attacker's choice still matters
    play(state, "support 1")
    assert ENGINE.waiting_for(state) == {1}
    assert ENGINE.auto_action(state, 1) is None
    # the same, but the defender holds one tile against an attack of 3: lost whatever
    state = position(REVOLT, hands=[["red", "red"], ["blue"]])
    play(state, "leader farmer I4", "support 2")
    assert ENGINE.auto_action(state, 1) == Support(0)
    # and it never depends on what the hand holds, only on its size
    other = position(REVOLT, hands=[["red", "red"], ["red"]])
    play(other, "leader farmer I4", "support 2")
    assert ENGINE.auto_action(other, 1) == Support(0)


def test_the_next_seat_in_order_is_up_next() -> None:
    state = position(REVOLT, seats=3, active=1, hands=[["red"], ["red"], ["red"]])
    assert ENGINE.up_next(state) == 2
