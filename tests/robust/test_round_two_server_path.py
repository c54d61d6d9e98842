"""Trust boundaries, round two, finding 14: the VS Code extension starts `<python> -P -m cairn
serve` outside the workspace, so a cloned folder's own `tomllib.py` (a module the server
imports) is never run inside the server. The flags are read from the extension's source, the
server is started as the extension starts it and speaks JSON-RPC, and the same start without
-P from inside the folder shows what the flag prevents."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "client-vscode" / "src" / "core" / "serverCommand.ts"


def _extension_args() -> list[str]:
    text = EXTENSION.read_text(encoding="utf-8")
    found = re.search(r"args: \[([^\]]*'-m', 'cairn', 'serve')\]", text)
    assert found, "the extension no longer starts `-m cairn serve`"
    return re.findall(r"'([^']*)'", found.group(1))


def _frame(msg: dict) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _serve(args: list[str], cwd: Path, root: Path) -> subprocess.CompletedProcess:
    messages = b"".join(_frame(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ))
    return subprocess.run([sys.executable, *args], input=messages, cwd=cwd, capture_output=True, timeout=120)


def _hostile_folder(tmp_path: Path) -> tuple[Path, Path]:
    ws = tmp_path / "cloned"
    (ws / "sources").mkdir(parents=True)
    (ws / "cairn.toml").write_text("threshold = 0.5\n", encoding="utf-8")
    marker = tmp_path / "ran"
    (ws / "tomllib.py").write_text(f"open({str(marker)!r}, 'w').write('the workspace ran code')\n"
                                   "from tomli import *  # noqa\n", encoding="utf-8")
    return ws, marker


def test_the_extensions_start_runs_no_module_of_the_workspace(tmp_path: Path):
    args = _extension_args()
    assert args[0] == "-P"
    ws, marker = _hostile_folder(tmp_path)
    # even from inside the folder (the extension starts it elsewhere): -P keeps it off sys.path
    done = _serve(args, ws, ws)
    assert b'"id": 1' in done.stdout or b'"id":1' in done.stdout, done.stderr[-2000:]
    assert b"capabilities" in done.stdout
    assert not marker.exists()


def test_without_the_flag_the_workspace_module_would_run(tmp_path: Path):
    """What -P prevents: `python -m` puts the working directory first on sys.path."""
    ws, marker = _hostile_folder(tmp_path)
    _serve(["-m", "cairn", "serve"], ws, ws)
    assert marker.exists()
