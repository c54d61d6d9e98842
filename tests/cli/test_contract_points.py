"""Points of the contract (SPEC sections 4 and 5) that an audit of `cairn
check` found the engine did not keep, each through the real CLI: an ignored
resolution code does not make a claim verified, a frame a few words from
the quote still retracts it, the seed rule reads nothing beside the words,
a draft named twice is one answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn_testing import check_json, run_cairn


def _workspace(root: Path, sources: dict[str, str], toml: str = "") -> Path:
    for rel, text in sources.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / "drafts").mkdir(parents=True, exist_ok=True)
    (root / "cairn.toml").write_text(toml, encoding="utf-8")
    proc = run_cairn(root, "index")
    assert proc.returncode == 0, proc.stderr
    return root


def _block(root: Path, source: str, quote: str, extra: str = "") -> str:
    """A cite block for `quote` in `source`, from the chunks as `cairn chunks --json` lists them."""
    chunks = [json.loads(x) for x in run_cairn(root, "chunks", "--json").stdout.splitlines()]
    c = next(c for c in chunks if c["source"] == source and quote in c["text"])
    start = c["text"].index(quote)
    return (f"```cite\nchunk_id: {c['chunk_id']}\nstart: {start}\nend: {start + len(quote)}\n"
            f"quote: {json.dumps(quote)}\nsource: {source}\n{extra}```\n")


def _claims(report: dict) -> dict[str, dict]:
    return {c["text"]: c for d in report["drafts"] for c in d["claims"]}


def test_an_ignored_resolution_code_does_not_verify_a_claim_with_nothing_resolved(tmp_path: Path):
    """SPEC section 4: a claim is verified when all its citations resolve and support passes;
    an ignored code is a hint and fails nothing itself, but support is never checked without a
    resolved quote, so the claim stays unverified (it had been verified, and its draft faithful)."""
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days.\n"})
    good = _block(root, "sources/terms.md", "Refunds are paid within 14 days")
    cid = good.split("chunk_id: ")[1].split("\n")[0]
    draft = (
        "Refunds are paid within two weeks.\n\n"
        "```cite\nchunk_id: 0123456789abcdef\nstart: 0\nend: 10\nquote: \"Refunds ar\"\nignore: [unknown-chunk]\n```\n\n"
        "Refunds are paid within 14 days.\n\n"
        f"```cite\nchunk_id: {cid}\nstart: 0\nend: 12\nquote: \"Refunds  are\"\nignore: [quote-not-found]\n```\n\n"
        "Refunds are paid within 14 days, as the terms say.\n\n"
        "```cite\nchunk_id: 0123456789abcdef\nstart: 0\nend: 7\nquote: \"Refunds\"\nsource: ../etc/passwd\n"
        "ignore: [source-denied]\n```\n\n"
        "Refunds are paid within 14 days of a request.\n\n"
        + good + "\n```cite\nchunk_id: 0123456789abcdef\nstart: 0\nend: 7\nquote: \"Refunds\"\nignore: [unknown-chunk]\n```\n"
    )
    (root / "drafts" / "d.md").write_text(draft, encoding="utf-8")
    code, report = check_json(root)
    claims = _claims(report)
    for text, ignored in (("Refunds are paid within two weeks.", "unknown-chunk"),
                          ("Refunds are paid within 14 days.", "quote-not-found"),
                          ("Refunds are paid within 14 days, as the terms say.", "source-denied")):
        c = claims[text]
        assert c["supported"] is False and c["support_score"] is None, c
        assert [(d["code"], d["severity"]) for d in c["diagnostics"]] == [(ignored, "hint")], c["diagnostics"]
    # one citation resolved and backing the claim, the other's failure ignored: verified
    mixed = claims["Refunds are paid within 14 days of a request."]
    assert mixed["supported"] is True and [d["severity"] for d in mixed["diagnostics"]] == ["hint"]
    assert report["metrics"]["verified_claims"] == 1 and report["drafts"][0]["faithful"] is False
    assert code == 1


def test_a_frame_a_few_words_from_the_quote_retracts_it(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/news.md": (
        "It is no longer the case that members receive free delivery.\n\n"
        "The proposal that coupons can be stacked at checkout was rejected.\n\n"
        "It is no longer the case that members pay a fee, but members receive a welcome gift.\n\n"
        "Members receive discounts on orders that were rejected by the courier.\n")})
    parts = []
    for claim, quote in (("Members receive free delivery.", "receive free delivery"),
                         ("Coupons can be stacked.", "coupons can be stacked"),
                         ("Members receive a welcome gift.", "members receive a welcome gift"),
                         ("Members receive discounts.", "Members receive discounts")):
        parts.append(f"{claim}\n\n{_block(root, 'sources/news.md', quote)}")
    (root / "drafts" / "d.md").write_text("\n".join(parts), encoding="utf-8")
    _, report = check_json(root)
    claims = _claims(report)
    delivery = claims["Members receive free delivery."]["diagnostics"]
    assert [d["code"] for d in delivery] == ["context-negates"]
    assert "It is no longer the case that" in delivery[0]["message"]
    coupons = claims["Coupons can be stacked."]["diagnostics"]
    assert [d["code"] for d in coupons] == ["context-negates"] and "was rejected" in coupons[0]["message"]
    # a clause of its own after "but", and a relative clause's own verb, retract nothing of the quote
    assert claims["Members receive a welcome gift."]["supported"] is True
    assert claims["Members receive discounts."]["supported"] is True


def test_the_seed_rule_reads_the_claims_words_and_nothing_beside(tmp_path: Path):
    """support.mode = "seed" is the share of the claim's content words among the quotes' (SPEC
    section 4): the cited source's title does not count for it, as it does for the default."""
    sources = {"sources/terms.md": "# Returns Terms\n\nRefunds are paid within 14 days.\n"}
    claim = "The Returns Terms say refunds are paid."
    seed = _workspace(tmp_path / "seed", sources, '[support]\nmode = "seed"\n')
    calibrated = _workspace(tmp_path / "calibrated", sources, '[support]\nmode = "calibrated"\n')
    for root in (seed, calibrated):
        block = _block(root, "sources/terms.md", "Refunds are paid within 14 days")
        (root / "drafts" / "d.md").write_text(f"{claim}\n\n{block}", encoding="utf-8")
    _, report = check_json(seed)
    c = _claims(report)[claim]
    assert c["support_score"] == 0.4 and c["supported"] is False
    assert [d["code"] for d in c["diagnostics"]] == ["unsupported-claim"]
    assert "missing: returns, terms, say" in c["diagnostics"][0]["message"]
    _, report = check_json(calibrated)
    assert _claims(report)[claim]["supported"] is True


def test_a_draft_named_twice_is_one_answer(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days.\n"})
    block = _block(root, "sources/terms.md", "Refunds are paid within 14 days")
    (root / "drafts" / "a.md").write_text(f"Refunds are paid within 14 days.\n\n{block}", encoding="utf-8")
    _, report = check_json(root, "drafts/a.md", "./drafts/a.md", "drafts")
    assert [d["path"] for d in report["drafts"]] == ["drafts/a.md"]
    assert report["metrics"]["answers"] == 1 and report["metrics"]["claims"] == 1


@pytest.mark.parametrize("toml,key", [
    ("threshold = true", "threshold"),
    ('threshold = "0.5"', "threshold"),
    ('chunk_chars = "40"', "chunk_chars"),
    ("chunk_chars = 1200.0", "chunk_chars"),
    ('strict_sentences = "yes"', "strict_sentences"),
    ('[ask]\nk = "3"', "ask.k"),
    ('[[policy]]\npath = "sources/**"\nderived = "no"', "policy[1].derived"),
])
def test_a_configuration_value_of_the_wrong_type_is_an_error(tmp_path: Path, toml: str, key: str):
    """A value of the wrong type is refused (exit 2, the key named), never coerced: `threshold = true`
    had been read as 1.0 and `chunk_chars = "40"` had cut every chunk at 40 characters."""
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text(toml + "\n", encoding="utf-8")
    proc = run_cairn(root, "check")
    line = toml.count("\n") + 1  # the key is on the file's last line
    assert proc.returncode == 2 and f"cairn.toml, line {line}: {key} = " in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_whole_number_is_a_threshold(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days.\n"}, "threshold = 1\n")
    block = _block(root, "sources/terms.md", "Refunds are paid within 14 days")
    (root / "drafts" / "a.md").write_text(f"Refunds are paid within 14 days.\n\n{block}", encoding="utf-8")
    code, report = check_json(root)
    assert code == 0 and report["metrics"]["verified_claims"] == 1


def test_citation_reuse_looks_at_every_claim_of_the_workspace(tmp_path: Path):
    """SPEC section 4: `citation-reuse` when "the same span also backs another claim of the workspace":
    naming one draft on the command line had compared it with itself only."""
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days of a request.\n"})
    block = _block(root, "sources/terms.md", "Refunds are paid within 14 days of a request")
    (root / "drafts" / "one.md").write_text(f"Refunds are paid within 14 days of a request.\n\n{block}",
                                            encoding="utf-8")
    (root / "drafts" / "two.md").write_text(f"The warehouse ships orders on weekdays.\n\n{block}", encoding="utf-8")
    for args in ((), ("drafts/one.md",), ("drafts/one.md", "--format", "sarif")):
        proc = run_cairn(root, "check", *args, *(() if "sarif" in args else ("--format", "json")))
        assert proc.returncode in (0, 1), proc.stderr
        if "sarif" in args:
            assert "the same span also backs" in proc.stdout and "drafts/two.md:1" in proc.stdout
            continue
        report = json.loads(proc.stdout)
        one = next(d for d in report["drafts"] if d["path"] == "drafts/one.md")
        reuse = [d for d in one["claims"][0]["diagnostics"] if d["code"] == "citation-reuse"]
        assert len(reuse) == 1 and "drafts/two.md:1" in reuse[0]["message"], one["claims"][0]["diagnostics"]
        # only the named answers are reported
        assert {d["path"] for d in report["drafts"]} == ({"drafts/one.md"} if args else {"drafts/one.md", "drafts/two.md"})


def test_citation_reuse_between_the_answers_of_one_jsonl_file(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days of a request.\n"},
                      'drafts = ["drafts/*.jsonl"]\n')
    chunk = json.loads(run_cairn(root, "chunks", "--json").stdout.splitlines()[0])
    quote = "Refunds are paid within 14 days of a request"
    cit = {"chunk_id": chunk["chunk_id"], "start": 0, "end": len(quote), "quote": quote}
    lines = [json.dumps({"id": "a", "claims": [{"text": "Refunds are paid within 14 days of a request.",
                                                "citations": [cit]}]}),
             json.dumps({"id": "b", "claims": [{"text": "The warehouse ships orders on weekdays.", "citations": [cit]}]})]
    (root / "drafts" / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, report = check_json(root)
    for answer_id in ("a", "b"):  # each answer of the file is in the index (the last had replaced the others)
        got = next(d for d in report["drafts"] if d.get("id") == answer_id)["claims"][0]["diagnostics"]
        assert "citation-reuse" in [d["code"] for d in got], got


def test_a_folder_named_as_a_source_is_said_to_be_a_folder(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/terms.md": "Refunds are paid within 14 days.\n",
                                        "sources/sub/more.md": "More text.\n"})
    for args in (("chunks", "sources"), ("chunks", "sources/sub"), ("cite", "Refunds", "--source", "sources")):
        proc = run_cairn(root, *args)
        assert proc.returncode == 2 and "is a folder; name the source files in it" in proc.stderr, (args, proc.stderr)
    proc = run_cairn(root, "chunks", "drafts")
    assert proc.returncode == 2 and "outside the source roots" in proc.stderr
    assert run_cairn(root, "chunks", "sources/terms.md").returncode == 0


def test_chunks_json_is_one_line_per_chunk_whatever_the_text_holds(tmp_path: Path):
    root = _workspace(tmp_path / "ws", {"sources/odd.md": "One\u2028line\u0085here.\n\nAnd\u2029more.\n"})
    out = run_cairn(root, "chunks", "--json").stdout
    rows = [json.loads(x) for x in out.splitlines()]  # splitlines breaks at U+2028, U+2029 and U+0085 too
    assert [r["text"] for r in rows] == ["One\u2028line\u0085here.", "And\u2029more."]
