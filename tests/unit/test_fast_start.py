"""A fast start (issue: one house): the server answers `initialize` before the verifier is loaded,
and `cairn --version` loads no engine. Each import is checked in a fresh interpreter, by the
modules it left in sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys

ENGINE = ("cairn.verify", "cairn.meaning", "cairn.index", "cairn.engine", "cairn.judge", "cairn.report",
          "cairn.answers.ask", "cairn.answers.evidence")


def _loaded(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cairn'))))"],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_the_server_module_loads_no_engine():
    loaded = _loaded("import cairn.lsp.server")
    assert "cairn.lsp.server" in loaded and "cairn.lsp.session" in loaded
    assert [m for m in loaded if m.startswith(ENGINE)] == []


def test_the_version_loads_no_engine_and_no_configuration():
    loaded = _loaded("import sys\nfrom click.testing import CliRunner\nfrom cairn.cli.main import main\n"
                     "r = CliRunner().invoke(main, ['--version'])\nassert r.exit_code == 0, r.output\n"
                     "assert 'support check rules:' in r.output")
    assert [m for m in loaded if m.startswith((*ENGINE, "cairn.core.config", "cairn.store"))] == []
