"""One cog per concern: the lobby (``/game``), play (``/play``), help (``/help``) and
every game's generated commands (``/<game>``)."""
