"""What every message's components share: the untracked view and Discord's limits.

Decisions:

* Messages carry a :class:`ButtonView`, whose ``is_dispatchable`` is False so
  discord.py does not track it: tracking is unnecessary (the item classes are
  registered, :mod:`bot.discord.items`) and harmful, because a tracked view
  that times out — discord.py gives views on ephemeral messages a 15 minute
  timeout — *unregisters* the dynamic item classes it contains, which would
  silently kill every button.
* A :class:`ButtonView` is finished (stopped) from the start: discord.py's
  ``InteractionResponse.send_message`` keeps every unfinished view it sends in
  its view store, dispatchable or not, with a 15 minute timeout for an
  ephemeral one (a task per answer, the view held that long); a finished view
  is only laid out.
* The limits are Discord's documented ones; a custom_id's is in
  :mod:`bot.discord.custom_ids`.
"""

from __future__ import annotations

import discord

#: Discord's limit on a button label
MAX_LABEL = 80
#: Discord's limits on a select option's label and description, and a placeholder
MAX_OPTION_LABEL = 100
MAX_DESCRIPTION = 100
MAX_PLACEHOLDER = 150
#: Discord's limit on a select's options
MAX_OPTIONS = 25


class ButtonView(discord.ui.View):
    """A view only used to lay out components; discord.py does not track it (see above)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()  # finished: no view store keeps it, nor a timeout task (see above)

    def is_dispatchable(self) -> bool:
        return False
