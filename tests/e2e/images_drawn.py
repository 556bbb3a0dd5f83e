"""What images the bot draws and what private images it sends: for tests and benchmarks.

Decisions:

* Images drawn are counted where the bot asks its drawing pool for them
  (:func:`bot.service.drawing.drawn`, the one place every image goes through): each
  job is recorded by its renderer's name (``render_public`` for a board, whose job
  builds the public view in the drawing process, ``render_private``, ``render_zoom``)
  and the real function is called. Nothing else is replaced.
* Private images sent are read from the fake Discord's records: the messages after a
  mark carrying the private image's file (``hand.png``), in a DM or an ephemeral
  message (a closed DM's fallback), by recipient.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bot.discord.messages import HAND_FILE
from bot.service import drawing

from .fake_discord import FakeDiscord, RecordedMessage


class ImagesDrawn:
    """The images the bot asked of its drawing pool since :meth:`clear`, by renderer."""

    def __init__(self) -> None:
        self.jobs: list[str] = []

    def clear(self) -> None:
        self.jobs.clear()

    def count(self, renderer: str) -> int:
        """How many images of ``renderer`` (``render_public``, ``render_private``...)."""
        return self.jobs.count(renderer)

    @property
    def boards(self) -> int:
        return self.count("render_public")

    @property
    def private(self) -> int:
        return self.count("render_private")

    def by_renderer(self) -> Counter[str]:
        return Counter(self.jobs)


def _renderer(render: Any, args: tuple[Any, ...]) -> str:
    """The renderer a drawing job runs (a board's job runs ``render_public`` there)."""
    if render is drawing.public_board and args:
        render = args[0]
    return str(getattr(render, "__name__", type(render).__name__))


@contextlib.contextmanager
def counting_images() -> Iterator[ImagesDrawn]:
    """Within the block, every image the bot draws is recorded (:class:`ImagesDrawn`)."""
    seen = ImagesDrawn()
    real = drawing.drawn

    async def drawn(render: Any, *args: Any) -> bytes:
        seen.jobs.append(_renderer(render, args))
        return await real(render, *args)

    drawing.drawn = drawn
    try:
        yield seen
    finally:
        drawing.drawn = real


def private_images_sent(fake: FakeDiscord, since: int) -> list[RecordedMessage]:
    """The messages from ``fake.messages[since:]`` that carry a private image
    (``hand.png``): DMs, and ephemeral messages (a closed DM's fallback, a step's own
    view beside its board)."""
    return [
        m
        for m in fake.messages[since:]
        if (m.is_dm or m.ephemeral) and any(a.filename == HAND_FILE for a in m.attachments)
    ]
