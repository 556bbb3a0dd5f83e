"""Settings, read from the environment and an optional ``.env`` file.

Every setting is documented in ``.env.example``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: Path
    dev_guild_id: int | None
    log_level: str
    turn_deadline_hours: float

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Read settings; values already in the environment win over ``.env``."""
        if env_file and Path(env_file).is_file():
            load_dotenv(env_file, override=False)
        guild = os.environ.get("ZIGGURAT_DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database=Path(os.environ.get("ZIGGURAT_DB", "./ziggurat.db")),
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("ZIGGURAT_LOG_LEVEL", "INFO").upper(),
            turn_deadline_hours=float(os.environ.get("ZIGGURAT_TURN_DEADLINE_HOURS", "24")),
        )
