"""The discord.py adapter: slash commands, buttons, DMs; nothing here knows the rules.

Modules, one job each (each imports only those listed after it, type hints aside;
:mod:`~bot.discord.client` and :mod:`~bot.discord.lifecycle` sit on top):

* :mod:`~bot.discord.lifecycle` — the process: open the store, connect with back-off,
  stop on a signal (:func:`~bot.discord.lifecycle.serve`, :func:`~bot.discord.lifecycle.run_bot`);
* :mod:`~bot.discord.client` — :class:`~bot.discord.client.ZigguratBot` (unsharded or
  sharded), :func:`~bot.discord.client.create_bot`, the list of cog extensions;
* :mod:`~bot.discord.cogs` — one cog per concern, each an extension with its ``setup``;
* :mod:`~bot.discord.errors` — the command tree's last-resort error handler;
* :mod:`~bot.discord.delivery` — an :class:`~bot.service.Outcome` into messages;
* :mod:`~bot.discord.items` — the registry of persistent components, how a click runs
  its class, and the button of each service choice;
* :mod:`~bot.discord.buttons` — quick decisions, Undo, the abandon and resign
  confirmations, the stale-button answer;
* :mod:`~bot.discord.lobby_buttons` — the lobby message's buttons and option menus;
* :mod:`~bot.discord.picking` — the move picker's Play button and taps;
* :mod:`~bot.discord.menu_view` — a picker menu drawn as components;
* :mod:`~bot.discord.rematch` — the Rematch button;
* :mod:`~bot.discord.rules_button` — the page buttons of ``/rules``;
* :mod:`~bot.discord.game_button` — what every ``zg:<verb>:<game_id>`` button shares;
* :mod:`~bot.discord.handover` — clicks in DMs run by the process that owns the game;
* :mod:`~bot.discord.interactions` — the one guarded path every command and button
  takes (defer, call the service, answer, log and count, never a traceback);
* :mod:`~bot.discord.messages` — Discord's message limit and the answer helpers;
* :mod:`~bot.discord.custom_ids` — every ``custom_id`` pattern, builder and its limit;
* :mod:`~bot.discord.commands` — slash commands whose parameters depend on the
  registered games;
* :mod:`~bot.discord.translator` — command names and descriptions from the catalog;
* :mod:`~bot.discord.rest` — messages sent and edited through discord.py's own HTTP
  layer when nobody reads Discord's answer (a DM, a tally's edit);
* :mod:`~bot.discord.components` — a message's components as Discord's payload, and
  Discord's component limits.
"""
