"""Every ``custom_id`` the bot sends: its pattern, its builder and Discord's limit.

Every component the bot posts is a persistent :class:`discord.ui.DynamicItem`:
its ``custom_id`` holds all a click needs, so it works after any number of
restarts. The item classes take their ``template`` from here and build their
ids with the functions here; nothing else writes a ``zg:`` string.

Layouts (``<game_id>`` and ``<version>`` match :data:`ID`):

* ``zg:act:<game_id>:<version>:<action>`` — a quick decision (:mod:`bot.discord.buttons`);
* ``zg:undo:<game_id>:<version>`` — Undo;
* ``zg:abandon|resign|rematch|play:<game_id>`` — a button naming one game
  (:func:`game_template`);
* ``zg:lobby:<game_id>:<verb>`` (:data:`LOBBY_VERB`) and
  ``zg:lopt:<game_id>:<option>`` (:data:`OPTION`) — the lobby message
  (:mod:`bot.discord.lobby_buttons`);
* ``zg:rules:<game>:<page>`` — a page of ``/rules`` (:mod:`bot.discord.rules_button`);
* ``zg:pick:<game_id>:<token>:<n>`` / ``:s<i>`` / ``:r|u|e`` — the move
  picker's option buttons, selects and controls (:mod:`bot.discord.picking`);
  ``<token>`` (:data:`TOKEN`) is the picker's token, at most 80 characters,
  starting with its stamp (:mod:`bot.service.pick_token`); it may hold ``:``
  (a Tikal word such as ``4:A1``), so the last ``:`` separates the kind, which
  never holds one. "zg:pick:" (8) + the game id + ":" + a token and option (at
  most 84, checked by the picker's tests) fits in :data:`MAX_CUSTOM_ID` for
  every game id of up to 7 digits;
* any other ``zg:`` id (an older layout, a mangled one, the "Your options"
  button of older messages, ``zg:mine``) matches :data:`STALE` and gets the
  stale-button answer, so no click goes unanswered.

Decisions:

* Every number in a custom_id (a game id, a version, a page) matches
  :data:`ID`: at most 18 digits, so it always fits the store's signed 64-bit
  integers (2**63 − 1 has 19). A forged id past that range matches no
  template but :data:`STALE`; it never reaches the store.
* The layouts never change: messages already posted carry them, and each
  must keep parsing.
* A builder refuses (``ValueError``) an id over Discord's :data:`MAX_CUSTOM_ID`
  characters rather than let Discord refuse the whole message.
"""

from __future__ import annotations

from bot.games.notation import ascii_int
from bot.store import INTEGER_DIGITS, MAX_INTEGER

#: Discord's limit on a custom_id
MAX_CUSTOM_ID = 100
#: what every custom_id of the bot starts with
PREFIX = "zg"

#: a number in a custom_id: no leading zero, at most 18 digits (always < 2**63)
ID = r"(?:0|[1-9][0-9]{0,17})"
#: a game's name in a custom_id (``/rules``)
GAME = r"[a-z][a-z0-9_]{0,31}"
#: an option's name in a lobby menu's custom_id
OPTION = r"[a-z][a-z0-9_]{0,31}"
#: a lobby button's verb in its custom_id
LOBBY_VERB = r"join|leave|start|computer|easy|strong|unseat"
#: a picker token in a custom_id: its stamp first (a version, or a seat's ``s…``)
TOKEN = rf"(?P<token>(?:{ID}|s[0-9a-f]{{8}})u?(?:[.~].*)?)"

#: templates of the dynamic items (matched whole by discord.py)
ACT = rf"{PREFIX}:act:(?P<game_id>{ID}):(?P<version>{ID}):(?P<action>.+)"
UNDO = rf"{PREFIX}:undo:(?P<game_id>{ID}):(?P<version>{ID})"
LOBBY = rf"{PREFIX}:lobby:(?P<game_id>{ID}):(?P<verb>{LOBBY_VERB})"
LOBBY_OPTION = rf"{PREFIX}:lopt:(?P<game_id>{ID}):(?P<option>{OPTION})"
RULES = rf"{PREFIX}:rules:(?P<game>{GAME}):(?P<page>{ID})"
PICK_BUTTON = rf"{PREFIX}:pick:(?P<game_id>{ID}):{TOKEN}:(?P<what>[0-9]{{1,2}}|[rue])"
PICK_SELECT = rf"{PREFIX}:pick:(?P<game_id>{ID}):{TOKEN}:s[0-9]?"

#: every custom_id of the move picker, which :data:`STALE` leaves alone
_PICK_IDS = (
    rf"play:{ID}$|pick:{ID}:(?:{ID}|s[0-9a-f]{{8}})u?(?:[.~].*)?:(?:[0-9]{{1,2}}|s[0-9]?|[rue])$"
)
#: any ``zg:`` custom_id that no other template takes
STALE = (
    rf"{PREFIX}:(?!act:{ID}:{ID}:.|undo:{ID}:{ID}$|(?:abandon|resign|rematch):{ID}$"
    rf"|lobby:{ID}:(?:{LOBBY_VERB})$|lopt:{ID}:{OPTION}$|rules:{GAME}:{ID}$|{_PICK_IDS}).*"
)


def game_template(verb: str) -> str:
    """The template of a ``verb`` button naming one game: ``zg:<verb>:<game_id>``."""
    return rf"{PREFIX}:{verb}:(?P<game_id>{ID})"


def checked(custom_id: str) -> str:
    """``custom_id``, or ValueError past Discord's :data:`MAX_CUSTOM_ID` characters."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {custom_id!r}")
    return custom_id


def act_id(game_id: int, version: int, action: str) -> str:
    return checked(f"{PREFIX}:act:{game_id}:{version}:{action}")


def undo_id(game_id: int, version: int) -> str:
    return checked(f"{PREFIX}:undo:{game_id}:{version}")


def game_button_id(verb: str, game_id: int) -> str:
    return checked(f"{PREFIX}:{verb}:{game_id}")


def lobby_id(game_id: int, verb: str) -> str:
    return checked(f"{PREFIX}:lobby:{game_id}:{verb}")


def lobby_option_id(game_id: int, option: str) -> str:
    return checked(f"{PREFIX}:lopt:{game_id}:{option}")


def rules_id(game: str, page: int) -> str:
    return checked(f"{PREFIX}:rules:{game}:{page}")


def pick_id(game_id: int, token: str, what: str) -> str:
    """A picker component's custom_id (``what``: an option's token, ``s<i>`` or a control)."""
    return checked(f"{PREFIX}:pick:{game_id}:{token}:{what}")


# -- reading any custom_id, for logs and metrics ----------------------------------


def kind_of(custom_id: str) -> str | None:
    """The kind of a ``zg:`` custom_id (``act``, ``pick``…), else None; never what it plays."""
    parts = custom_id.split(":")
    if len(parts) < 2 or parts[0] != PREFIX or not parts[1].isalnum():
        return None
    return parts[1]


def game_of(custom_id: str) -> int | None:
    """The game a ``zg:<kind>:<game_id>:...`` custom_id names, else None."""
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX:
        return None
    try:  # ASCII digits only, within the store's integers
        return ascii_int(parts[2], 0, MAX_INTEGER, digits=INTEGER_DIGITS)
    except ValueError:
        return None


def head_of(custom_id: str) -> str:
    """The first two parts of a custom_id (``zg:act``), for the log: never what it plays."""
    return ":".join(custom_id.split(":")[:2])
