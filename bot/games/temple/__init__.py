"""Temple Rush (Jacob Berg, 2020), a pure rules engine for 2 to 4 players.

The digital edition plays the real-time building game in sealed,
simultaneous rounds (``docs/rules/temple_rush.md#round``).

Notation (``/temple <verb> …`` or ``/play …``); areas ``1``..``3``, cells
``A1``..``H6`` (column letter, row from the ground up), lengths ``1``..``4``,
players by seat number, layout bricks as ``length:cell`` of the left end:

==================================  =============================================
``place 1 C1``                      lay the rolled length with its left end on C1
``place 2 A1 3``                    the same with the length given (a star, or
                                    with Hammer & Chisel)
``move 2 A1 1 C2``                  the supply has no brick of the rolled length:
                                    take the brick on A1 of area 2 to C2 of area 1
``swap 1 B2 2``                     the brick on B2 back to supply, a 2 takes its
                                    left end
``swap 1 B2 2 D3``                  the same, the 2 going onto D3 instead
``pass``                            no brick this round
``hammer``                          play Hammer & Chisel with this submission
``mortar 2``                        play the Mortar on area 2
``bag 3 1 2 C3 A3``                 play the Bag: borrow the top two bricks of
                                    player 3's area 1, onto C3 and A3 of area 2
``relay 1 4:A1 3:B2``               re-lay area 1 for its new card (``relay 1``
                                    alone: all its bricks back to supply)
``cancel hammer``                   take a part back (brick, swap, hammer, bag,
                                    mortar, relay, joint)
``bonus 2 4``                       keep a 4 of the temple completed in area 2
``lightning 4:A1 3:B2 2:C3 2:E4``   a full layout for the lightning temple
``skip``                            give the lightning race up
``joint 3``                         offer (or accept) to build the last card with
                                    player 3
==================================  =============================================

Modules, one job each:

* :mod:`~bot.games.temple.components` — numbers and names of the components;
* :mod:`~bot.games.temple.cards` (+ ``cards.json``) — the card set, as data;
* :mod:`~bot.games.temple.geometry` — bricks, connection, matching, fitting;
* :mod:`~bot.games.temple.solver` — finding layouts;
* :mod:`~bot.games.temple.state` — the dataclasses and their JSON form;
* :mod:`~bot.games.temple.actions` — verbs, kinds and the notation;
* :mod:`~bot.games.temple.building` — checking and trying out sealed parts;
* :mod:`~bot.games.temple.submit` — changing a sealed submission;
* :mod:`~bot.games.temple.reveal` — the reveal, Bags and completions;
* :mod:`~bot.games.temple.flow` — setup, bonus, new cards, round opening, end;
* :mod:`~bot.games.temple.race` — the lightning race;
* :mod:`~bot.games.temple.joint` — the optional joint last card;
* :mod:`~bot.games.temple.scoring` — scores and ranking;
* :mod:`~bot.games.temple.legal` — legal actions;
* :mod:`~bot.games.temple.views` — views, prompts, labels;
* :mod:`~bot.games.temple.engine` — the :data:`ENGINE` object.

Each module's docstring lists the decisions it takes where
``docs/rules/temple_rush.md`` is silent. The main ones:

* Our own card set (31 temples and the lightning card) is data, with values
  of half the fewest bricks a card needs, rounded up.
* A submission is built part by part (brick, swap, pass, tokens, re-lays) and
  checked whole on every change; with Hammer & Chisel a swap still waits
  for the brick or a pass. ``swap`` may move the new brick within the build.
* Bags are applied after every seat's moves; a complete build lends nothing.
* The Mortar stays on its area until the player completes a temple there.
* Completers choose their bonus before the next round (no choice: at once);
  refills come after, one slot at a time, so a lightning card turned up is
  raced before the next refill. Lightning bricks missing from supply are
  pulled from builds automatically (the cheapest brick for the build).
* Joint agreements take effect when the next round opens.
* Progress: a card nobody can build any more, or up for 30 rounds, is set
  aside and replaced; 5 rounds in a row without a brick laid end the game.
* The lightning race shares the round deadline (no option of its own).
"""

from bot.games.temple.actions import (
    Action,
    Bag,
    Bonus,
    Cancel,
    Hammer,
    Joint,
    Lightning,
    Mortar,
    Move,
    Pass,
    Place,
    Relay,
    Skip,
    Swap,
    parse_action,
)
from bot.games.temple.engine import ENGINE, TempleEngine
from bot.games.temple.state import GameState

__all__ = [
    "ENGINE",
    "Action",
    "Bag",
    "Bonus",
    "Cancel",
    "GameState",
    "Hammer",
    "Joint",
    "Lightning",
    "Mortar",
    "Move",
    "Pass",
    "Place",
    "Relay",
    "Skip",
    "Swap",
    "TempleEngine",
    "parse_action",
]
