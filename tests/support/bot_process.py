"""Run the real bot as its own process against a fake Discord (for the e2e process tests).

``python tests/support/bot_process.py`` reads the fake's address from
``ZIGGURAT_FAKE_DISCORD`` (``http://127.0.0.1:PORT``) and everything else from
the usual settings (``DISCORD_TOKEN``, ``ZIGGURAT_DB``, ...), points
discord.py at the fake, registers the Oracle test game next to the built-in
games, configures logging as ``python -m bot`` does and runs
:func:`bot.discord.lifecycle.serve`, the production entry point, on the event
loop the settings choose and with the heap settled once ready (as
:func:`bot.discord.lifecycle.run_bot` does).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord.gateway
import discord.http
import yarl

from bot import event_loop, games, plugins
from bot.config import Settings
from bot.discord.lifecycle import serve
from bot.logs import configure_logging
from tests.conftest import register_oracle


def main() -> int:
    base = os.environ["ZIGGURAT_FAKE_DISCORD"].rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base.replace("http://", "ws://", 1) + "/"
    )
    plugins.load_builtin_games()
    register_oracle()
    settings = Settings.from_env(env_file=None)
    configure_logging(settings.log_level, secrets=[settings.token])  # as ``python -m bot``
    return event_loop.run(
        serve(settings, games.REGISTRY, settle_heap=True), settings.event_loop
    )  # as run_bot does


if __name__ == "__main__":
    sys.exit(main())
