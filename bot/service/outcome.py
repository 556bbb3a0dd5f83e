"""What the service returns: players, refusals and outcomes for the adapter to deliver.

Decisions:

* The service speaks in :class:`~bot.i18n.Text` (a catalog key and its
  parameters), so each recipient reads it in their own language, and in
  user ids, so the adapter decides how to mention someone.
* An :class:`Outcome` holds up to three deliveries: the invoker's private
  answer (:class:`Reply`: lines, an optional preview image and buttons), one
  public message (:class:`News`: lines, the board, the pings and public
  buttons), and private messages per owner (DM, else ephemeral). A step of
  play (:class:`Step`) says how it leaves the game; a simultaneous game's
  round adds its ``tally``: the content of the one message kept up to date
  while seats submit. The parts make the impossible unbuildable: no ping or
  heads-up without a public message, no tally without a step, no interim
  message with a board, no step without its game's version.
* A hand-off's public message is part of the game's story: the adapter keeps
  the game's newest such message as the only one with live buttons. An
  ``interim`` one stands in until the next, which replaces it and tells its
  lines again (:mod:`bot.service.announce`).
* A button is a :class:`Choice`: its label, what it does (``kind``) and its
  argument; buttons carry the game and version they were made for, so a
  click on an outdated one is refused.
"""

from __future__ import annotations

import asyncio
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
class Reply:
    """The invoker's private answer: its lines, the image shown with them and the region
    where the replying seat can act, zoomed for a phone (see ``Context.zoom``), its buttons,
    and the move picker's next menu after a decision taken with a public button when they
    still act (:mod:`bot.service.tapping`)."""

    lines: list[Text] = field(default_factory=list)
    image: bytes | None = None
    zoom: bytes | None = None
    choices: list[Choice] = field(default_factory=list)
    menu: Menu | None = None
    #: its lines tell nothing the step's public message does not (a hand-off's move
    #: described alike in public or revealed there, no event told the invoker alone:
    #: :mod:`bot.service.play`): that message may answer the invoker in their place
    #: (:mod:`bot.discord.delivery`)
    told: bool = False


@dataclass
class News:
    """The one public message of an outcome: its lines and board, the members it pings
    and the one it gives a heads-up (awaited after those pinged), its buttons.

    ``interim``: it stands in until the game's next public message, which tells its
    lines again and replaces it (:mod:`bot.service.announce`), so it has no board.
    ``in_channel``: post it in the game's channel itself, not as a follow-up of the
    interaction (a game opened in a new thread).
    """

    lines: list[Text] = field(default_factory=list)
    board: bytes | None = None
    ping: list[int] = field(default_factory=list)
    heads_up: int | None = None
    choices: list[Choice] = field(default_factory=list)
    interim: bool = False
    in_channel: bool = False

    def __post_init__(self) -> None:
        if self.interim and self.board is not None:
            raise ValueError("an interim public message has no board")


@dataclass(frozen=True)
class Step:
    """A committed step of play: how it leaves the game and, in a simultaneous round,
    the tally: its question, then who has submitted, who is awaited, the deadline (a
    hand-off message that carries it asks the question)."""

    kind: StepKind
    tally: list[Text] | None = None


@dataclass
class Outcome:
    """What a command produced, for the adapter to deliver (see the module docstring).

    Every outcome has its game and channel (when it concerns one) and the invoker's
    :class:`Reply`; only some carry a public message (:class:`News`), private messages,
    a :class:`Step` of play, or the lobby panel. ``finished``: the game is over after it
    (a final step, or an abandoned game).
    """

    game_id: int | None = None
    channel_id: int | None = None
    #: the game's stored version after this outcome (buttons carry it)
    version: int | None = None
    reply: Reply = field(default_factory=Reply)
    news: News | None = None
    private: list[PrivateMessage] = field(default_factory=list)
    step: Step | None = None
    #: the lobby message: posted by the outcome opening the lobby, edited by later ones
    lobby: LobbyPanel | None = None
    finished: bool = False
    #: a hand-off's board and round tally still being drawn and read, when the service
    #: was asked to answer as soon as the step is stored
    #: (:func:`bot.service.announce.answered_early`); :meth:`drawn` puts them in place
    drawing: asyncio.Future[None] | None = field(default=None, repr=False, compare=False)
    #: the same for the private messages' images (``private`` is filled in)
    drawing_private: asyncio.Future[None] | None = field(default=None, repr=False, compare=False)

    async def drawn(self, *, private: bool = True) -> None:
        """Wait until what is still being drawn is in place: the board and the tally,
        and (unless not ``private``) the private messages. Any number of callers may
        wait; a drawing that failed raises for each."""
        if self.drawing is not None:
            await self.drawing
        if private and self.drawing_private is not None:
            await self.drawing_private

    def __post_init__(self) -> None:
        if self.step is not None:
            if self.game_id is None or self.version is None:
                raise ValueError("a step of play names its game and the version it left")
            if (self.step.kind is StepKind.FINAL) != self.finished:
                raise ValueError("a final step, and only a final step, finishes a game it plays")

    @property
    def kind(self) -> StepKind | None:
        """How the step of play leaves the game; None for an outcome that is no step."""
        return None if self.step is None else self.step.kind

    @property
    def tally(self) -> list[Text] | None:
        """The simultaneous round's tally the step carries, if any."""
        return None if self.step is None else self.step.tally

    @property
    def has_public(self) -> bool:
        return self.news is not None and bool(self.news.lines or self.news.board)

    @property
    def story(self) -> bool:
        """The public message is one of the game's hand-off messages (not a side note
        such as a reminder or a pause): the newest of them carries the buttons."""
        return self.has_public and (
            (self.news is not None and self.news.interim)
            or self.kind in (StepKind.HANDOFF, StepKind.FINAL)
        )
