"""Fixtures for end-to-end tests against :class:`~.fake_discord.FakeDiscord`.

``fake_discord`` starts a fake Discord on ``127.0.0.1`` (random port), points discord.py at it
for the duration of the test (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``, restored
by ``monkeypatch``), and on teardown stops it and fails the test if the bot called a route the
fake does not know or the fake itself broke (see :meth:`FakeDiscord.assert_clean`). Tests that
provoke unknown routes on purpose clear ``fake_discord.unknown_requests``.

Run the bot with :func:`~.fake_discord.running_client` inside the test or in a fixture that
depends on ``fake_discord`` (so the client is closed before the fake stops).

Decisions:

* The fixture's fake takes an interaction's callback up to :data:`CALLBACK_DEADLINE`
  (60 s) after sending it, not Discord's 3 s: on a loaded machine a whole game's
  interaction can reach the bot later than 3 s, and the fake's refusal (404, 10062)
  then failed tests of what the bot sends, not of when. The bot still acknowledges
  every interaction older than its ``ANSWER_WITHIN`` first, as in production; the
  late path itself is tested with the deadline set low on purpose
  (``test_fake_discord.py``, ``test_rest.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .fake_discord import FakeDiscord

#: how long after sending an interaction the fixture's fake takes its callback
CALLBACK_DEADLINE = 60.0


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` that discord.py talks to instead of Discord."""
    fake = FakeDiscord(callback_deadline=CALLBACK_DEADLINE)
    await fake.start()
    fake.patch_discord(monkeypatch)
    try:
        yield fake
    finally:
        await fake.stop()
    fake.assert_clean()
