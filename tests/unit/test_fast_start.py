"""A fast start (issue: one house): the server answers `initialize` before the verifier is loaded,
and `cairn --version` loads no engine. Each import is checked in a fresh interpreter, by the
modules it left in sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys

ENGINE = ("cairn.verify", "cairn.meaning", "cairn.index", "cairn.engine", "cairn.judge", "cairn.report",
          "cairn.answers.ask", "cairn.answers.evidence")
# what the session brings (configuration models, the store, the drafts' reader): loaded after
# `initialize` is answered
SESSION = ("cairn.lsp.session", "cairn.lsp.cite_action", "cairn.lsp.cited_text", "cairn.core.config",
           "cairn.store", "cairn.drafts", "cairn.support")
LIBRARIES = ("pydantic", "markdown_it", "yaml", "sqlite3")

# A real server made by create_server, speaking JSON-RPC over pipes in this interpreter: the
# `initialize` answer, the modules loaded when it was read, then the same after `initialized`
# (which makes the session) and a hover on no document (answered by the session).
_EXCHANGE = r"""
import json, os, sys, threading
from cairn.lsp.server import create_server
server = create_server()
r_in, w_in = os.pipe()
r_out, w_out = os.pipe()
threading.Thread(target=server.start_io, args=(os.fdopen(r_in, "rb"), os.fdopen(w_out, "wb")), daemon=True).start()
send, recv = os.fdopen(w_in, "wb"), os.fdopen(r_out, "rb")

def write(msg):
    body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
    send.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    send.flush()

def answer(msg_id):
    while True:
        length = 0
        while (line := recv.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        msg = json.loads(recv.read(length))
        if msg.get("id") == msg_id and "method" not in msg:
            return msg

def loaded():
    return sorted(m for m in sys.modules if m.startswith(("cairn", *LIBRARIES)))

LIBRARIES = LIBRARIES_HERE
write({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {
    "general": {"positionEncodings": ["utf-8", "utf-16"]}}}})
init = answer(1)
before = loaded()
write({"method": "initialized", "params": {}})
write({"id": 2, "method": "textDocument/hover", "params": {
    "textDocument": {"uri": "file:///nowhere/a.md"}, "position": {"line": 0, "character": 0}}})
hover = answer(2)
print(json.dumps({"init": init, "before": before, "after": loaded(), "hover": hover}))
os._exit(0)
""".replace("LIBRARIES_HERE", repr(LIBRARIES))


def _loaded(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cairn'))))"],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_the_server_module_loads_no_engine_and_no_session():
    loaded = _loaded("import cairn.lsp.server")
    assert "cairn.lsp.server" in loaded
    assert [m for m in loaded if m.startswith(ENGINE + SESSION)] == []


def test_initialize_is_answered_before_the_session_is_loaded():
    out = subprocess.run([sys.executable, "-c", _EXCHANGE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.splitlines()[-1])
    caps = got["init"]["result"]["capabilities"]
    # the answer is the full server's: every feature registered, UTF-8 preferred (SPEC section 8)
    assert caps["positionEncoding"] == "utf-8"
    assert caps["textDocumentSync"]["change"] == 2
    assert caps["codeActionProvider"] == {"codeActionKinds": ["quickfix", "source.fixAll.cairn"],
                                          "resolveProvider": True}
    assert caps["hoverProvider"] and caps["definitionProvider"] and "completionProvider" in caps
    assert "cairn.evidence" in caps["executeCommandProvider"]["commands"]
    assert [m for m in got["before"] if m.startswith(ENGINE + SESSION + LIBRARIES)] == []
    # after `initialized` the session is there and answers
    assert "cairn.lsp.session" in got["after"]
    assert got["hover"] == {"jsonrpc": "2.0", "id": 2, "result": None}


def test_the_version_loads_no_engine_and_no_configuration():
    loaded = _loaded("import sys\nfrom click.testing import CliRunner\nfrom cairn.cli.main import main\n"
                     "r = CliRunner().invoke(main, ['--version'])\nassert r.exit_code == 0, r.output\n"
                     "assert 'support check rules:' in r.output")
    assert [m for m in loaded if m.startswith((*ENGINE, "cairn.core.config", "cairn.store"))] == []


def test_cairn_version_loads_neither_the_command_line_nor_a_rule():
    """`cairn --version` (the console script's door, cli/entry.py) prints what the click command
    prints, without click, the commands' modules or a module of the support check's rules."""
    door = subprocess.run([sys.executable, "-c", "import sys, json\nsys.argv = ['cairn', '--version']\n"
                           "from cairn.cli.entry import main\nmain()\n"
                           "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('cairn', 'click')))))"],
                          capture_output=True, text=True, timeout=120, check=True)
    *printed, modules = door.stdout.splitlines()
    loaded = json.loads(modules)
    assert [m for m in loaded if m.startswith(("click", "cairn.cli.main", "cairn.support", *ENGINE))] == []
    clicked = subprocess.run([sys.executable, "-c", "from click.testing import CliRunner\n"
                              "from cairn.cli.main import main\nprint(CliRunner().invoke(main, ['--version']).output, end='')"],
                             capture_output=True, text=True, timeout=120, check=True)
    assert printed == clicked.stdout.splitlines()
    assert printed[0] == "cairn, version 0.1.0" and printed[1].startswith("support check rules: ")
    # the module the console script runs (pyproject.toml) and `python -m cairn` say the same
    run = subprocess.run([sys.executable, "-m", "cairn", "--version"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.splitlines() == printed
