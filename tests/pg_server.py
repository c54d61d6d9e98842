"""A throw-away PostgreSQL server for the tests of the shared index.

Debian's `postgresql` package gives `initdb` and `pg_ctl`; when they are
missing and the tests run as root, the package is installed (apt-get update
first). The cluster lives in a temporary folder, listens on 127.0.0.1 only (a
free port) and on a Unix socket in that folder, trusts local connections, and
is stopped and deleted after the run. PostgreSQL refuses to run as root: as
root, the cluster is made and run as the unprivileged `nobody`.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "cairn_test"


class Unavailable(Exception):
    """PostgreSQL cannot be installed or started here (the reason is the message)."""


def _bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2].split(".")[0]))
    for d in reversed(dirs):
        if (Path(d) / "pg_ctl").exists() and (Path(d) / "initdb").exists():
            return Path(d)
    return None


def _install() -> None:
    if os.geteuid() != 0:
        raise Unavailable("PostgreSQL (initdb, pg_ctl) is not installed and the tests do not run as root to"
                          " install it: apt-get install postgresql")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "--no-install-recommends",
                                              "postgresql", "postgresql-contrib"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise Unavailable(f"installing PostgreSQL failed ({' '.join(cmd)}): {' | '.join(tail)}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One running cluster; `new_database()` gives each test a database of its own."""

    def __init__(self) -> None:
        bindir = _bin_dir()
        if bindir is None:
            _install()
            bindir = _bin_dir()
            if bindir is None:
                raise Unavailable("the postgresql package installed no pg_ctl")
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="cairn-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "nobody", "--"]
        self._names = itertools.count(1)
        self._run([str(bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                   "--locale=C.UTF-8", "--no-sync"])
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.folder}"
                " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run([str(bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-o", opts,
                   "-w", "-t", "60", "start"])

    def _run(self, cmd: list[str]) -> None:
        proc = subprocess.run(self._as + cmd, capture_output=True, text=True, timeout=120, cwd=self.folder)
        if proc.returncode != 0:
            log = self.folder / "log"
            extra = log.read_text(errors="replace")[-500:] if log.exists() else ""
            raise Unavailable(f"{Path(cmd[0]).name} failed: {(proc.stderr or proc.stdout).strip()[-500:]} {extra}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"cairn_t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        except Unavailable:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
