"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, a loopback port.

Decisions:

* The binaries are Debian's ``postgresql`` package (``/usr/lib/postgresql/<ver>/bin``),
  or the folder in ``ZIGGURAT_PG_BIN``. When none is found the PostgreSQL tests
  fail (CI installs the package, ``.ci/run``); they skip only when
  ``ZIGGURAT_SKIP_POSTGRES=1`` says so, for a machine that cannot have it.
* PostgreSQL refuses to run as root: as root, the server runs as the
  ``postgres`` user (``runuser``) in a folder that user owns.
* The server is for tests only: ``fsync`` off (its data dies with the run;
  ``durable=True`` keeps it on, for measurements),
  trust authentication on 127.0.0.1 and a socket in its own folder.
* Each test gets a fresh database copied from a template that already holds
  the migrated schema (``CREATE DATABASE … TEMPLATE``), dropped after the test.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SKIP_VARIABLE = "ZIGGURAT_SKIP_POSTGRES"
TEMPLATE = "ziggurat_template"


def find_bin() -> Path | None:
    """The folder of ``initdb``/``postgres``/``psql``, if PostgreSQL is installed."""
    explicit = os.environ.get("ZIGGURAT_PG_BIN")
    candidates = [explicit] if explicit else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    which = shutil.which("initdb")
    if which:
        candidates.append(str(Path(which).parent))
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "postgres").is_file():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One running server; :meth:`create_database` hands out fresh databases."""

    def __init__(self, bin_dir: Path, *, durable: bool = False) -> None:
        self.bin = bin_dir
        #: fsync as in production (for measurements), instead of the tests' fsync=off
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="ziggurat-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_user: list[str] = []
        self._names = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        if os.geteuid() == 0:
            self._as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres", "postgres")
        self.root.chmod(0o755)

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as_user, *args], check=True, capture_output=True)

    def start(self) -> None:
        """Start the server and make the migrated template; stopped again if that fails."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
        )
        log = self.root / "server.log"
        self._process = subprocess.Popen(
            [
                *self._as_user,
                str(self.bin / "postgres"),
                "-D",
                str(self.data),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-k",
                str(self.root),
                "-c",
                "max_connections=200",
                *(() if self.durable else ("-c", "fsync=off", "-c", "full_page_writes=off")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
        )
        deadline = time.monotonic() + 60
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"postgres did not start: {log.read_text(errors='replace')}")
            done = subprocess.run(
                [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                capture_output=True,
            )
            if done.returncode == 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("postgres did not become ready in 60 s")
            time.sleep(0.1)
        self.sql(f"CREATE DATABASE {TEMPLATE}")
        self._migrate(TEMPLATE)

    def _migrate(self, name: str) -> None:
        import asyncio

        from bot.store.postgres import PostgresStore

        async def migrate() -> None:
            store = await PostgresStore.open(self.url(name))
            await store.close()

        asyncio.run(migrate())

    def sql(self, statement: str, database: str = "postgres") -> str:
        done = subprocess.run(
            [
                str(self.bin / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-v",
                "ON_ERROR_STOP=1",
                "-Atc",
                statement,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def create_database(self, migrated: bool = True) -> str:
        """A fresh database's name: the migrated schema, or nothing at all."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        self.sql(f"CREATE DATABASE {name} TEMPLATE {template}")
        return name

    def drop_database(self, name: str) -> None:
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        with contextlib.suppress(OSError):
            shutil.rmtree(self.root)
