"""Access (issue point 3): nothing outside the configured source roots is
ever read or shown, Cairn's own index never writes through a link, and a
workspace alone cannot make Cairn contact a judge anywhere but loopback.

Through the CLI (`cairn index`, `check`, `chunks`) and, for the strongest
claim ("nothing is read"), in-process under a Python audit hook that sees
every file the engine opens.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from robust_util import check_json, make_demo, run_cairn

SECRET = "The vault code is 7319 and the spare key is under the third flowerpot."
POLICY_CHUNK = "691d71e4b46d8b0d"
POLICY_QUOTE = "A customer has 14 days to request a credit for a damaged delivery"


def chunk_id(source: str, text: str) -> str:
    return hashlib.sha256(f"{source}\n{text}".encode()).hexdigest()[:16]


def cite(claim: str, cid: str, quote: str, source: str | None = None) -> str:
    src = f"source: {json.dumps(source)}\n" if source is not None else ""
    return (f"{claim}\n\n```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\nquote: {json.dumps(quote)}\n"
            f"{src}```\n\n")


def codes_by_claim(report: dict, path: str) -> list[list[str]]:
    (d,) = [d for d in report["drafts"] if d["path"] == path]
    return [[x["code"] for x in c["diagnostics"]] for c in d["claims"]]


def all_output(proc) -> str:
    return proc.stdout + proc.stderr


# --------------------------------------------------------------------------
# Citations that name a path outside the roots


BAD_SOURCES = [
    "../../etc/passwd",
    "/etc/passwd",
    "sources/../../../etc/passwd",
    "sources/../drafts/credits-answer.md",
    "drafts/credits-answer.md",
    ".cairn/index.db",
    "sources/.././cairn.toml",
    "C:\\Windows\\win.ini",
    "sources\\policy.md",
    "~/.ssh/id_rsa",
    "sources/policy.md/../../../etc/passwd",
]


def test_citation_sources_outside_the_roots_are_denied(demo: Path):
    bad = list(BAD_SOURCES) + [str(demo / "sources" / "policy.md")]  # even the workspace's own file, absolute
    text = "".join(cite(f"Claim {i}: a customer has 14 days to request a credit.", POLICY_CHUNK, POLICY_QUOTE, s)
                   for i, s in enumerate(bad))
    (demo / "drafts" / "denied.md").write_text(text, encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/denied.md")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert codes_by_claim(report, "drafts/denied.md") == [["source-denied"]] * len(bad)
    for c in report["drafts"][0]["claims"]:
        assert c["supported"] is False and c["support_score"] is None
        assert [r["resolved"] for r in c["citations"]] == [False]
    out = all_output(proc) + all_output(run_cairn(demo, "check", "--format", "text", "drafts/denied.md"))
    assert "root:" not in out and "/bin/" not in out


def test_nothing_outside_the_roots_is_opened(demo: Path):
    """In-process, under an audit hook: verifying citations that name paths outside the roots
    opens no file outside the roots (the store is SQLite's, opened in C; git runs as a
    subprocess and is reported as such)."""
    from cairn.drafts import parse_draft
    from cairn.engine import checks as engine
    from cairn.index.workspace import Workspace
    from cairn.verify.verifier import Verifier

    ws = Workspace(demo)
    engine.index(ws)
    # warm up: lazy imports and package data (stop words) are read once, before watching
    Verifier(Workspace(demo)).verify_draft("drafts/w.md", parse_draft(cite(
        "A customer has 14 days to request a credit for a damaged delivery.", POLICY_CHUNK, POLICY_QUOTE,
        "sources/policy.md")))
    verifier = Verifier(ws)
    text = "".join(cite(f"Claim {i}.", POLICY_CHUNK, POLICY_QUOTE, s) for i, s in enumerate(BAD_SOURCES))
    text += cite("Unknown.", "0123456789abcdef", "The vault code", "../outside/secret.md")
    doc = parse_draft(text)
    opened: list[str] = []
    active = [True]

    def hook(event, args):
        if active[0] and event in ("open", "os.listdir", "os.scandir", "subprocess.Popen"):
            opened.append(f"{event} {args[0]!r}" if event != "subprocess.Popen" else f"{event} {args[1]!r}")

    sys.addaudithook(hook)
    try:
        result = verifier.verify_draft("drafts/x.md", doc)
    finally:
        active[0] = False
    assert [[d.code for d in c.diagnostics] for c in result.claims] == [["source-denied"]] * (len(BAD_SOURCES) + 1)
    roots = str(demo / "sources")
    outside = [o for o in opened if o.startswith("open ") and roots not in o]
    assert outside == [], outside


def test_symbolic_links_that_leave_the_roots(demo: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    src = demo / "sources"
    (src / "leak.md").symlink_to(outside / "secret.md")
    (src / "leakdir").symlink_to(outside, target_is_directory=True)
    (src / "to-draft.md").symlink_to(demo / "drafts" / "credits-answer.md")  # inside the workspace, not a root
    (src / "to-passwd.txt").symlink_to("/etc/passwd")
    (src / "same-root.md").symlink_to(src / "policy.md")  # stays inside the roots: a source like any other
    idx = run_cairn(demo, "index")
    assert idx.returncode == 0, idx.stderr
    for name in ("leak.md", "to-draft.md", "to-passwd.txt"):
        assert f"sources/{name}: not read" in idx.stderr
    chunks = run_cairn(demo, "chunks", "--json")
    sources = {json.loads(x)["source"] for x in chunks.stdout.splitlines()}
    assert "sources/same-root.md" in sources
    assert not {"sources/leak.md", "sources/to-draft.md", "sources/to-passwd.txt"} & sources
    assert not any(s.startswith("sources/leakdir") for s in sources)
    for name in ("sources/leak.md", "sources/leakdir/secret.md", "sources/to-passwd.txt"):
        proc = run_cairn(demo, "chunks", name)
        assert proc.returncode == 2 and "outside the source roots" in proc.stderr, proc.stderr
    leak_id = chunk_id("sources/leak.md", SECRET)
    quote = "The vault code is 7319"  # the draft's own words; the rest of the secret must never show
    draft = (cite("The vault code is 7319.", leak_id, quote, "sources/leak.md")
             + cite("The vault code is 7319.", chunk_id("sources/leakdir/secret.md", SECRET), quote,
                    "sources/leakdir/secret.md")
             + cite("The vault code is 7319.", leak_id, quote))
    (demo / "drafts" / "leak.md").write_text(draft, encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/leak.md")
    report = json.loads(proc.stdout)
    assert codes_by_claim(report, "drafts/leak.md") == [["source-denied"], ["source-denied"], ["unknown-chunk"]]
    everything = all_output(proc) + all_output(chunks) + all_output(run_cairn(demo, "check", "drafts/leak.md"))
    assert "flowerpot" not in everything
    assert "root:" not in everything


BAD_ROOTS = [
    (["../outside"], "leaves the workspace"),
    (["/etc"], "absolute path"),
    (["sources/../../outside"], "leaves the workspace"),
    (["C:\\\\Windows"], "absolute path"),
    (["linked-root"], "resolves outside the workspace"),
    (["via-link/sub"], "resolves outside the workspace"),
    (["sources", ""], "non-empty"),
    (["sources", 5], "sources"),
]


def test_a_root_outside_the_workspace_is_a_configuration_error(demo: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    (outside / "sub" / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    (demo / "linked-root").symlink_to(outside, target_is_directory=True)
    (demo / "via-link").symlink_to(outside, target_is_directory=True)
    for i, (roots, why) in enumerate(BAD_ROOTS):
        (demo / "cairn.toml").write_text(f"sources = {json.dumps(roots)}\n", encoding="utf-8")
        commands = (["check"], ["index"], ["chunks"], ["gc"]) if i == 0 else (["check", "--format", "json"],)
        for args in commands:
            proc = run_cairn(demo, *args)
            assert proc.returncode == 2, (roots, args, proc.stderr)
            assert "configuration error" in proc.stderr and why in proc.stderr, (roots, proc.stderr)
            assert "flowerpot" not in all_output(proc)
    store = demo / ".cairn"
    assert not store.exists() or not any(SECRET.encode() in p.read_bytes() for p in store.iterdir() if p.is_file())


def test_versions_of_a_source_that_left_the_roots(demo: Path):
    """archive/ was a source root; it is not any more. Its versions stay in the store and in
    git history, but no citation resolves to them and no command shows them."""
    archive = demo / "archive"
    archive.mkdir()
    (archive / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    (archive / "old.md").write_text("An archived paragraph about the vault and the flowerpot.\n", encoding="utf-8")
    make_demo._git(demo, "add", "-A")
    make_demo._git(demo, "commit", "-qm", "archive")
    (archive / "old.md").unlink()  # gone from disk before any index: only git history holds it
    (demo / "cairn.toml").write_text('sources = ["sources", "archive"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    assert run_cairn(demo, "index").returncode == 0
    sid = chunk_id("archive/secret.md", SECRET)
    chunks = run_cairn(demo, "chunks", "--json", "archive/secret.md").stdout
    assert sid in chunks  # indexed while archive/ was a root
    old_id = chunk_id("archive/old.md", "An archived paragraph about the vault and the flowerpot.")

    (demo / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    draft = (cite("The vault code is 7319.", sid, "The vault code is 7319", "archive/secret.md")
             + cite("The vault code is 7319.", sid, "The vault code is 7319")
             + cite("The vault code is 7319.", sid, "The vault code is 7319 and more", None)
             + cite("An archived paragraph.", old_id, "An archived paragraph about the vault"))
    (demo / "drafts" / "archived.md").write_text(draft, encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/archived.md")
    report = json.loads(proc.stdout)
    assert codes_by_claim(report, "drafts/archived.md") == [
        ["source-denied"], ["source-denied"], ["source-denied"], ["unknown-chunk"]]
    for c in report["drafts"][0]["claims"]:
        for r in c["citations"]:
            assert r["resolved"] is False and r["page"] is None
    outputs = [proc, run_cairn(demo, "check", "drafts/archived.md"), run_cairn(demo, "chunks"),
               run_cairn(demo, "chunks", "--json"), run_cairn(demo, "check", "--format", "sarif")]
    shown = "".join(all_output(p) for p in outputs).replace(draft, "")
    assert "flowerpot" not in shown and "spare key" not in shown
    refused = run_cairn(demo, "chunks", "archive/secret.md")
    assert refused.returncode == 2 and "outside the source roots" in refused.stderr


# --------------------------------------------------------------------------
# The index never writes through a link


def test_links_in_the_index_folder_never_write_outside(demo: Path, tmp_path: Path):
    victim = tmp_path / "victim"
    victim.mkdir()
    db = victim / "someone-elses.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE precious (x)")
        conn.execute("INSERT INTO precious VALUES (42)")
    (victim / "notes.txt").write_text("precious notes\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in victim.iterdir()}
    store = demo / ".cairn"
    if store.exists():
        import shutil

        shutil.rmtree(store)
    store.mkdir()
    (store / "index.db").symlink_to(db)
    (store / "index.db-wal").symlink_to(victim / "notes.txt")
    (store / "index.db-shm").symlink_to(victim / "new-shm")
    (store / ".gitignore").symlink_to(victim / "created-by-cairn")
    code, report, stderr = check_json(demo)
    assert report["metrics"]["claims"] > 0
    assert {p.name: p.read_bytes() for p in victim.iterdir()} == before
    assert not any(p.is_symlink() for p in store.iterdir())
    # the whole folder a link to somewhere else
    import shutil

    shutil.rmtree(store)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    store.symlink_to(elsewhere, target_is_directory=True)
    code2, report2, _ = check_json(demo)
    assert report2 == report
    assert list(elsewhere.iterdir()) == []
    assert store.is_dir() and not store.is_symlink()


# --------------------------------------------------------------------------
# The judge: a workspace alone reaches nothing but loopback

SITE = '''
import os, socket
_log = os.environ.get("CAIRN_TEST_CONNECT_LOG")
_real = socket.socket.connect
_real_ex = socket.socket.connect_ex

def _blocked(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        with open(_log, "a") as f:
            f.write(repr(address) + "\\n")
        raise OSError(101, "network is unreachable (blocked by the test)")

def connect(self, address):
    _blocked(self, address)
    return _real(self, address)

def connect_ex(self, address):
    _blocked(self, address)
    return _real_ex(self, address)

if _log:
    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex
'''

REMOTE = "http://203.0.113.5:8080/v1"  # TEST-NET-3: documentation only, never routed


@pytest.fixture
def no_network(tmp_path: Path):
    """An environment whose Python records, and blocks, every IP connection attempt."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITE, encoding="utf-8")
    log = tmp_path / "connections.log"
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
           "CAIRN_TEST_CONNECT_LOG": str(log), "CAIRN_TEST_KEY": "sk-test-not-a-real-key"}
    return env, log


def _judge_toml(url: str, key_env: str = "CAIRN_TEST_KEY") -> str:
    return ('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n[judge]\nprovider = "openai"\n'
            f'url = "{url}"\nmodel = "m"\napi_key_env = "{key_env}"\ntimeout = 20\nretries = 0\n')


@pytest.mark.parametrize("url", [REMOTE, "http://127.0.0.1@203.0.113.5/v1", "http://203.0.113.5#@127.0.0.1/",
                                 "http://localhost.203.0.113.5.nip.io/v1", "http://[::ffff:203.0.113.5]/v1",
                                 "http://0.0.0.0:9/v1"])
def test_a_workspace_judge_url_off_loopback_is_never_contacted(demo: Path, no_network, url):
    env, log = no_network
    (demo / "cairn.toml").write_text(_judge_toml(url), encoding="utf-8")
    t0 = time.monotonic()
    proc = run_cairn(demo, "check", "--format", "json", env=env)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 1, proc.stderr
    assert not log.exists(), log.read_text()  # no connection was even attempted
    assert elapsed < 15  # nothing waited on a network timeout
    report = json.loads(proc.stdout)
    fallbacks = [d for dr in report["drafts"] for c in dr["claims"] for d in c["diagnostics"]
                 if d["code"] == "judge-fallback"]
    assert fallbacks and all("refused" in d["message"] for d in fallbacks)
    assert "sk-test" not in all_output(proc)


def test_the_user_can_allow_a_remote_judge(demo: Path, no_network):
    """The control: the same URL allowed by the user (environment) is contacted, which the
    test's hook records and blocks. Without it, 'no attempt' above would prove nothing."""
    env, log = no_network
    (demo / "cairn.toml").write_text(_judge_toml(REMOTE), encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/credits-answer.md",
                     env={**env, "CAIRN_JUDGE_URL": REMOTE})
    assert proc.returncode in (0, 1), proc.stderr
    assert log.exists() and "203.0.113.5" in log.read_text()


@pytest.mark.parametrize("key_env", ["OPENAI_API_KEY", "HOME", "AWS_SECRET_ACCESS_KEY", "cairn_lower", "PATH"])
def test_a_key_variable_not_starting_with_cairn_is_a_configuration_error(demo: Path, no_network, key_env):
    env, log = no_network
    (demo / "cairn.toml").write_text(_judge_toml("http://127.0.0.1:9/v1", key_env), encoding="utf-8")
    proc = run_cairn(demo, "check", env={**env, key_env: "sk-should-never-be-read"})
    assert proc.returncode == 2, proc.stderr
    assert "configuration error" in proc.stderr and "CAIRN_" in proc.stderr
    assert not log.exists()
    assert "sk-should-never-be-read" not in all_output(proc)


def test_a_link_in_git_history_is_not_a_source(demo: Path):
    """A symbolic link committed under a source root: git stores the path it points to as
    its blob. Only regular files are sources, in history as on disk."""
    link = demo / "sources" / "passwd.md"
    link.symlink_to("/etc/passwd")
    make_demo._git(demo, "add", "-A")
    make_demo._git(demo, "commit", "-qm", "a link")
    link.unlink()
    make_demo._git(demo, "commit", "-qam", "no link")
    cid = chunk_id("sources/passwd.md", "/etc/passwd")
    (demo / "drafts" / "link.md").write_text(cite("A path.", cid, "/etc/passwd", "sources/passwd.md"),
                                             encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/link.md")
    assert codes_by_claim(json.loads(proc.stdout), "drafts/link.md") == [["unknown-chunk"]], proc.stdout
    assert "root:" not in all_output(proc)


def test_drafts_are_regular_files_inside_the_workspace(demo: Path, tmp_path: Path):
    """Found drafts (by discovery or by a glob) are regular files inside the workspace: a link
    to /dev/stdin hung `cairn check` (and would eat the server's protocol stream), a FIFO
    blocked, a link to a file elsewhere had it read, reported and rewritten by --fix."""
    import subprocess

    from robust_util import popen_cairn

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    notes = (demo / "drafts" / "review-notes.md").read_text(encoding="utf-8")  # holds fixable citations
    (elsewhere / "notes.md").write_text(notes.replace("# ", "# ELSEWHERE ", 1), encoding="utf-8")
    before = (elsewhere / "notes.md").read_bytes()
    drafts = demo / "drafts"
    (drafts / "stdin.md").symlink_to("/dev/stdin")
    (drafts / "zero.md").symlink_to("/dev/zero")
    (drafts / "elsewhere.md").symlink_to(elsewhere / "notes.md")
    os.mkfifo(drafts / "fifo.md")
    for toml in ('sources = ["sources"]\n', 'sources = ["sources"]\ndrafts = ["drafts/*.md"]\n'):
        (demo / "cairn.toml").write_text(toml, encoding="utf-8")
        proc = popen_cairn(demo, "check", "--format", "json", "--fix", stdin=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=60)  # stdin stays open: a read of it would never end
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError(f"cairn check hung on a draft that is not a regular file ({toml!r})") from None
        assert proc.returncode == 1, err
        paths = {d["path"] for d in json.loads(out)["drafts"]}
        assert "drafts/credits-answer.md" in paths
        assert not {"drafts/stdin.md", "drafts/zero.md", "drafts/fifo.md", "drafts/elsewhere.md"} & paths
        assert "ELSEWHERE" not in out
        assert (elsewhere / "notes.md").read_bytes() == before
        assert (drafts / "elsewhere.md").is_symlink()


@pytest.mark.parametrize("pattern, why", [("../*.md", "leaves the workspace"), ("drafts/../../x/*.md", "leaves"),
                                          ("/tmp/*.md", "absolute path"), ("", "non-empty")])
def test_a_drafts_glob_outside_the_workspace_is_a_configuration_error(demo: Path, pattern, why):
    (demo / "cairn.toml").write_text(f'sources = ["sources"]\ndrafts = {json.dumps([pattern])}\n', encoding="utf-8")
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2, proc.stderr
    assert "configuration error" in proc.stderr and why in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("toml, why", [
    ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
    ("a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n", "nested too deeply"),
    ('sources = ["sources"]\n\xff\n', "codec can't decode"),
    ("threshold = nan\n", "threshold"),
    ("[judge]\ntimeout = 1e308\n", "judge.timeout"),
    ("chunk_chars = 1\n", "chunk_chars"),
    ("unknown_key = 1\n", "unknown_key"),
])
def test_a_hostile_cairn_toml_is_a_configuration_error(demo: Path, toml, why):
    (demo / "cairn.toml").write_bytes(toml.encode("utf-8", "surrogateescape") if "\xff" not in toml
                                      else toml.replace("\xff", "").encode() + b"\xff\n")
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2, proc.stderr[-500:]
    assert "configuration error" in proc.stderr and why in proc.stderr and "Traceback" not in proc.stderr
