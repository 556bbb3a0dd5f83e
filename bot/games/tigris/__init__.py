"""Tigris & Euphrates (Reiner Knizia), a pure rules engine for 2 to 4 players.

Modules, one job each:

* :mod:`~bot.games.tigris.board` — squares, river, starting temples, neighbours;
* :mod:`~bot.games.tigris.components` — colours, leaders, monuments, counts;
* :mod:`~bot.games.tigris.state` — the dataclasses and their JSON form;
* :mod:`~bot.games.tigris.kingdoms` — regions and kingdoms by flood fill;
* :mod:`~bot.games.tigris.actions` — actions and their notation;
* :mod:`~bot.games.tigris.rules` — legality checks and legal action generation;
* :mod:`~bot.games.tigris.flow` — applying actions and resolving what they trigger;
* :mod:`~bot.games.tigris.conflicts` — revolts and wars;
* :mod:`~bot.games.tigris.treasures` — treasure taking;
* :mod:`~bot.games.tigris.scoring` — tile, monument and final scoring;
* :mod:`~bot.games.tigris.views` — the public and private views;
* :mod:`~bot.games.tigris.engine` — the :data:`ENGINE` object.

The rules followed are ``docs/rules/tigris.md`` (the rulebooks restated,
with the digital edition's decisions). Where it is silent, this engine decides
(each decision is also stated in the module that makes it):

* Setup: seat 0 starts; the bag is shuffled once with ``random.Random(seed)``
  and drawn from its end; hands are drawn in seat order.
* Questions are asked only when there is a real choice that others could
  not know of: a player with an empty hand (hand sizes are public) commits
  0 automatically, as they would say "none" at the table; a player holding
  tiles is always asked, even without a tile of the needed colour, so that
  the table does not learn it. A single clashing colour needs no war order;
  treasures are taken automatically when only one may stay.
* ``treasure B2 K1`` lists every treasure taken from one kingdom (all but
  one, corners first), so a claim is one answer. Several kingdoms needing
  a claim after one action are handled one at a time, in board order.
* ``pass`` is allowed in the action phase (the rulebook says "up to two
  actions") and ends the turn at once.
* Moving a leader onto its own square is refused (it would be a pass).
* A catastrophe may go on any empty square, river included.
* A swap the bag cannot fully serve draws what is left; the turn goes on and
  the game ends at its end. The game also ends when a refill fails; a bag
  that empties exactly while filling every hand does not end the game.
* Refills at the end of a turn: the active player first, then clockwise.
* The unification marker is only placed when the join starts a war.
* A war's side ("the leader's own former kingdom") is that kingdom as it
  was just before the join, limited to what is still in the joined kingdom:
  after an earlier war of the same join, a part cut off the joined kingdom
  no longer counts; two pieces split apart that both still touch the
  unification tile both count (and both lose their tiles if the leader loses).
* Priest war: "another leader" is any leader still on the board once the
  beaten priest is removed (the loser's own other leaders included).
* A monument is offered only for a 2×2 containing the tile just placed and
  only among monuments that include its colour; a declined 2×2 is not
  offered again later.
* Final ranking: equal sorted vectors share a place; within a place, seats
  are listed in seat order.
* Visibility: scoring events are private to the scorer unless the lobby
  chose ``scoring: open``; tiles drawn are private; swaps are public only as
  a count (the public ``last_action`` notation is ``swap 3``). Committed
  support and treasures taken are public, as at the table.
"""

from bot.games.tigris.actions import (
    Action,
    BuildMonument,
    ChooseWar,
    Decline,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Support,
    Swap,
    TakeTreasures,
    WithdrawLeader,
    parse_action,
)
from bot.games.tigris.engine import ENGINE, TigrisEngine
from bot.games.tigris.state import GameState

__all__ = [
    "ENGINE",
    "Action",
    "BuildMonument",
    "ChooseWar",
    "Decline",
    "GameState",
    "Pass",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Support",
    "Swap",
    "TakeTreasures",
    "TigrisEngine",
    "WithdrawLeader",
    "parse_action",
]
