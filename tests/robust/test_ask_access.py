"""`cairn ask` and the ask URL: a workspace alone reaches nothing but loopback (the
judge's rule, tests/robust/test_access.py, whose connection-recording hook is reused)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cairn_testing import run_cairn
from test_access import REMOTE, all_output, no_network  # noqa: F401 - no_network is a fixture used by name

QUESTION = "How long does a customer have to request a credit?"


def _ask_toml(url: str) -> str:
    return ('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n[ask]\nprovider = "openai"\n'
            f'url = "{url}"\nmodel = "m"\napi_key_env = "CAIRN_TEST_KEY"\ntimeout = 20\nretries = 0\n')


@pytest.mark.parametrize("url", [REMOTE, "http://127.0.0.1@203.0.113.5/v1", "http://[::ffff:203.0.113.5]/v1"])
def test_a_workspace_ask_url_off_loopback_is_never_contacted(demo: Path, no_network, url):  # noqa: F811 - the fixture
    env, log = no_network
    (demo / "cairn.toml").write_text(_ask_toml(url), encoding="utf-8")
    proc = run_cairn(demo, "ask", QUESTION, env=env)
    assert proc.returncode == 2
    assert "refused to contact the ask URL" in proc.stderr
    assert not log.exists(), log.read_text()  # no connection was even attempted
    assert "sk-test" not in all_output(proc)


def test_the_user_can_allow_a_remote_ask_url(demo: Path, no_network):  # noqa: F811 - the fixture
    """The control: allowed by the user (environment), the URL is contacted, which the hook records and blocks."""
    env, log = no_network
    (demo / "cairn.toml").write_text(_ask_toml(REMOTE), encoding="utf-8")
    proc = run_cairn(demo, "ask", QUESTION, env={**env, "CAIRN_ASK_URL": REMOTE})
    assert proc.returncode == 1, proc.stderr
    assert "the model gave no answer" in proc.stderr
    assert log.exists() and "203.0.113.5" in log.read_text()
    assert "sk-test" not in all_output(proc)
