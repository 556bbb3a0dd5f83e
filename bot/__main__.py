"""Command line: ``python -m bot`` runs the bot; ``python -m bot demo`` plays offline."""

from __future__ import annotations

import argparse
import logging
import sys

from bot import plugins
from bot.config import Settings
from bot.i18n import t


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ziggurat", description="Ziggurat Discord bot")
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play one complete game offline with random moves")
    demo.add_argument("--game", default=None, help="game type (default: the first registered)")
    demo.add_argument("--players", type=int, default=3)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", default="demo-boards", help="folder for the board images")
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
