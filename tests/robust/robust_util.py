"""Helpers of the robustness suite (tests/robust): demo workspaces, the real
`cairn` process, tree hashes and the size of the fuzz runs.

Short runs by default (CI); CAIRN_LONG_TESTS=1 makes the fuzz runs long.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
if str(FIXTURES) not in sys.path:
    sys.path.insert(0, str(FIXTURES))

import make_demo  # noqa: E402 - found through the path set above
from cairn_testing import open_doc, uri  # noqa: E402,F401 - after the path set-up; re-exported
from cairn_testing import until as _until  # noqa: E402 - after the path set-up

LONG = os.environ.get("CAIRN_LONG_TESTS") == "1"

settings.register_profile(
    "cairn-robust",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    print_blob=True,
)


def examples(short: int, long: int) -> int:
    """Hypothesis max_examples: short in CI, long with CAIRN_LONG_TESTS=1."""
    return long if LONG else short


def build_demo(dest: Path) -> Path:
    return make_demo.build(dest)


def copy_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    return dest


def cairn_env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAIRN_")}
    env.update(extra or {})
    return env


def run_cairn(cwd: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cairn", *args],
        cwd=cwd, capture_output=True, text=True, env=cairn_env(env), timeout=timeout,
    )


def popen_cairn(cwd: Path, *args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cairn", *args],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cairn_env(env), **kw,
    )


def check_json(cwd: Path, *args: str, env: dict | None = None) -> tuple[int, dict, str]:
    proc = run_cairn(cwd, "check", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def tree_digest(root: Path, skip: tuple[str, ...] = (".cairn", ".git")) -> dict[str, str]:
    """relative path -> sha256 (or "link:<target>") of every file under root, `skip` folders aside."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for name in sorted(filenames) + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                out[rel] = "link:" + os.readlink(p)
            else:
                st = p.stat()
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() + f":{st.st_mode:o}"
    return out


def vm_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


# --------------------------------------------------------------------------
# The language server (a real `cairn serve` driven by pytest-lsp)

CHECKED = "cairn/checked"
until = functools.partial(_until, timeout=30.0)  # a loaded machine: longer waits


async def lsp_start(client, root: Path, options: dict | None = None, timeout: float = 60):
    """initialize + initialized; returns once the first check cycle is done."""
    import asyncio
    import time

    from lsprotocol import types
    from pytest_lsp import client_capabilities

    client.checked = []

    @client.feature(CHECKED)
    def on_checked(params):
        client.checked.append(params)

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def on_lens_refresh(params):
        return None

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params):
        return None

    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
            initialization_options={"debounce_ms": 0, **(options or {})},
        )
    )
    end = time.monotonic() + timeout
    while not client.checked:
        assert time.monotonic() < end, "no first check cycle"
        await asyncio.sleep(0.02)


def server_pid(client) -> int:
    return client._server.pid
