"""The :class:`~bot.games.base.GameEngine` object for Temple Rush.

How the simultaneous game maps onto the contract:

* **Round** (``phase == "round"``): ``waiting_for`` is every seat whose
  sealed submission is not complete; ``may_act`` is every seat (a seat that
  has submitted may change its submission until the round resolves); the
  deadline is ``round:<n>`` and its timeout action ``pass`` for each late
  seat (it completes the submission without changing its other parts).
* **Bonus** (``"bonus"``): ``waiting_for`` and ``may_act`` are the
  completers still choosing; ``private_choices`` are their ``bonus``
  buttons; deadline ``bonus:<n>``, timeout: the longest brick.
* **Race** (``"race"``): every seat that has not skipped; deadline
  ``race:<k>``; timeout ``skip`` for all (the card is discarded). Refused
  layouts are rate-limited by ``retry_cooldown``.

Decisions:

* Nothing may be undone (every step is a checkpoint): a sealed submission
  can be replaced instead, and everything else reveals or draws.
* Lobby options: ``deadline`` (24h, 12h, 48h, 4h, 1h; the first is the
  default) sets every clock of the game — a round, a bonus choice and a
  lightning race; ``joint`` (off, on) needs 3 or 4 players.
* A refused lightning layout costs a fixed :data:`LAYOUT_COOLDOWN` wait: the
  contract gives no count of earlier refusals, so the wait cannot grow.
* Public notation: every round part is shown as ``sealed`` (the reveal's
  events say what each seat did); bonus, race and joint actions as written.
  So the round's last part is told by its reveal (``reveals``), which names
  each seat's whole submission: its author's receipt is dropped there.
* Autocomplete never offers a lightning layout (the race is to find one);
  the move picker lets a seat enter one brick by brick (``layout_step``),
  offering every brick legal so far, never a solution.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games.base import (
    Deadline,
    Event,
    GameEngine,
    LayoutStep,
    OptionSpec,
    Result,
    RuleError,
    Suggestion,
    TurnShape,
)
from bot.games.temple import (
    actions,
    flow,
    joint,
    legal,
    news,
    picking,
    race,
    scoring,
    solver,
    state,
    views,
    words,
)
from bot.games.temple.actions import (
    SEALED,
    Action,
    Bonus,
    Cancel,
    Joint,
    Lightning,
    Pass,
    Skip,
)
from bot.games.temple.components import BRICKS, MAX_PLAYERS, MIN_PLAYERS, deadline_seconds
from bot.games.temple.computer import TempleBrain
from bot.games.temple.state import (
    PHASE_BONUS,
    PHASE_OVER,
    PHASE_RACE,
    PHASE_ROUND,
    GameState,
)
from bot.games.temple.submit import all_submitted, submit, updated

#: the seed of the ``/rules`` pictures' game
EXAMPLE_SEED = 2024

if TYPE_CHECKING:
    from bot.games.computer import Brain

#: the round deadlines offered, shortest first; 24 hours unless the lobby chose another
DEADLINES = ("1h", "4h", "12h", "24h", "48h")
DEFAULT_DEADLINE = "24h"
#: seconds a seat waits after a refused lightning layout
LAYOUT_COOLDOWN = 5.0


class TempleEngine(GameEngine[GameState, Action]):
    """Temple Rush for 2 to 4 players; see the package docstring."""

    name = "temple"
    title_key = "temple.title"
    help_key = "temple.help"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    turns = TurnShape.SIMULTANEOUS
    has_private_view = True
    options = (
        OptionSpec("deadline", DEADLINES, "temple.option.deadline", DEFAULT_DEADLINE),
        OptionSpec("joint", ("off", "on"), "temple.option.joint"),
    )
    verbs = actions.VERBS

    # -- setup -----------------------------------------------------------------

    def player_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """The joint last card needs 3 or 4 players."""
        return (3, MAX_PLAYERS) if options.get("joint") == "on" else (MIN_PLAYERS, MAX_PLAYERS)

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> GameState:
        for spec in self.options:
            value = options.get(spec.name, spec.default)
            if value not in spec.choices:
                raise RuleError("temple.error.bad_option", name=spec.name, value=value)
        low, high = self.player_range(options)
        if not low <= seats <= high:
            raise RuleError("temple.error.player_count", min=low, max=high)
        game, _ = flow.new_state(
            seats,
            seed,
            options.get("deadline", DEFAULT_DEADLINE),
            options.get("joint", "off") == "on",
        )
        return game

    # -- the rules -------------------------------------------------------------

    def waiting_for(self, game: GameState) -> set[int]:
        return game.awaited()

    def may_act(self, game: GameState, seat: int) -> bool:
        if game.phase == PHASE_ROUND:
            return 0 <= seat < game.seats
        return seat in self.waiting_for(game)

    def apply(self, game: GameState, seat: int, action: Action) -> list[Event]:
        if not 0 <= seat < game.seats:
            raise RuleError("temple.error.no_seat")
        if game.phase == PHASE_OVER:
            raise RuleError("temple.error.game_over")
        if isinstance(action, Joint):
            return joint.offer(game, seat, action)
        if isinstance(action, Cancel) and action.part == "joint":
            return joint.withdraw(game, seat)
        if game.phase == PHASE_ROUND:
            return self._apply_round(game, seat, action)
        if game.phase == PHASE_BONUS:
            if not isinstance(action, Bonus):
                raise RuleError("temple.error.phase.bonus")
            return flow.choose_bonus(game, seat, action)
        return self._apply_race(game, seat, action)

    def _apply_round(self, game: GameState, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, SEALED):
            raise RuleError("temple.error.phase.round", verbs=words.round_verbs())
        events = submit(game, seat, action)
        if all_submitted(game):
            # the round is revealed at once: "you can change it" would be stale
            events = [e for e in events if e.private_to is None]
            events += flow.resolve_round(game)
        return events

    def _apply_race(self, game: GameState, seat: int, action: Action) -> list[Event]:
        if seat in game.race_skipped:
            raise RuleError("temple.error.race_skipped")
        events: list[Event] = []
        if isinstance(action, Lightning):
            race.check_layout(game, seat, action.bricks)
            race.win(game, seat, action.bricks, events)
            flow.settle(game, events)
        elif isinstance(action, Skip):
            if race.skip(game, seat, events):
                flow.settle(game, events)
        else:
            raise RuleError("temple.error.phase.race")
        return events

    def calm(self, game: GameState, seat: int, action: Action) -> bool:
        """A step is calm unless it may end a decision for every seat: only then
        does :func:`flow.settle` run, which checks whether each face-up card can
        still be built (:func:`flow.anyone_can_build`, the solver: up to ~110 ms
        with its caches cold). Calm: a joint offer or its withdrawal; a round's
        sealed part while another seat is still awaited (the round cannot be
        revealed); a bonus brick while another bonus is pending; giving a race
        up while another seat is still in it; a part that leaves the seat's own
        sealed move incomplete (a token, a swap kept for Hammer & Chisel). Not
        calm: the round's last submission, the last bonus, a lightning layout (it
        may win the race), and anything else (a step the rules refuse is refused
        either way)."""
        if isinstance(action, Joint) or (isinstance(action, Cancel) and action.part == "joint"):
            return True
        if game.phase == PHASE_ROUND and isinstance(action, SEALED):
            if self.waiting_for(game) - {seat}:
                return True
            try:  # the seat's part: a draft it leaves incomplete reveals nothing
                return not updated(game, seat, action).complete()
            except RuleError:
                return True  # refused before anything is checked
        if game.phase == PHASE_BONUS and isinstance(action, Bonus):
            return sum(len(p.pending_bonus) for p in game.players) > 1
        if game.phase == PHASE_RACE and isinstance(action, Skip):
            return len(game.race_skipped | {seat}) < game.seats
        return False

    def legal_actions(self, game: GameState, seat: int) -> list[Action]:
        return legal.legal_actions(game, seat)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(text)

    def result(self, game: GameState) -> Result | None:
        return scoring.ranking(game) if game.phase == PHASE_OVER else None

    # -- views -----------------------------------------------------------------

    def public_view(self, game: GameState) -> dict[str, Any]:
        return views.public_view(game)

    def rules_examples(self) -> dict[str, Any]:
        """The first round of a seeded three-player game (the annotated board), and
        its first card with a layout of one player's bricks that builds it (found
        by the solver) and the same layout less its top brick, which does not."""
        game = self.new_game(3, {}, EXAMPLE_SEED)
        view = self.public_view(game)
        card_view = next(s["card"] for s in view["slots"] if s.get("card"))
        silhouette = frozenset((int(x), int(y)) for x, y in card_view["cells"])
        layout = solver.cached_layout(silhouette, solver.counts_of(dict(BRICKS)))
        bricks = sorted(layout or (), key=lambda b: (b.y, b.x))
        match = [{"length": b.length, "x": b.x, "y": b.y} for b in bricks]
        return {
            "board": view,
            "scoring": {"card": card_view, "match": match, "miss": match[:-1]},
        }

    def private_view(self, game: GameState, seat: int) -> dict[str, Any]:
        return views.private_view(game, seat)

    def private_news(
        self, before: Mapping[str, Any] | None, after: Mapping[str, Any]
    ) -> list[tuple[str, Mapping[str, Any]]]:
        """The sealed move and the areas to re-lay, when they changed (:mod:`.news`)."""
        return news.private_news(before, after)

    def turn_number(self, game: GameState) -> int:
        """Changes with every round, lightning race and bonus choice: each is a new
        decision for the seats it awaits, even those awaited just before."""
        phases = (PHASE_ROUND, PHASE_BONUS, PHASE_RACE, PHASE_OVER)
        return (game.round * 1000 + game.race) * len(phases) + phases.index(game.phase)

    def prompt(self, game: GameState) -> tuple[str, Mapping[str, Any]] | None:
        return views.prompt(game)

    def public_notation(self, action: Action) -> str:
        """A sealed part is shown only as ``sealed``, a pass included (it is one of
        the round's sealed moves: a round published before its reveal, when a seat
        resigns, must not tell who passed); the reveal's events tell what each seat
        did."""
        if isinstance(action, Cancel) and action.part == "joint":
            return str(action)  # withdrawing a joint offer is public, like the offer
        return "sealed" if isinstance(action, SEALED) else str(action)

    def private_view_changed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Only what the seat alone knows counts (``views.own_part``: its sealed
        move, the bricks it may re-lay), and only when there is something to
        show: a reveal that clears a sealed move is told to everyone in public."""
        mine = views.own_part(after)
        return bool(mine) and mine != views.own_part(before)

    def describe(self, action: Action, public: bool = True) -> tuple[str, Mapping[str, Any]]:
        return words.describe(action, public)

    def private_choices(self, game: GameState, seat: int) -> list[Action]:
        """Bonus bricks to choose; in a round, pass (and accepting a joint offer);
        in a race, giving up."""
        if game.phase == PHASE_BONUS:
            return legal.legal_actions(game, seat)
        if game.phase == PHASE_RACE and seat not in game.race_skipped:
            return [Skip()]
        if game.phase == PHASE_ROUND and 0 <= seat < game.seats:
            offers = [
                Joint(other)
                for other, partner in sorted(game.joint_offers.items())
                if partner == seat and game.joint_offers.get(seat) != other
            ]
            return [Pass(), *offers]
        return []

    def reveals(self, game: GameState, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A round's last sealed part: the reveal names the seat's whole submission, this
        part in it (``temple.event.revealed``); a cancelled part is named by nothing."""
        return (
            isinstance(action, SEALED)
            and not isinstance(action, Cancel)
            and any(e.key == "temple.event.revealed" and e.params["seat"] == seat for e in events)
        )

    def choice_label(self, action: Action) -> tuple[str, Mapping[str, Any]]:
        return views.choice_label(action)

    def is_checkpoint(
        self, game: GameState, seat: int, action: Action, events: Sequence[Event]
    ) -> bool:
        """Every step: a submission can be replaced rather than undone."""
        return True

    def suggested_actions(self, game: GameState, seat: int) -> list[Action]:
        """Legal actions without lightning layouts: finding one is the race (the
        legal list holds one only so that random play can finish a race)."""
        return [a for a in self.legal_actions(game, seat) if not isinstance(a, Lightning)]

    def layout_step(
        self, game: GameState, seat: int, verb: str, items: Sequence[str]
    ) -> LayoutStep | None:
        """In a race a seat that has not given up may enter its ``lightning``
        layout brick by brick: what the bricks so far allow next is
        :func:`race.layout_next`'s (the race's own check)."""
        if verb != "lightning" or game.phase != PHASE_RACE or seat in game.race_skipped:
            return None
        if not 0 <= seat < game.seats:
            return None
        try:
            bricks = tuple(actions.BRICK.parse(item) for item in items)
        except (ValueError, KeyError, IndexError):
            raise RuleError("temple.error.bad_notation", text=" ".join(items)) from None
        return views.layout_step(game, seat, bricks, race.layout_next(game, seat, bricks))

    def param_title(self, verb: str, param: str) -> tuple[str, Mapping[str, Any]]:
        """A layout's bricks are asked for in words (its slash option spells ``4:A1``)."""
        if param in picking.LAYOUTS:
            return "temple.param.bricks", {}
        return super().param_title(verb, param)

    def legal_values(
        self,
        game: GameState,
        seat: int,
        verb: str,
        param: str,
        chosen: Mapping[str, str],
        *,
        legal: Sequence[Action] | None = None,
    ) -> list[Suggestion]:
        """As the default, but a lightning layout is never suggested (solving it
        is the race)."""
        if verb == "lightning":
            return []
        found = super().legal_values(game, seat, verb, param, chosen, legal=legal)
        return picking.shortened(param, found)

    # -- clocks ----------------------------------------------------------------

    def deadlines(self, game: GameState) -> list[Deadline]:
        name = views.deadline_name(game)
        if name is None:
            return []
        return [Deadline(name, deadline_seconds(game.deadline))]

    def timeout_action(self, game: GameState, seat: int) -> Action | None:
        if seat not in self.waiting_for(game):
            return None
        if game.phase == PHASE_ROUND:
            return Pass()
        if game.phase == PHASE_RACE:
            return Skip()
        pending = game.players[seat].pending_bonus
        area = min(pending)
        return Bonus(area, max(pending[area]))

    def timeout_actions(self, game: GameState, deadline: str) -> list[tuple[int, Action]]:
        """Late seats pass (round), skip (race) or keep their longest brick
        (bonus, one per pending temple); a stale deadline name plays nothing."""
        if deadline != views.deadline_name(game):
            return []
        if game.phase == PHASE_BONUS:
            return [
                (seat, Bonus(area, max(lengths)))
                for seat, player in enumerate(game.players)
                for area, lengths in sorted(player.pending_bonus.items())
            ]
        return super().timeout_actions(game, deadline)

    def computer(self) -> Brain[GameState, Action]:
        """The computer player (:mod:`~bot.games.temple.computer`)."""
        return TempleBrain(self)

    def retry_cooldown(self, game: GameState, seat: int, action: Action, error: RuleError) -> float:
        """A refused lightning layout costs a short wait (guessing is not solving)."""
        if isinstance(action, Lightning) and game.phase == PHASE_RACE:
            return LAYOUT_COOLDOWN
        return 0.0

    # -- persistence -----------------------------------------------------------

    def dump_state(self, game: GameState) -> dict[str, Any]:
        return state.dump_state(game)

    def load_state(self, data: dict[str, Any]) -> GameState:
        return state.load_state(data)


ENGINE = TempleEngine()
