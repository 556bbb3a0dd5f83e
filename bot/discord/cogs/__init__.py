"""One cog per concern: the lobby (``/game``), play (``/play``), help (``/help``) and
each game's own commands (``/tigris``)."""
