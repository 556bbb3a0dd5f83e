"""The tests' throwaway PostgreSQL server (tests/support/postgres.py) as root.

Decisions:

* PostgreSQL refuses to run as root; the server runs as another user through
  ``runuser``, or, on a slim image without util-linux (a quiet benchmark machine),
  through a Python that drops root itself before it execs the server.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.postgres import PostgresServer, find_bin


def _uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for {pid}")


@pytest.mark.skipif(os.geteuid() != 0, reason="the path taken as root only")
def test_without_runuser_the_server_runs_as_another_user(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL binaries")
    real_which = shutil.which
    monkeypatch.setattr(
        shutil,  # the module tests.support.postgres asks
        "which",
        lambda name, *args, **kwargs: None if name == "runuser" else real_which(name),
    )
    server = PostgresServer(bin_dir)
    assert server._as_user[0] != "runuser"
    try:
        server.start()
        assert server._process is not None
        assert _uid(server._process.pid) != 0
        assert server.sql("SELECT 1").strip() == "1"
    finally:
        server.stop()
