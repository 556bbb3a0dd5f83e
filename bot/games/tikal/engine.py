"""The :class:`~bot.games.base.GameEngine` object for Tikal."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import (
    Event,
    GameEngine,
    OptionSpec,
    Result,
    RuleError,
    SeatColour,
    Suggestion,
    TurnShape,
)
from bot.games.tikal import (
    actions,
    flow,
    legal,
    rotations,
    rules,
    scoring,
    state,
    suggest,
    turns,
    views,
    words,
)
from bot.games.tikal.actions import SEAT_COLOURS
from bot.games.tikal.board import space_name
from bot.games.tikal.components import MODE_NAMES
from bot.games.tikal.computer import TikalBrain
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PLACE,
    SCORING_TURNS,
    GameState,
)

#: the position of the ``/rules`` pictures: this seed, this many self-play steps
EXAMPLE_SEED = 2024
EXAMPLE_STEPS = 90
#: how many bid amounts the bidder's buttons offer after "pass"
BID_BUTTONS = 4
MINI = "mini"
#: the seats' colours on the board (readable on every terrain, outlined in the image)
COLOUR_HEX = {"red": "#d9342b", "blue": "#2f6fde", "yellow": "#f2c418", "white": "#f4f1ea"}
#: Event keys of steps that reveal something (a drawn hex, a new auction row, a token)
REVEALING = ("tikal.event.drew", "tikal.event.revealed", "tikal.event.recovered")


class TikalEngine(GameEngine[GameState, actions.Action]):
    """Tikal for 2 to 4 players (base game, auction variant, Mini-Tikal for 2).

    Undo: steps inside a turn may be taken back (laying the hex, moving,
    digging, camps, guards, exchanges, picking an auction hex); a recovered
    token, every bid and pass, and ``end`` (it scores, hands over and draws
    or reveals) are checkpoints.
    """

    name = "tikal"
    title_key = "tikal.title"
    help_key = "tikal.help"
    min_players = 2
    max_players = 4
    turns = TurnShape.SEQUENTIAL
    has_private_view = False
    seat_colours = tuple(
        SeatColour(COLOUR_HEX[colour], f"tikal.colour.{colour}") for colour in SEAT_COLOURS
    )
    options = (OptionSpec("mode", MODE_NAMES, "tikal.option.mode"),)
    verbs = actions.VERBS
    #: a hex's rotation is chosen beside a picture of it (rotations)
    pictured = frozenset({("place", "rotation")})
    #: a move's destinations are listed cheapest first
    ranked = frozenset({("move", "target")})
    #: an auction's hex is taken and its space chosen in one tap
    chains = True

    def player_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """Mini-Tikal is for exactly 2 players."""
        if options.get("mode") == MINI:
            return 2, 2
        return self.min_players, self.max_players

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> GameState:
        mode = options.get("mode", self.options[0].default)
        if mode not in MODE_NAMES:
            raise RuleError("tikal.error.bad_option", name="mode", value=mode)
        low, high = self.player_range({"mode": mode})
        if not low <= seats <= high:
            raise RuleError("tikal.error.player_count", min=low, max=high)
        return turns.new_game(seats, mode, seed)

    def waiting_for(self, game: GameState) -> set[int]:
        return rules.waiting_for(game)

    def apply(self, game: GameState, seat: int, action: actions.Action) -> list[Event]:
        return flow.apply(game, seat, action)

    def up_next(self, game: GameState) -> int | None:
        """Who plays after the current turn, when public information alone says so.

        A scoring round's queue is public; in the base game the next seat
        clockwise draws next (even a volcano: the drawer plays first). Unknown:
        who wins the next auction, and the final round's order once the stack
        is empty (it depends on the scores when it starts).
        """
        turn = game.turn
        if game.phase == PHASE_OVER or turn is None:
            return None
        if game.queue:
            return game.queue[0][1]
        if turn.kind in SCORING_TURNS or game.auction_mode or not game.stack:
            return None
        return (turn.seat + 1) % game.seats

    def legal_actions(self, game: GameState, seat: int) -> list[actions.Action]:
        return legal.legal_actions(game, seat)

    def focus(self, game: GameState, seat: int) -> list[str]:
        """Where the seat can act: the spaces of its legal actions (a hex to lay, a
        figure to enter, move from, dig, recover, camp or guard at), not where a move
        may lead (that spreads over the whole map)."""
        spaces: dict[str, None] = {}
        for action in legal.legal_actions(game, seat):
            for name in ("space", "origin"):
                value = getattr(action, name, None)
                if value is not None:
                    spaces[space_name(value)] = None
        return list(spaces)

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
        """Generated per parameter, with costs and consequences in the labels (so
        ``legal`` is not needed)."""
        return suggest.legal_values(game, seat, verb, param, chosen)

    def public_view(self, game: GameState) -> dict[str, Any]:
        return views.public_view(game)

    def rules_examples(self) -> dict[str, Any]:
        """The board of a three-player base game after :data:`EXAMPLE_STEPS` steps
        of the seeded self-play player (it builds, digs and scores as a player
        would): the annotated board and the temple-scoring example."""
        from bot.games.tikal.selfplay import choose

        game = self.new_game(3, {}, EXAMPLE_SEED)
        chooser = random.Random(EXAMPLE_SEED)
        for _ in range(EXAMPLE_STEPS):
            if game.phase == PHASE_OVER:
                break
            (seat,) = rules.waiting_for(game)
            flow.apply(game, seat, choose(game, seat, chooser))
        view = self.public_view(game)
        return {"board": view, "scoring": view}

    def result(self, game: GameState) -> Result | None:
        if game.phase != PHASE_OVER:
            return None
        return scoring.ranking(game)

    def dump_state(self, game: GameState) -> dict[str, Any]:
        return state.dump_state(game)

    def load_state(self, data: Any) -> GameState:
        return state.load_state(data)

    def parse_action(self, text: str) -> actions.Action:
        return actions.parse_action(text)

    # -- hooks -----------------------------------------------------------------------

    def computer(self) -> TikalBrain:
        """The computer player (:mod:`bot.games.tikal.computer`)."""
        return TikalBrain(self)

    def turn_number(self, game: GameState) -> int:
        """Counts the turns ended: a seat that plays two turns in a row (a last
        placer first in the final scoring) hands over between them. Bids and the
        pick of an auction are not turns; the pick starts the winner's turn."""
        return game.turns_done

    def prompt(self, game: GameState) -> tuple[str, Mapping[str, Any]] | None:
        return views.prompt(game)

    def step_summary(self, game: GameState, seat: int) -> tuple[str, Mapping[str, Any]] | None:
        return views.step_summary(game, seat)

    def representative(self, game: GameState, action: actions.Action) -> actions.Action:
        """A hex turned to the same stones is one placement (``rotations``)."""
        return rotations.representative(game, action)

    def picture(
        self, game: GameState, seat: int, verb: str, chosen: Mapping[str, str]
    ) -> dict[str, Any] | None:
        """The hex in hand on the chosen space, in each distinct rotation."""
        if verb != "place" or seat not in rules.waiting_for(game):
            return None
        try:
            space = actions.SPACE.parse(chosen.get("space", ""))
        except (ValueError, KeyError, IndexError):
            return None
        return rotations.picture(game, space)

    def end_turn_action(self, game: GameState, seat: int) -> actions.Action | None:
        """``end`` while ``seat`` spends action points."""
        turn = game.turn
        if game.phase == PHASE_ACTIONS and turn is not None and turn.seat == seat:
            return actions.End()
        return None

    def only_end_turn(self, game: GameState, seat: int) -> actions.Action | None:
        """``end`` when no other action is legal, found without listing them all: each
        verb stops at its first legal action (:func:`legal.only_end`)."""
        end = self.end_turn_action(game, seat)
        return end if end is not None and legal.only_end(game, seat) else None

    def calm(self, game: GameState, seat: int, action: actions.Action) -> bool:
        """Every step of every mode: the rules never search; a step's work (a
        move's paths, a scoring round's majorities, an auction's bid) is bounded
        by the board's hexes."""
        return True

    def is_checkpoint(
        self, game: GameState, seat: int, action: actions.Action, events: Sequence[Event]
    ) -> bool:
        """Drawing, revealing, recovering, bidding and ending a turn cannot be undone."""
        if isinstance(action, actions.End | actions.Recover | actions.Bid | actions.Pass):
            return True
        return any(event.key in REVEALING for event in events)

    def told_in_place(self, game: GameState) -> bool:
        """An auction still open after a bid or a pass: its bids are told by one message
        that each bid replaces; the board comes when a seat wins the turn."""
        return game.phase == PHASE_BID

    def public_choices(self, game: GameState, seat: int) -> list[actions.Action]:
        """The auction winner's pick among the revealed hexes (public anyway)."""
        if game.phase == PHASE_PICK and seat in rules.waiting_for(game):
            return legal.actions_for(game, seat, "pick")
        return []

    def private_choices(self, game: GameState, seat: int) -> list[actions.Action]:
        """The bidder's buttons: pass, then the next few legal amounts."""
        if game.phase != PHASE_BID or seat not in rules.waiting_for(game):
            return []
        bids = legal.actions_for(game, seat, "bid")[:BID_BUTTONS]
        return [actions.Pass(), *bids]

    def describe(
        self, action: actions.Action, public: bool = True
    ) -> tuple[str, Mapping[str, Any]]:
        """The action in words (see ``words``)."""
        return words.describe(action, public)

    def choice_label(self, action: actions.Action) -> tuple[str, Mapping[str, Any]]:
        return views.choice_label(action)

    def timeout_action(self, game: GameState, seat: int) -> actions.Action | None:
        """A late player passes a bid, picks the first hex, lays it on the first legal
        space and rotation, and ends the turn: the same from public information for
        everyone, so it tells nothing."""
        if seat not in rules.waiting_for(game):
            return None
        if game.phase == PHASE_BID:
            return actions.Pass()
        if game.phase == PHASE_PICK:
            return actions.Pick(1)
        if game.phase == PHASE_PLACE:
            places = legal.actions_for(game, seat, "place")
            return places[0] if places else None
        return actions.End()

    def timeout_actions(self, game: GameState, deadline: str) -> list[tuple[int, actions.Action]]:
        """Each late seat's steps until the game no longer waits for it (pick, lay, end)."""
        late: list[tuple[int, actions.Action]] = []
        for seat in sorted(rules.waiting_for(game)):
            trial = state.copy_state(game)
            for _ in range(4):
                if seat not in rules.waiting_for(trial):
                    break
                action = self.timeout_action(trial, seat)
                if action is None:
                    break
                flow.apply(trial, seat, action)
                late.append((seat, action))
        return late


ENGINE = TikalEngine()
