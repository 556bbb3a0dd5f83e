"""Ziggurat: asynchronous ancient-world board games in Discord channels."""

__version__ = "0.1.0"
