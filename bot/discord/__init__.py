"""The discord.py adapter: slash commands, buttons, DMs; nothing here knows the rules.

Modules, one job each:

* :mod:`~bot.discord.client` — :class:`ZigguratBot`, :func:`create_bot`, :func:`run_bot`;
* :mod:`~bot.discord.interactions` — the one path every command and button takes
  (defer, call the service, answer, never a traceback);
* :mod:`~bot.discord.delivery` — an :class:`~bot.service.Outcome` into messages;
* :mod:`~bot.discord.buttons` — persistent buttons (``DynamicItem``) for quick decisions;
* :mod:`~bot.discord.commands` — building slash commands whose parameters depend on the
  registered games;
* :mod:`~bot.discord.translator` — command names and descriptions from the catalog;
* :mod:`~bot.discord.errors` — the command tree's last-resort error handler;
* :mod:`~bot.discord.cogs` — one cog per concern: lobby, play, help, and the
  ``/<game>`` groups generated from every registered game's verb table.
"""
