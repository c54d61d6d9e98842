"""Source policy through the real CLI (SPEC sections 2, 4, 5, 6, 7): authority
tiers and `low-authority`, `support_rate` and `source_quality`, access per
principal (`--as`, CAIRN_PRINCIPAL, cairn.toml) with every output searched
for a denied source's text, and the hostile configurations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn_testing import run_cairn
from policy_ws import SECRET, SECRET_WORDS, TOML, cite, make


def report(ws: Path, *args: str, env: dict | None = None) -> dict:
    proc = run_cairn(ws, "check", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def claims(rep: dict) -> list[dict]:
    return [c for d in rep["drafts"] for c in d["claims"]]


def codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


# -- authority and the metrics ------------------------------------------------------


def test_tiers_low_authority_and_metrics(tmp_path: Path) -> None:
    ws = make(tmp_path)
    rep = report(ws, "--as", "counsel")
    adopted, proposal, memo = claims(rep)
    assert adopted["supported"] and adopted["citations"][0]["authority"] == "official"
    assert proposal["citations"][0]["authority"] == "draft"
    assert codes(proposal) == ["low-authority"] and not proposal["supported"]
    (d,) = proposal["diagnostics"]
    assert d["severity"] == "warning" and "draft" in d["message"] and "official" in d["message"]
    assert memo["supported"] and memo["citations"][0]["authority"] == "official"
    m = rep["metrics"]
    # every citation resolved: support_rate = verified / claims fully resolved
    assert m["resolution"] == 1.0 and m["support_rate"] == pytest.approx(2 / 3)
    assert m["source_quality"] == {"authoritative": 0, "official": 2, "internal": 0, "draft": 0}

    text = run_cairn(ws, "check", "--as", "counsel")
    assert text.returncode == 1
    assert "(draft)" in text.stdout and "low-authority" in text.stdout
    assert "support 66.7%" in text.stdout and "source quality authoritative 0, official 2" in text.stdout
    sarif = json.loads(run_cairn(ws, "check", "--as", "counsel", "--format", "sarif").stdout)
    run = sarif["runs"][0]
    (low,) = [r for r in run["results"] if r["ruleId"] == "low-authority"]
    assert low["properties"]["citations"] == [{"source": "sources/proposal.md", "authority": "draft"}]
    assert run["properties"]["metrics"]["support_rate"] == pytest.approx(2 / 3)
    assert run["properties"]["metrics"]["source_quality"]["official"] == 2


def test_without_tiers_source_quality_is_null(tmp_path: Path) -> None:
    ws = make(tmp_path, toml="")
    rep = report(ws)
    assert rep["metrics"]["source_quality"] is None
    assert all(c["citations"][0]["authority"] is None for c in claims(rep))
    assert all("low-authority" not in codes(c) for c in claims(rep))
    assert rep["metrics"]["support_rate"] == 1.0


def test_last_matching_policy_wins_per_key(tmp_path: Path) -> None:
    toml = TOML + '[[policy]]\npath = "sources/*.md"\naccess = []\n[[policy]]\npath = "sources/pro*"\nauthority = "internal"\n'
    rep = report(make(tmp_path, toml), "--as", "counsel")
    adopted, proposal, memo = claims(rep)
    assert proposal["citations"][0]["authority"] == "internal"  # the later entry's tier
    assert adopted["citations"][0]["authority"] == "official"  # untouched by an entry without `authority`


def test_gate_watches_support_rate(tmp_path: Path) -> None:
    ws = make(tmp_path)
    (ws / "base.json").write_text(run_cairn(ws, "check", "--as", "counsel", "--format", "json").stdout)
    base = json.loads((ws / "base.json").read_text())
    base["metrics"]["support_rate"] = 0.9  # an earlier run that was better supported
    (ws / "base.json").write_text(json.dumps(base))
    proc = run_cairn(ws, "check", "--as", "counsel", "--baseline", "base.json")
    assert proc.returncode == 3
    assert "support_rate fell from 0.9000 to 0.6667" in proc.stderr


# -- access per principal ---------------------------------------------------------------


def outputs(ws: Path, *flags: str, env: dict | None = None) -> str:
    """Everything the CLI prints about the workspace for one principal."""
    out = []
    for args in (["check"], ["check", "--format", "json"], ["check", "--format", "sarif"],
                 ["chunks"], ["chunks", "--json"], ["check", "--strict"]):
        proc = run_cairn(ws, *args, *flags, env=env)
        assert proc.returncode in (0, 1), proc.stderr
        out += [proc.stdout, proc.stderr]
    return "\n".join(out)


def test_counsel_only_source_checked_as_two_principals(tmp_path: Path) -> None:
    ws = make(tmp_path)
    as_counsel = outputs(ws, "--as", "counsel")  # first: its cached reports must not serve the reader
    assert all(w in as_counsel for w in SECRET_WORDS)  # the search below can find the text
    as_reader = outputs(ws, "--as", "reader")
    for w in SECRET_WORDS:
        assert w not in as_reader
    rep = report(ws, "--as", "reader")
    memo = claims(rep)[2]
    assert codes(memo) == ["source-denied"] and not memo["supported"]
    assert memo["citations"][0]["quote"] is None and not memo["citations"][0]["resolved"]
    assert "reader" in memo["diagnostics"][0]["message"]
    # a source named in the citation is refused before its chunk is read
    (ws / "drafts" / "a.md").write_text(cite("The settlement is capped.", "sources/counsel/memo.md", SECRET,
                                             named=True), encoding="utf-8")
    rep = report(ws, "--as", "reader")
    assert codes(claims(rep)[0]) == ["source-denied"]
    proc = run_cairn(ws, "chunks", "--as", "reader", "sources/counsel/memo.md")
    assert proc.returncode == 2 and "not readable" in proc.stderr and SECRET not in proc.stdout


def test_principal_from_environment_and_file(tmp_path: Path) -> None:
    ws = make(tmp_path, 'principal = "counsel"\n' + TOML)
    # the workspace's own file names counsel, the user's environment names reader: the user wins
    assert codes(claims(report(ws, env={"CAIRN_PRINCIPAL": "reader"}))[2]) == ["source-denied"]
    assert SECRET not in run_cairn(ws, "check", env={"CAIRN_PRINCIPAL": "reader"}).stdout
    # --as wins over the environment
    assert claims(report(ws, "--as", "counsel", env={"CAIRN_PRINCIPAL": "reader"}))[2]["supported"]
    # the file alone decides when the user names nobody
    assert claims(report(ws, env={"CAIRN_PRINCIPAL": ""}))[2]["supported"]
    # the form in the SPEC's sample: a `principal` line under [principals]
    (ws / "cairn.toml").write_text(TOML + 'principal = "reader"\n', encoding="utf-8")
    assert codes(claims(report(ws, env={"CAIRN_PRINCIPAL": ""}))[2]) == ["source-denied"]


def test_unknown_principal_reads_only_unlabelled_sources(tmp_path: Path) -> None:
    rep = report(make(tmp_path), "--as", "visitor")
    adopted, _, memo = claims(rep)
    assert adopted["supported"] and codes(memo) == ["source-denied"]


# -- hostile configurations -------------------------------------------------------------


@pytest.mark.parametrize("toml, said", [
    ('[[policy]]\npath = "../other/**"\naccess = ["x"]\n', "leaves the workspace"),
    ('[[policy]]\npath = "/etc/**"\n', "absolute path"),
    ('[[policy]]\npath = "sources/a/../../x"\n', "leaves the workspace"),
    ('[authority]\ntiers = ["a"]\n[[policy]]\npath = "sources/**"\nauthority = "b"\n', "not one of authority.tiers"),
    ('[authority]\ntiers = ["a"]\nminimum = "z"\n', "authority.minimum"),
    ('[[policy]]\npath = "sources/**"\ndate = "12 May"\n', "YYYY-MM-DD"),
    ('[principals]\n"bad\\u001b[31m" = ["x"]\n', "not a valid name"),
    ('[[policy]]\npath = "sources/**"\naccess = ["a b"]\n', "not a valid name"),
    ('[[policy]]\npath = "sources/**"\nwho = 1\n', "who"),
])
def test_bad_policy_is_a_configuration_error(tmp_path: Path, toml: str, said: str) -> None:
    ws = make(tmp_path, toml)
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2, proc.stdout
    assert said in proc.stderr and "Traceback" not in proc.stderr
    assert "\x1b" not in proc.stderr


@pytest.mark.parametrize("name", ["../counsel", "counsel\nreader", "a" * 65, "", "-x", "r\x1b[2Jx"])
def test_principal_with_odd_characters_is_refused(tmp_path: Path, name: str) -> None:
    ws = make(tmp_path)
    proc = run_cairn(ws, "check", env={"CAIRN_PRINCIPAL": name} if name else None,
                     ) if name.startswith("-") or not name else run_cairn(ws, "check", "--as", name)
    if not name:  # an empty principal is no principal: the owner reads everything
        assert proc.returncode == 1 and SECRET in proc.stdout
        return
    assert proc.returncode == 2 and "not a valid name" in proc.stderr
    assert "\x1b" not in proc.stderr and SECRET not in proc.stdout
