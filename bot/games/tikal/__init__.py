"""Tikal (Kiesling & Kramer): base game, auction variant and Mini-Tikal.

Modules, one job each:

* :mod:`~bot.games.tikal.components` — the tile set and modes (from ``data/tikal_tiles.json``);
* :mod:`~bot.games.tikal.board` — the hex map: names, neighbours, edges, rotations;
* :mod:`~bot.games.tikal.state` — the dataclasses, their JSON form and the set-up;
* :mod:`~bot.games.tikal.actions` — actions and their notation;
* :mod:`~bot.games.tikal.paths` — crossing costs and cheapest moves;
* :mod:`~bot.games.tikal.placement` — where and how the hex in hand may be laid;
* :mod:`~bot.games.tikal.rules` — legality checks of the other actions;
* :mod:`~bot.games.tikal.flow` — applying actions;
* :mod:`~bot.games.tikal.turns` — turn order, volcano rounds, auction rounds, the end;
* :mod:`~bot.games.tikal.auction` — bidding;
* :mod:`~bot.games.tikal.scoring` — scoring steps and the ranking;
* :mod:`~bot.games.tikal.legal` — legal actions by verb;
* :mod:`~bot.games.tikal.suggest` — autocomplete values with labels;
* :mod:`~bot.games.tikal.selfplay` — a random legal player (demo, benchmarks, tests);
* :mod:`~bot.games.tikal.views` — the public view, prompts and labels;
* :mod:`~bot.games.tikal.texts` — names in words for messages;
* :mod:`~bot.games.tikal.engine` — the :data:`ENGINE` object.

The rules followed are ``docs/rules/tikal.md`` (the rulebooks restated,
with the digital edition's decisions). Each module's docstring lists the
decisions it takes where that page is silent; the main ones:

* The tile set and board are the "digital edition layout" (data file).
* A move is charged its cheapest path, secret passages included.
* In auctions, a player who cannot beat the bid passes automatically.
* ``end`` is always a checkpoint; so are recovering a token, bids and passes.
* Ties in the final ranking share the place.
"""

from bot.games.tikal.actions import (
    Action,
    Bid,
    Camp,
    Dig,
    End,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Pick,
    Place,
    Recover,
    parse_action,
)
from bot.games.tikal.engine import ENGINE, TikalEngine
from bot.games.tikal.state import GameState

__all__ = [
    "ENGINE",
    "Action",
    "Bid",
    "Camp",
    "Dig",
    "End",
    "Enter",
    "Exchange",
    "GameState",
    "Guard",
    "Move",
    "Pass",
    "Pick",
    "Place",
    "Recover",
    "TikalEngine",
    "parse_action",
]
