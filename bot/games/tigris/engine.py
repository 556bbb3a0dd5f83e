"""The :class:`~bot.games.base.GameEngine` object for Tigris & Euphrates."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games.base import Event, GameEngine, OptionSpec, Result, RuleError, Suggestion
from bot.games.tigris import actions, flow, news, picking, rules, scoring, state, views, words
from bot.games.tigris.components import COLOURS
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_MONUMENT,
    PHASE_OVER,
    PHASE_REVOLT,
    PHASE_WAR,
    PHASE_WAR_ORDER,
    GameState,
)

if TYPE_CHECKING:
    from bot.games.computer import Brain


#: the position of the ``/rules`` pictures: this seed, this many random legal steps
EXAMPLE_SEED = 2024
EXAMPLE_STEPS = 40


class TigrisEngine(GameEngine[GameState, actions.Action]):
    """Tigris & Euphrates for 2 to 4 players; see the package docstring.

    Undo: a step may be taken back while the same player goes on acting in
    the same turn; a swap (it draws), any step that shows the player new
    tiles and a conflict's support (it shows the tiles committed; the
    defender's decides the conflict) are checkpoints, and so is every
    hand-over (a conflict's defender, the next turn).
    """

    name = "tigris"
    title_key = "tigris.title"
    help_key = "tigris.help"
    min_players = 2
    max_players = 4
    has_private_view = True
    options = (OptionSpec("scoring", ("hidden", "open"), "tigris.option.scoring"),)
    verbs = actions.VERBS

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> GameState:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError("tigris.error.player_count", min=self.min_players, max=self.max_players)
        scoring_mode = options.get("scoring", self.options[0].default)
        if scoring_mode not in self.options[0].choices:
            raise RuleError("tigris.error.bad_option", name="scoring", value=scoring_mode)
        return state.new_state(seats, scoring_mode, seed)

    def waiting_for(self, game: GameState) -> set[int]:
        return rules.waiting_for(game)

    def apply(self, game: GameState, seat: int, action: actions.Action) -> list[Event]:
        return flow.apply(game, seat, action)

    def legal_actions(self, game: GameState, seat: int) -> list[actions.Action]:
        return rules.legal_actions(game, seat)

    def calm(self, game: GameState, seat: int, action: actions.Action) -> bool:
        """Every step: the rules never search; a step's work (a kingdom's flood fill,
        a conflict, a monument, scoring) is bounded by the 16 x 11 board."""
        return True

    def public_view(self, game: GameState) -> dict[str, Any]:
        return views.public_view(game)

    def rules_examples(self) -> dict[str, Any]:
        """The board after :data:`EXAMPLE_STEPS` seeded random legal steps of a
        three-player game, and the first seat's hand and points there."""
        game = self.new_game(3, {}, EXAMPLE_SEED)
        chooser = random.Random(EXAMPLE_SEED)
        for _ in range(EXAMPLE_STEPS):
            if self.result(game) is not None:
                break
            seat = min(self.waiting_for(game))
            self.apply(game, seat, chooser.choice(self.legal_actions(game, seat)))
        return {"board": self.public_view(game), "scoring": self.private_view(game, 0)}

    def private_view(self, game: GameState, seat: int) -> dict[str, Any]:
        return views.private_view(game, seat)

    def private_news(
        self, before: Mapping[str, Any] | None, after: Mapping[str, Any]
    ) -> list[tuple[str, Mapping[str, Any]]]:
        """The hand, points, treasures and catastrophe tiles that changed (:mod:`.news`)."""
        return news.private_news(before, after)

    def public_choices(self, game: GameState, seat: int) -> list[actions.Action]:
        """The buttons everyone sees for ``seat``'s decision.

        Support is offered from 0 to the seat's hand size (public), not up to
        the tiles of the conflict's colour it holds (secret); the engine
        refuses a count the hand cannot cover. A full turn gets no buttons
        (its moves spell out the hand). War order, treasures and monuments
        follow from the board, so their legal actions are the buttons.
        """
        if seat not in rules.waiting_for(game) or game.phase == PHASE_ACTION:
            return []
        if game.phase in (PHASE_REVOLT, PHASE_WAR):
            return [actions.Support(n) for n in range(len(game.players[seat].hand) + 1)]
        return rules.legal_actions(game, seat)

    def describe(
        self, action: actions.Action, public: bool = True
    ) -> tuple[str, Mapping[str, Any]]:
        """The action in words (see ``words``)."""
        return words.describe(action, public)

    def choice_label(self, action: actions.Action) -> tuple[str, dict[str, Any]]:
        """A decision button's label in words."""
        return views.choice_label(action)

    def public_notation(self, action: actions.Action) -> str:
        """How others see an action (a swap hides its tiles)."""
        return actions.public_notation(action)

    def prompt(self, game: GameState) -> tuple[str, dict[str, Any]] | None:
        """The i18n key and params of the current question."""
        return views.prompt(game)

    def is_checkpoint(
        self, game: GameState, seat: int, action: actions.Action, events: Sequence[Event]
    ) -> bool:
        """A swap draws tiles; a step with a private event showed the player new tiles;
        a conflict's support shows the tiles committed from the hand (the defender's
        ends the conflict before everyone)."""
        if isinstance(action, actions.Swap | actions.Support):
            return True
        return any(e.private_to is not None for e in events)

    def timeout_action(self, game: GameState, seat: int) -> actions.Action | None:
        """What a late seat plays; it leaks nothing: pass in its turn, support 0 in a
        conflict, the first war in the fixed colour order, the first treasure choice
        (all are public), no monument."""
        if seat not in rules.waiting_for(game):
            return None
        if game.phase == PHASE_ACTION:
            return actions.Pass()
        if game.phase in (PHASE_REVOLT, PHASE_WAR):
            return actions.Support(0)
        if game.phase == PHASE_WAR_ORDER:
            first = min(game.wars, key=COLOURS.index)
            return actions.ChooseWar(first)
        if game.phase == PHASE_MONUMENT:
            return actions.Decline()
        legal = rules.legal_actions(game, seat)
        return legal[0] if legal else None

    def auto_action(self, game: GameState, seat: int) -> actions.Action | None:
        """Support 0 when the conflict is decided on public information alone: even the
        seat's whole hand (its size is public) could not change who wins."""
        conflict = game.conflict
        if (
            conflict is None
            or game.phase not in (PHASE_REVOLT, PHASE_WAR)
            or seat not in rules.waiting_for(game)
        ):
            return None
        hand = len(game.players[seat].hand)
        if seat == conflict.attacker:
            other_most = len(game.players[conflict.defender].hand)
            worst = conflict.attacker_base - (conflict.defender_base + other_most)
            best = conflict.attacker_base + hand - conflict.defender_base
            decided = worst > 0 or best <= 0  # wins whatever, or loses whatever (ties lose)
        else:
            attack = conflict.attacker_base + (conflict.attacker_committed or 0)
            decided = conflict.defender_base + hand < attack or conflict.defender_base >= attack
        return actions.Support(0) if decided else None

    def legal_values(
        self,
        game: GameState,
        seat: int,
        verb: str,
        param: str,
        chosen: Mapping[str, str],
        *,
        legal: Sequence[actions.Action] | None = None,
    ) -> list[Suggestion]:
        """As the default, with the picker's short labels (``picking``)."""
        found = super().legal_values(game, seat, verb, param, chosen, legal=legal)
        return picking.shortened(game, seat, verb, param, found)

    def value_groups(
        self, game: GameState, seat: int, verb: str, param: str, words: Sequence[str]
    ) -> list[tuple[tuple[str, Mapping[str, Any]], list[str]]] | None:
        """Squares by the kingdom they act on (``picking.grouped``)."""
        found = picking.grouped(game, seat, param, words)
        if found is None:
            return None
        return [(header, members) for header, members in found]

    def turn_number(self, game: GameState) -> int:
        """Counts the turns: conflicts inside a turn keep its number."""
        return game.turn_number

    def up_next(self, game: GameState) -> int | None:
        """After a turn, the next seat in order (conflicts may interrupt, never reorder)."""
        if game.phase == PHASE_OVER:
            return None
        return (game.active + 1) % len(game.players)

    def result(self, game: GameState) -> Result | None:
        if game.phase != PHASE_OVER:
            return None
        return scoring.ranking(game)

    def computer(self) -> Brain[GameState, actions.Action]:
        """The computer player (:mod:`bot.games.tigris.computer`)."""
        from bot.games.tigris.computer import TigrisBrain

        return TigrisBrain(self)

    def dump_state(self, game: GameState) -> dict[str, Any]:
        return state.dump_state(game)

    def load_state(self, data: dict[str, Any]) -> GameState:
        return state.load_state(data)


ENGINE = TigrisEngine()
