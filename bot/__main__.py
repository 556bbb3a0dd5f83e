"""Command line: ``python -m bot`` runs the bot; ``python -m bot demo`` plays offline.

``python -m bot backup DEST``, ``forget-guild GUILD_ID`` and
``clear-dev-commands GUILD_ID`` are admin commands (:mod:`bot.admin`).

Decisions:

* Settings are read and checked (:meth:`~bot.config.Settings.from_env`)
  before anything else; a bad value prints one line per problem and exits
  with code 2.
* Logging is configured once, here (:func:`bot.logs.configure_logging`): one
  line per record on stderr, payload loggers held at INFO, secrets masked.
  Admin commands log warnings and errors only, unless DEBUG is asked for.
"""

from __future__ import annotations

import argparse
import logging
import sys

from bot import admin, plugins
from bot.config import ConfigError, Settings
from bot.i18n import t
from bot.logs import configure_logging


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ziggurat", description="Ziggurat Discord bot")
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play one complete game offline with random moves")
    demo.add_argument("--game", default=None, help="game type (default: the first registered)")
    demo.add_argument("--players", type=int, default=3)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", default="demo-boards", help="folder for the board images")
    admin.add_parsers(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    registry = plugins.load_builtin_games()
    first_game = next(iter(sorted(registry)), "tigris")
    if args.command == "demo":
        from bot.demo import main as demo_main

        if not registry:
            print(t("en", "app.no_games"), file=sys.stderr)
            return 2
        return demo_main(args.game or first_game, args.players, args.seed, args.out)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print("\n".join(exc.lines), file=sys.stderr)
        return 2
    if args.command in admin.COMMANDS:
        quiet = max(logging.getLevelName(settings.log_level), logging.WARNING)
        configure_logging(quiet, secrets=[settings.token])
        return admin.run(args, settings)
    configure_logging(settings.log_level, secrets=[settings.token])
    if settings.token is None:
        print(t("en", "app.no_token", game=first_game), file=sys.stderr)
        return 2
    from bot.discord.client import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
