"""Command line: ``python -m bot`` runs the bot; ``python -m bot demo`` plays offline.

``python -m bot arena`` measures computer players against each other
(:mod:`bot.arena`). ``python -m bot replay FILE`` draws an exported game's boards again
(:mod:`bot.replay_cli`). ``python -m bot backup DEST``, ``forget-guild GUILD_ID`` and
``clear-dev-commands GUILD_ID`` are admin commands (:mod:`bot.admin`);
``python -m bot migrate-db --to postgresql://…`` copies a SQLite file into
PostgreSQL (:mod:`bot.migrate_db`).

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
from typing import NoReturn

from bot import admin, arena, demo, migrate_db, plugins, replay_cli
from bot.config import ConfigError, Settings
from bot.i18n import t
from bot.logs import configure_logging


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments get one line on stderr and exit code 2, not a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="ziggurat", description="Ziggurat Discord bot")
    commands = parser.add_subparsers(dest="command", parser_class=OneLineParser)
    demo_parser = commands.add_parser(
        "demo", help="play one complete game offline with random moves"
    )
    demo.add_arguments(demo_parser)
    replay_cli.add_arguments(commands.add_parser("replay", help="draw an exported game again"))
    arena.add_arguments(
        commands.add_parser("arena", help="measure computer players against each other")
    )
    admin.add_parsers(commands)
    migrate_db.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    registry = plugins.load_builtin_games()
    first_game = next(iter(sorted(registry)), "")
    if args.command == "demo":
        return demo.main(args)
    if args.command == "replay":
        return replay_cli.main(args)
    if args.command == "arena":
        return arena.main(args)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print("\n".join(exc.lines), file=sys.stderr)
        return 2
    if args.command in (*admin.COMMANDS, migrate_db.COMMAND):
        quiet = max(logging.getLevelName(settings.log_level), logging.WARNING)
        configure_logging(quiet, secrets=[settings.token])
        if args.command == migrate_db.COMMAND:
            return migrate_db.run(args, settings)
        return admin.run(args, settings)
    configure_logging(settings.log_level, secrets=[settings.token])
    if settings.token is None:
        print(t("en", "app.no_token", game=first_game), file=sys.stderr)
        return 2
    from bot.discord.lifecycle import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
