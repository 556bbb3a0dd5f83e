"""What the service returns: players, refusals and outcomes for the adapter to deliver.

Decisions:

* The service speaks in :class:`~bot.i18n.Text` (a catalog key and its
  parameters), so each recipient reads it in their own language, and in
  user ids, so the adapter decides how to mention someone.
* An :class:`Outcome` holds up to three deliveries: the invoker's private
  answer (``reply`` with an optional preview image and buttons), one public
  message (``public`` lines, the ``board``, the ``ping`` and public
  buttons), and private messages per owner (DM, else ephemeral). A
  simultaneous game's round adds a ``tally``: the content of the one
  message kept up to date while seats submit.
* A button is a :class:`Choice`: its label, what it does (``kind``) and its
  argument; buttons carry the game and version they were made for, so a
  click on an outdated one is refused.
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import Text
from bot.service.menus import Menu


@dataclass(frozen=True)
class Player:
    """A user as the service sees them: a stable id and a display name."""

    id: int
    name: str


class Refusal(Exception):
    """A command that cannot be carried out; nothing was changed."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.text = Text(key, params)

    @classmethod
    def of(cls, text: Text) -> Refusal:
        refusal = cls(text.key)
        refusal.text = text
        return refusal


@dataclass(frozen=True)
class PrivateMessage:
    """Something only ``user_id`` may see: text lines and an optional image."""

    user_id: int
    lines: tuple[Text, ...]
    image: bytes | None = None


class ChoiceKind(enum.Enum):
    """What a button does when clicked."""

    #: play ``Choice.action`` (a notation) for whoever clicks, if they may
    ACT = "act"
    #: take back the clicker's last step
    UNDO = "undo"
    #: confirm abandoning the game
    ABANDON = "abandon"
    #: confirm resigning one's seat
    RESIGN = "resign"
    #: start a rematch of the finished game (bot.service.after)
    REMATCH = "rematch"
    #: show another page of a game's rules (``action`` is ``<game>:<page>``)
    PAGE = "page"
    #: open the clicker's move picker, ephemerally (bot.service.tapping)
    PLAY = "play"
    #: a lobby button (``action`` is its verb: add a computer player, remove one)
    LOBBY = "lobby"


@dataclass(frozen=True)
class Choice:
    """A button: its label (translated late), its kind and its argument."""

    label: Text
    action: str = ""
    kind: ChoiceKind = ChoiceKind.ACT
    danger: bool = False


@dataclass(frozen=True)
class OptionMenu:
    """One lobby option as a menu: its name, each value with its label, the current one."""

    name: str
    label: Text | str
    values: tuple[tuple[str, Text], ...]
    current: str


@dataclass(frozen=True)
class LobbyPanel:
    """The lobby message, kept up to date: its lines and, while the lobby is open,
    Join/Leave/Start and the option menus.

    ``post`` is True for the outcome that opens the lobby (the adapter posts the
    panel as its public message and remembers it); every later outcome of the
    lobby edits that message in place.
    """

    lines: tuple[Text, ...]
    menus: tuple[OptionMenu, ...] = ()
    open: bool = True
    post: bool = False
    #: the game has a computer player: the panel offers to seat one
    computers: bool = False


class StepKind(enum.Enum):
    """How a step leaves the game, which decides how it is announced."""

    #: the same seat goes on acting: an ephemeral preview, nothing public
    CONTINUE = "continue"
    #: a sealed submission in a simultaneous round: an ephemeral preview and the tally
    SUBMISSION = "submission"
    #: the game now waits for someone else, or a round resolved: one public message
    HANDOFF = "handoff"
    #: the game is over: one public message with the ranking
    FINAL = "final"


def classify(
    seat: int | Collection[int],
    before: set[int],
    after: set[int],
    *,
    finished: bool,
    simultaneous: bool,
    new_turn: bool,
) -> StepKind:
    """The kind of a step by ``seat`` (or a batch by several seats: the computer
    seats' plans) that changed the awaited seats from ``before`` to ``after``.

    In a sequential game, the same seat still alone awaited in the same turn
    goes on. In a simultaneous one, a step that awaits nobody new in the same
    round is a sealed submission: a seat completing its move, changing it,
    or adding a part to a move still in the making. Anything else hands over.
    """
    acting = {seat} if isinstance(seat, int) else set(seat)
    if finished:
        return StepKind.FINAL
    if new_turn:
        return StepKind.HANDOFF
    if simultaneous:
        if after and after <= before | acting:
            return StepKind.SUBMISSION
        return StepKind.HANDOFF
    if after and after == before and after <= acting:
        return StepKind.CONTINUE
    return StepKind.HANDOFF


@dataclass
class Outcome:
    """What a command produced, for the adapter to deliver (see the module docstring)."""

    game_id: int | None = None
    channel_id: int | None = None
    reply: list[Text] = field(default_factory=list)
    reply_image: bytes | None = None
    #: the region where the replying seat can act, zoomed for a phone (see Context.zoom)
    reply_zoom: bytes | None = None
    reply_choices: list[Choice] = field(default_factory=list)
    public: list[Text] = field(default_factory=list)
    board: bytes | None = None
    private: list[PrivateMessage] = field(default_factory=list)
    ping: list[int] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    tally: list[Text] | None = None
    finished: bool = False
    #: who is awaited after those pinged, for a heads-up (their user id)
    heads_up: int | None = None
    #: post the public message in the game's channel itself, not as a follow-up of
    #: the interaction (a game opened in a new thread)
    public_in_channel: bool = False
    #: the game's stored version after this outcome (buttons carry it)
    version: int | None = None
    step: StepKind | None = None
    #: the lobby message: posted by the outcome opening the lobby, edited by later ones
    lobby: LobbyPanel | None = None
    #: the invoker's next menu of the move picker, after a decision taken with a
    #: public button when they still act (bot.service.tapping)
    menu: Menu | None = None

    @property
    def has_public(self) -> bool:
        return bool(self.public or self.board)
