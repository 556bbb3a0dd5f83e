"""Command line: ``python -m bot`` runs the bot; ``python -m bot demo`` plays offline."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import NoReturn

from bot import demo, plugins
from bot.config import Settings
from bot.i18n import t


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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    registry = plugins.load_builtin_games()
    first_game = next(iter(sorted(registry)), "tigris")
    if args.command == "demo":
        return demo.main(args)
    settings = Settings.from_env()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if settings.token is None:
        print(t("en", "app.no_token", game=first_game), file=sys.stderr)
        return 2
    from bot.discord.client import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
