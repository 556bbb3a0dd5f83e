"""One cog per concern, each module an extension with its ``async def setup(bot)``,
loaded in the order of :data:`bot.discord.client.EXTENSIONS`:

* :mod:`~bot.discord.cogs.lobby` — the ``/game`` group: new, join, start, abandon…
  (first: the next three add to its group);
* :mod:`~bot.discord.cogs.seats` — the seat commands in ``/game`` (pause, resign, replace…),
  served by :mod:`~bot.service.seats`;
* :mod:`~bot.discord.cogs.mine` — ``/game mine``;
* :mod:`~bot.discord.cogs.play` — ``/play``;
* :mod:`~bot.discord.cogs.help` — ``/help`` and ``/rules``;
* :mod:`~bot.discord.cogs.games` — every registered game's generated ``/<game>`` group;
* :mod:`~bot.discord.cogs.after` — ``/game export`` and ``/stats``.
"""
