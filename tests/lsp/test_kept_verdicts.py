"""Claims' verdicts kept in the index across server starts (lsp/stored.py), through real servers.

A server started again on an unchanged workspace publishes what the first published without
verifying a claim (its log line per draft says how many claims it verified and how many verdicts
it read back); a changed source, claim or threshold verifies again and shows the new verdict; an
entry of the cache edited, copied under another claim's key or written on another machine (its
own key) is never read."""

from __future__ import annotations

import re
import sqlite3
import sys
from contextlib import asynccontextmanager, closing
from pathlib import Path

import pytest
from pytest_lsp import ClientServerConfig

from lsp_util import CITE_OK, build_demo, cli_report, start, until, uri

DRAFT = "drafts/kept.md"
GOOD = "A customer has 14 days to request a credit for a damaged delivery."
BAD = "A customer has 30 days to request a credit for a damaged delivery."
# a claim the quote backs only in part: its score lies between 0 and 1 (the threshold test moves it)
PARTIAL = "A customer has 14 days to request a credit for a damaged delivery by phone or by letter."
LOGGED = re.compile(r"(?P<rel>\S+): (?P<verified>\d+) claim\(s\) verified, (?P<read>\d+) verdict\(s\) read from the index")


def write_draft(root: Path, *claims: str) -> Path:
    body = "# Kept\n\n" + "".join(f"{c}\n\n{CITE_OK}\n" for c in claims)
    path = root / DRAFT
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The demo with a draft of a verified claim and a failing one. Checked once by the command
    line first: the demo's drafts cite superseded versions, which the first check restores from
    the snapshots into the index (a change of the index, so of every key)."""
    root = build_demo(tmp_path / "demo")
    write_draft(root, GOOD, BAD)
    cli_report(root)
    return root


def data_env(tmp_path: Path, name: str) -> dict:
    """The environment of another machine: its own data folder, so its own index key."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("CAIRN_")}
    env["XDG_DATA_HOME"] = str(tmp_path / f"data-{name}")
    return env


@asynccontextmanager
async def served(root: Path, env: dict | None = None):
    """One server's whole life over `root`: started, its first check cycle waited for, stopped."""
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"], server_env=env).start()
    try:
        await start(client, root)
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


def logged(client) -> dict[str, tuple[int, int]]:
    """draft -> (claims verified, verdicts read from the index), from the server's log."""
    out = {}
    for m in client.log_messages:
        found = LOGGED.search(m.message)
        if found:
            out[found["rel"]] = (int(found["verified"]), int(found["read"]))
    return out


async def first_run(client, root: Path) -> tuple[dict, dict]:
    """Every draft's published diagnostics and the log, once each draft with claims is logged."""
    drafts = sorted(str(p.relative_to(root)) for p in (root / "drafts").glob("*.md"))
    await until(lambda: all(d in logged(client) for d in drafts), what="every draft checked")
    await until(lambda: all(uri(root / d) in client.diagnostics for d in drafts), what="every draft published")
    diags = {d: sorted((x.range.start.line, x.code, x.message) for x in client.diagnostics[uri(root / d)])
             for d in drafts}
    return diags, logged(client)


def codes(diags: list) -> set[str]:
    return {code for _, code, _ in diags}


def cli_codes(root: Path) -> set[str]:
    """The codes of the command line's diagnostics of the draft's claims (run after the server)."""
    report = cli_report(root)
    (draft,) = [d for d in report["drafts"] if d["path"] == DRAFT]
    return {x["code"] for c in draft["claims"] for x in c["diagnostics"]}


async def test_a_second_start_reads_every_verdict_back_and_publishes_the_same(ws: Path):
    async with served(ws) as first:
        before, log1 = await first_run(first, ws)
    assert log1[DRAFT] == (2, 0)
    assert any(code == "number-mismatch" for _, code, _ in before[DRAFT])
    async with served(ws) as second:
        after, log2 = await first_run(second, ws)
    assert after == before
    # no claim of any draft was verified again: each verdict came from the index
    assert all(verified == 0 for verified, _ in log2.values()), log2
    assert log2[DRAFT] == (0, 2)
    assert sum(read for _, read in log2.values()) == sum(verified for verified, _ in log1.values())


async def test_an_edited_claim_is_verified_alone_and_gets_its_new_verdict(ws: Path):
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    write_draft(ws, GOOD, "Customers have 14 days to request a credit for a damaged delivery.")  # the bad claim fixed
    async with served(ws) as second:
        after, log2 = await first_run(second, ws)
    assert log2[DRAFT] == (1, 1)
    assert "number-mismatch" in codes(before[DRAFT])
    assert "number-mismatch" not in codes(after[DRAFT])
    assert codes(after[DRAFT]) == cli_codes(ws)


async def test_a_changed_source_verifies_again(ws: Path):
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    policy = ws / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("14 days", "10 days"), encoding="utf-8")
    async with served(ws) as second:
        after, log2 = await first_run(second, ws)
    assert log2[DRAFT] == (2, 0)
    # the quote of "14 days" is no longer in the current source: both claims say so now
    assert codes(after[DRAFT]) == cli_codes(ws)
    assert codes(after[DRAFT]) != codes(before[DRAFT])


async def test_a_changed_threshold_verifies_again(ws: Path):
    write_draft(ws, GOOD, PARTIAL)
    report = cli_report(ws)
    (draft,) = [d for d in report["drafts"] if d["path"] == DRAFT]
    score = draft["claims"][1]["support_score"]
    assert draft["claims"][1]["supported"] and 0 < score < 1, draft["claims"][1]
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    assert "unsupported-claim" not in codes(before[DRAFT])
    toml = ws / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("threshold = 0.5", f"threshold = {min(0.99, score + 0.01):.2f}"),
                    encoding="utf-8")
    async with served(ws) as second:
        after, log2 = await first_run(second, ws)
    assert log2[DRAFT] == (2, 0)
    assert "unsupported-claim" in codes(after[DRAFT])
    assert codes(after[DRAFT]) == cli_codes(ws)


def entries(root: Path) -> list[tuple[str, str, bytes]]:
    with closing(sqlite3.connect(root / ".cairn/index.db")) as conn:
        return conn.execute("SELECT key, value, mac FROM kv_cache WHERE key LIKE 'lsp-claim:%'").fetchall()


async def test_a_verdict_edited_or_copied_in_the_cache_is_not_read(ws: Path):
    """Someone with the index file (not this machine's key) makes the failing claim's entry say
    what the verified claim's says: by editing its value, and by copying the verified entry's
    value and MAC under its key. Neither is read: the claim is verified and still fails."""
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    rows = {k: (v, m) for k, v, m in entries(ws)}
    # the entries of the two claims (an entry holds the claim's parts, whose text is the claim's)
    good = [k for k, (v, _) in rows.items() if f'"text":"{GOOD}"' in v and '"supported":true' in v]
    bad = [k for k, (v, _) in rows.items() if f'"text":"{BAD}"' in v and '"number-mismatch"' in v]
    assert good and bad
    good_value, good_mac = rows[good[0]]
    for how in ("edited", "copied"):
        with closing(sqlite3.connect(ws / ".cairn/index.db")) as conn:
            for key in bad:
                if how == "edited":
                    conn.execute("UPDATE kv_cache SET value = ? WHERE key = ?", (good_value, key))
                else:
                    conn.execute("UPDATE kv_cache SET value = ?, mac = ? WHERE key = ?", (good_value, good_mac, key))
            conn.commit()
        async with served(ws) as second:
            after, log2 = await first_run(second, ws)
        assert after[DRAFT] == before[DRAFT], how
        assert log2[DRAFT] == (1, 1), how


async def test_verdicts_written_on_another_machine_are_not_read(ws: Path, tmp_path: Path):
    """A cloned or archived workspace brings its `.cairn/` along: the sender's entries carry the
    sender's MACs, and the receiver verifies every claim."""
    async with served(ws, data_env(tmp_path, "sender")) as first:
        before, _ = await first_run(first, ws)
    assert entries(ws)
    async with served(ws, data_env(tmp_path, "receiver")) as second:
        after, log2 = await first_run(second, ws)
    assert after == before
    assert log2[DRAFT] == (2, 0)


async def test_a_store_whose_cache_cannot_be_read_is_verified_as_before(ws: Path):
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    with closing(sqlite3.connect(ws / ".cairn/index.db")) as conn:
        conn.execute("DROP TABLE kv_cache")
        conn.commit()
    async with served(ws) as second:
        after, log2 = await first_run(second, ws)
        assert not [m for m in second.log_messages if "Traceback" in m.message]
    assert after == before
    assert log2[DRAFT][0] == 2


# A folder of the server (lsp/checking.Folder) in a fresh interpreter: the workspace indexed and the
# draft checked as a server's start checks it; what it read back and verified, and whether the
# verifier and the meaning rules were loaded.
_START = r"""
import json, sys
from pathlib import Path
from cairn.core.config import load_settings
from cairn.lsp.checking import Folder
from cairn.lsp.positions import Codec
root = Path(sys.argv[1])
folder = Folder(root, load_settings(root), Codec("utf-16"))
folder.index_all()
path = root / sys.argv[2]
state = folder.check(path, path.as_uri(), path.read_text(encoding="utf-8"), 1, is_open=True,
                     encoding_problem=False, previous=None)
print(json.dumps({"read": folder.stored.read, "codes": sorted(d.code for _, cr, _ in state.claims() for d in cr.diagnostics),
                  "loaded": sorted(m for m in ("cairn.verify.verifier", "cairn.meaning") if m in sys.modules)}))
"""


def started(root: Path) -> dict:
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", _START, str(root), DRAFT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


async def test_a_start_with_every_verdict_kept_loads_no_verifier_and_no_meaning_rules(ws: Path):
    async with served(ws) as first:
        before, _ = await first_run(first, ws)
    got = started(ws)
    assert got["read"] == 2 and got["loaded"] == []
    assert got["codes"] == sorted(code for _, code, _ in before[DRAFT])
    # a claim not kept is verified: the verifier (and the rules) are loaded for it
    write_draft(ws, GOOD, "Customers have 14 days to request a credit for a damaged delivery.")
    got = started(ws)
    assert got["read"] == 1 and got["loaded"] == ["cairn.meaning", "cairn.verify.verifier"]
    assert "number-mismatch" not in got["codes"]
