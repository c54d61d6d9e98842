"""Malformed drafts (issue point 1): whatever a draft holds, the engine
returns diagnostics, never raises, and finishes in bounded time and memory.

Drafts are generated from hostile pieces: broken and nested fences, YAML
bombs (anchors and aliases), huge integers, negative or reversed offsets,
wrong types, unterminated quotes, control characters, lone surrogates, CRLF,
CR and mixed line endings and megabyte-long lines. Each is parsed
(drafts.parse_draft) and verified (the Verifier on the indexed demo
workspace); time and tracemalloc's peak are measured for every example.
A draft the CLI can read (valid UTF-8) must also render as JSON, SARIF and
text. CAIRN_LONG_TESTS=1 runs many more examples.
"""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cairn import drafts as drafts_mod
from cairn.core.model import CODES
from cairn.engine import checks as engine
from cairn.index.workspace import Workspace
from cairn.report.base import build_report, render_sarif, render_text
from cairn.verify.verifier import Verifier

from robust_util import build_demo, check_json, examples, run_cairn

MAX_SECONDS = 10.0  # one example, parse + verify (a few ms typically; a megabyte line well under a second)
MAX_PEAK = 96 * 1024 * 1024  # bytes, besides 40 bytes per character of the draft
PER_CHAR = 40

settings.load_profile("cairn-robust")


# --------------------------------------------------------------------------
# The workspace: the demo, indexed once for the whole module


@pytest.fixture(scope="module")
def verifier(tmp_path_factory):
    root = build_demo(tmp_path_factory.mktemp("fuzz") / "demo")
    ws = Workspace(root)
    res = engine.index(ws)
    assert not res.errors, res.errors
    verifier = Verifier(ws)
    # the sentence reader loads its model (about 100 MB) on the first claim it reads: once, before the
    # examples, so that the memory bound is of what a draft itself costs
    warm = f"# Warm\n\nA customer has 14 days to request a credit.\n\n```cite\nchunk_id: {CHUNK_ID}\nquote: \"{QUOTE}\"\n```\n"
    verifier.verify_draft("drafts/warm.md", drafts_mod.parse_draft(warm))
    return verifier


# --------------------------------------------------------------------------
# Hostile pieces

CHUNK_ID = "691d71e4b46d8b0d"  # sources/policy.md, "A customer has 14 days ..."
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"

MEGA = 1024 * 1024
MEGA_LINE = "word " * (MEGA // 5)  # one line of a megabyte
BIG_QUOTE = "credit " * 30_000  # a 210 kB quote: under the body limit, far longer than any chunk

BILLION_LAUGHS = "".join(
    f'l{i}: &l{i} [{", ".join([f"*l{i - 1}"] * 9)}]\n' if i else 'l0: &l0 "lol"\n' for i in range(10)
)

YAML_BOMBS = [
    BILLION_LAUGHS,
    "a: &a [*a]\n",
    "base: &b {chunk_id: " + CHUNK_ID + ", start: 0}\nchild:\n  <<: *b\n  end: 5\n",
    "chunk_id: !!python/object/apply:os.system ['echo pwned > /tmp/cairn-robust-pwned']\nstart: 0\nend: 1\nquote: x\n",
    "!!python/object/new:os.system [echo pwned]\n",
    "chunk_id: !!binary aGVsbG8=\nstart: !!int 0\nend: !!float 1e9\nquote: !!str x\n",
    "[" * 10_000 + "]" * 10_000 + "\n",
    "a:\n" + "".join("  " * i + "- \n" for i in range(200)),
    "{" * 3000 + "\n",
    "key: value\n" * 30_000,  # over the body size limit
    "---\nchunk_id: a\n---\nchunk_id: b\n",
    "%YAML 1.1\n---\nchunk_id: " + CHUNK_ID + "\n",
]

VALUES = {
    "chunk_id": [CHUNK_ID, CHUNK_ID.upper(), "0123456789abcdef", "zzzzzzzzzzzzzzzz", "691d71e4", "", "[1, 2]",
                 "{a: b}", "null", "~", "0x691d71e4b46d8b0d", '"' + CHUNK_ID, "'" + CHUNK_ID, "9" * 400],
    "start": ["0", "-1", "-0", "+3", "65", "64", "9" * 25, "9" * 5000, "1e400", "0.5", "NaN", "null", "true",
              "[0]", "'7'", '"x"', "0x10", "0o17", "1_000", "", "-9223372036854775809", "9223372036854775808"],
    "end": ["65", "0", "-5", "1", "9" * 30, "18446744073709551616", "inf", "-.inf", "{}", "no", "12:30"],
    "quote": ['"' + QUOTE + '"', "'" + QUOTE + "'", QUOTE, '"unterminated', "'unterminated", '""', "''", "|\n  x",
              '"' + "\\ud800" + '"', '"\\udfff\\ud800 x"', '"\\x00"', '"\\u0000 nul"', '"\\U0001F95B"',
              '"' + BIG_QUOTE + '"', "[a, b]", "{q: 1}", "null", '"A customer has 14 days to request a credit\n'],
    "source": ["sources/policy.md", "../../etc/passwd", "/etc/passwd", "sources/../../../etc/passwd",
               "C:\\Windows\\win.ini", "sources/\x00x.md", ".cairn/index.db", "sources/./policy.md", "[x]", "~"],
    "version": ["9b3c4325200c", "9B3C4325", "deadbeef", "xyz", "9b3c", "1" * 64, "[1]", "0" * 1000],
    "ignore": ["[unsupported-claim]", "bogus", "[[x]]", "{a: 1}", "number-mismatch"],
}

JSON_VALUES = {
    "chunk_id": [CHUNK_ID, 123, None, [CHUNK_ID], {"a": 1}, True, "\ud800" * 16],
    "start": [0, -1, 10**30, 1e308, 1.5, "0", None, True, [], {}],
    "end": [65, 0, -7, 2**63, 2**64, float("inf"), "65", False],
    "quote": [QUOTE, "", " ", "\ud800", "\udfff\ud800", "\x00", "\u2028", BIG_QUOTE, 5, None, ["x"]],
    "source": ["sources/policy.md", "../../etc/passwd", "/etc/passwd", "sources/\\x", 7],
    "version": ["9b3c4325200c", "abc", 12345678, None],
    "ignore": [["unsupported-claim"], "bogus", [1], {}],
}

TEXT_BITS = [
    "A customer has 14 days to request a credit for a damaged delivery.",
    "Thirty days apply.", "fourteen", "\x00", "\x01\x02\x7f", "\x85", "\u2028", "\u2029", "\ufeff", "\ufffe",
    "\ud800", "\udfff", "\U0001F95B", "生鮮食品", "e\u0301", "\u202e", "\t", "  ", "*", "**", "_", "`", "[", "](",
    "<div>", "&amp;", "&#0;", "\\", "# ", "> ", "- ", "1. ", "|a|b|\n|-|-|", "    code", "```", "~~~", "<!--",
]

FENCES = ["```", "~~~", "````", "~~~~~", "``"]
INFOS = ["cite", "cite yaml", "cite\t", " cite", "CITE", "cited", "cite{", "json"]
PREFIXES = ["", "> ", "- ", "  ", "1. ", "> - ", ">> ", "\t", "   "]


@st.composite
def yaml_body(draw) -> str:
    fields = draw(st.lists(st.sampled_from(list(VALUES)), max_size=8))
    lines = [f"{name}: {draw(st.sampled_from(VALUES[name]))}" for name in fields]
    if draw(st.booleans()):
        lines = [f"chunk_id: {CHUNK_ID}", "start: 0", "end: 65", f'quote: "{QUOTE}"'] + lines
    if draw(st.booleans()):  # a list of citations
        lines = [("- " if i == 0 else "  ") + ln for i, ln in enumerate(lines)] or ["- x"]
    if draw(st.integers(0, 5)) == 0:
        lines = ["text: " + draw(st.sampled_from(["A claim.", "", "[1]", '"unterminated'])), "citations:"] + [
            "  " + ln for ln in lines]
    return "\n".join(lines) + "\n"


@st.composite
def json_body(draw) -> str:
    def obj():
        names = draw(st.lists(st.sampled_from(list(JSON_VALUES)), max_size=7))
        return {n: draw(st.sampled_from(JSON_VALUES[n])) for n in names}

    shape = draw(st.sampled_from(["obj", "list", "claim", "raw"]))
    if shape == "obj":
        value = obj()
    elif shape == "list":
        value = [obj() for _ in range(draw(st.integers(0, 3)))]
    elif shape == "claim":
        value = {"text": draw(st.sampled_from(["A claim.", "", 3, None])), "citations": [obj()]}
    else:
        return draw(st.sampled_from(['{"chunk_id": ', "[", '{"a": 1,}', "[1, 2", '{"quote": "\\ud800"}',
                                     '{"start": 1' + "0" * 5000 + "}", "[" * 5000, '{"a":' * 2000, "{}", "[]"]))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), allow_nan=True)
    if draw(st.integers(0, 6)) == 0:  # cut it somewhere
        text = text[: draw(st.integers(0, len(text)))]
    return text + "\n"


@st.composite
def cite_block(draw) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        body = draw(st.sampled_from(YAML_BOMBS))
    elif kind < 5:
        body = draw(yaml_body())
    else:
        body = draw(json_body())
    fence = draw(st.sampled_from(FENCES))
    info = draw(st.sampled_from(INFOS))
    prefix = draw(st.sampled_from(PREFIXES))
    lines = [fence + info] + body.split("\n")
    close = draw(st.sampled_from(["close", "close", "close", "none", "short", "nested"]))
    if close == "close":
        lines.append(fence)
    elif close == "short":
        lines.append(fence[:-1])
    elif close == "nested":
        lines += ["```cite", body, "```", fence]
    return "\n".join(prefix + ln if i == 0 or prefix.strip() in (">", ">>") else ("  " if prefix else "") + ln
                     for i, ln in enumerate(lines)) + "\n"


@st.composite
def paragraph(draw) -> str:
    bits = draw(st.lists(st.one_of(st.sampled_from(TEXT_BITS), st.text(max_size=20)), min_size=1, max_size=8))
    return draw(st.sampled_from(PREFIXES)) + " ".join(bits) + "\n"


@st.composite
def draft(draw) -> str:
    pieces = draw(st.lists(st.one_of(paragraph(), cite_block(), st.just("\n"), st.sampled_from(TEXT_BITS)),
                           min_size=1, max_size=14))
    if draw(st.integers(0, 12)) == 0:
        pieces.insert(draw(st.integers(0, len(pieces))), draw(st.sampled_from([MEGA_LINE + "\n", "`" * MEGA + "\n",
                                                                               "> " * 50_000 + "x\n"])))
    text = "\n".join(pieces)
    eol = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    if eol == "mixed":  # line endings chosen by a drawn seed: a draft may have 30,000 lines
        import random

        pick = random.Random(draw(st.integers(0, 2**32))).choice
        text = "".join(ln + pick(("\n", "\r\n", "\r")) for ln in text.split("\n"))
    elif eol != "\n":
        text = text.replace("\n", eol)
    return text


# --------------------------------------------------------------------------
# The property


def _vm(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def verify_bounded(verifier: Verifier, text: str):
    """Parse and verify; return (doc, result), asserting time and memory bounds.

    Time and the resident-set high-water mark come from a plain run (tracemalloc
    slows markdown-it's character loops a hundredfold on megabyte lines); the
    tracemalloc peak from a second run, for drafts up to 200,000 characters."""
    limit = MAX_PEAK + PER_CHAR * len(text)
    Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    base = _vm("VmRSS")
    t0 = time.perf_counter()
    doc = drafts_mod.parse_draft(text)
    result = verifier.verify_draft("drafts/fuzz.md", doc)
    elapsed = time.perf_counter() - t0
    grown = _vm("VmHWM") - base
    assert elapsed < MAX_SECONDS, f"{elapsed:.1f}s for a draft of {len(text)} characters"
    assert grown < limit, f"resident set grew {grown / 2**20:.0f} MiB for {len(text)} characters"
    if len(text) <= 200_000:
        tracemalloc.start()
        try:
            verifier.verify_draft("drafts/fuzz.md", drafts_mod.parse_draft(text))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < limit, f"tracemalloc peak {peak / 2**20:.0f} MiB for {len(text)} characters"
    return doc, result


def check_invariants(doc, result) -> None:
    assert len(result.claims) == len(doc.claims)
    for cr in result.claims:
        for d in cr.diagnostics:
            assert d.code in CODES
            assert 0 <= d.line < doc.line_count, (d.code, d.line, doc.line_count)
            assert d.range.start.line <= d.range.end.line
            assert isinstance(d.message, str) and d.message
        if cr.supported:
            assert cr.claim.citations and not any(d.fails for d in cr.diagnostics)
        assert len(cr.citations) == len(cr.claim.citations)
        for r in cr.citations:
            c = r.citation
            if c.problems:
                assert not r.resolved
                assert any(d.code == "block-syntax" for d in cr.diagnostics)
            if r.resolved:
                assert c.quote and r.chunk is not None and c.quote in r.chunk.text or r.current_span is not None
            if c.valid:
                assert 0 <= c.start < c.end < 2**63 and c.quote and len(c.chunk_id) == 16


def renders(result, root: Path) -> None:
    """What the CLI prints for it: JSON, SARIF and text, each valid UTF-8."""
    report = build_report([result])
    out = report.model_dump_json(indent=2)
    json.loads(out)
    out.encode("utf-8")
    json.loads(render_sarif(report, [result], base=root, root=root))
    render_text(report, color=False).encode("utf-8")


@settings(max_examples=examples(60, 2000))
@given(text=draft())
def test_any_draft_gives_diagnostics_in_bounded_time_and_memory(verifier, text):
    doc, result = verify_bounded(verifier, text)
    check_invariants(doc, result)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates in the text itself: only an editor can send those (see the server tests)
    renders(result, verifier.ws.root)


@settings(max_examples=examples(40, 1000))
@given(text=st.text(st.characters(exclude_categories=()), max_size=400))
def test_any_unicode_text(verifier, text):
    doc, result = verify_bounded(verifier, text)
    check_invariants(doc, result)


CONTAINERS = [("", ""), ("> ", "> "), ("- ", "  "), ("1. ", "   "), ("> - ", ">   "), ("   ", "   ")]


@settings(max_examples=examples(40, 1000))
@given(body=st.one_of(yaml_body(), json_body(), st.sampled_from(YAML_BOMBS)), container=st.sampled_from(CONTAINERS))
def test_any_block_body_after_a_claim(verifier, body, container):
    first, rest = container
    text = f"{first}A customer has 14 days to request a credit.\n{rest}\n{rest}```cite\n" + "".join(
        f"{rest}{ln}\n" for ln in body.split("\n")) + f"{rest}```\n"
    doc, result = verify_bounded(verifier, text)
    check_invariants(doc, result)
    assert result.claims, "the block after a paragraph is a claim"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    renders(result, verifier.ws.root)


# --------------------------------------------------------------------------
# The named cases, each alone


def _one_block(body: str) -> str:
    return f"A customer has 14 days to request a credit.\n\n```cite\n{body}```\n"


def _problems(result) -> list[str]:
    return [d.message for cr in result.claims for d in cr.diagnostics if d.code == "block-syntax"]


def test_yaml_bomb_is_refused_before_expansion(verifier):
    doc, result = verify_bounded(verifier, _one_block(BILLION_LAUGHS))
    assert _problems(result) == ["anchors and aliases are not allowed"]
    assert result.claims[0].supported is False


def test_yaml_tags_never_construct_objects(verifier, tmp_path):
    marker = Path("/tmp/cairn-robust-pwned")
    marker.unlink(missing_ok=True)
    for body in YAML_BOMBS[3:6]:
        verify_bounded(verifier, _one_block(body))
    assert not marker.exists()
    # the loader keeps every scalar a string: a tagged start is still the text "0"
    doc = drafts_mod.parse_draft(_one_block(f"chunk_id: {CHUNK_ID}\nstart: !!int 0\nend: !!int 65\n"
                                            f"quote: !!python/str \"{QUOTE}\"\n"))
    (cit,) = doc.claims[0].citations
    assert (cit.start, cit.end, cit.quote) == (0, 65, QUOTE)


def test_yaml_body_size_limit(verifier):
    body = f"chunk_id: {CHUNK_ID}\nstart: 0\nend: 65\nquote: \"{QUOTE}\"\n" + "# padding\n" * 30_000
    assert len(body) > drafts_mod.MAX_BODY_CHARS
    doc, result = verify_bounded(verifier, _one_block(body))
    assert any("block too large" in m for m in _problems(result))


def test_huge_negative_and_reversed_offsets(verifier):
    cases = {
        "9" * 5000: "integer too large",
        "-1": "expected a non-negative integer",
        "1e400": "expected a non-negative integer",
    }
    for start, message in cases.items():
        _, result = verify_bounded(verifier, _one_block(f"chunk_id: {CHUNK_ID}\nstart: {start}\nend: 65\nquote: x\n"))
        assert any(message in m for m in _problems(result)), (start, _problems(result))
    _, result = verify_bounded(verifier, _one_block(f"chunk_id: {CHUNK_ID}\nstart: 65\nend: 0\nquote: x\n"))
    assert any("must be greater than start" in m for m in _problems(result))
    _, result = verify_bounded(verifier, _one_block('{"chunk_id": "%s", "start": 1%s, "end": 2, "quote": "x"}\n'
                                                    % (CHUNK_ID, "0" * 5000)))
    assert _problems(result) and result.claims[0].supported is False


def test_megabyte_lines(verifier):
    for text in (MEGA_LINE + "\n\n" + _one_block(f'chunk_id: {CHUNK_ID}\nstart: 0\nend: 65\nquote: "{QUOTE}"\n'),
                 _one_block(f'chunk_id: {CHUNK_ID}\nstart: 0\nend: 65\nquote: "{BIG_QUOTE}"\n'),
                 _one_block(f'chunk_id: 0123456789abcdef\nstart: 0\nend: 65\nquote: "{BIG_QUOTE}"\n'),
                 "`" * MEGA + "\n", "> " * 100_000 + "\n", "- " * 100_000 + "\n", "*a" * 200_000 + "\n"):
        doc, result = verify_bounded(verifier, text)
        check_invariants(doc, result)


def test_lone_surrogate_escapes_in_json_are_block_syntax(verifier):
    """JSON can spell a lone surrogate (\\ud800), which is no character (YAML already refuses
    it); a quote or claim holding one would also make the report impossible to write as UTF-8."""
    for body in ('{"chunk_id": "%s", "start": 0, "end": 65, "quote": "A customer\\ud800"}\n' % CHUNK_ID,
                 '{"text": "Claim \\udfff", "citations": [{"chunk_id": "%s", "start": 0, "end": 65, '
                 '"quote": "%s"}]}\n' % (CHUNK_ID, QUOTE)):
        doc, result = verify_bounded(verifier, _one_block(body))
        assert any("surrogate" in m for m in _problems(result)), _problems(result)
        renders(result, verifier.ws.root)
    # a surrogate pair spelled in JSON is one character, and fine
    doc, result = verify_bounded(verifier, _one_block(
        '{"chunk_id": "%s", "start": 0, "end": 65, "quote": "%s \\ud83e\\udd5b"}\n' % (CHUNK_ID, QUOTE)))
    assert not _problems(result)
    assert doc.claims[0].citations[0].quote.endswith("\U0001F95B")


def test_line_endings_give_the_same_verdicts(verifier):
    base = _one_block(f'chunk_id: {CHUNK_ID}\nstart: 0\nend: 65\nquote: "{QUOTE}"\n') + "\nMore prose here.\n"
    verdicts = []
    for eol in ("\n", "\r\n", "\r"):
        doc, result = verify_bounded(verifier, base.replace("\n", eol))
        verdicts.append([(cr.supported, cr.claim.line, [d.code for d in cr.diagnostics]) for cr in result.claims])
    assert verdicts[0] == verdicts[1] == verdicts[2]
    assert verdicts[0][0][0] is True


def test_many_unknown_chunk_ids_finish_in_bounded_time(demo):
    """Every unknown chunk id is looked for in the git history; with a long history and
    hundreds of stale ids that must not cost one history scan each."""
    faq = demo / "sources" / "faq.txt"
    for i in range(40):
        faq.write_text(faq.read_text(encoding="utf-8") + f"\nExtra line {i}.\n", encoding="utf-8")
        import make_demo

        make_demo._git(demo, "commit", "-qam", f"faq {i}")
    blocks = "".join(
        f"Claim {i} about credits.\n\n```cite\nchunk_id: {i:016x}\nstart: 0\nend: 6\nquote: \"credit\"\n```\n\n"
        for i in range(150)
    )
    (demo / "drafts" / "stale.md").write_text(blocks, encoding="utf-8")
    t0 = time.monotonic()
    code, report, _ = check_json(demo, "drafts/stale.md")
    elapsed = time.monotonic() - t0
    claims = report["drafts"][0]["claims"]
    assert len(claims) == 150
    assert all([d["code"] for d in c["diagnostics"]] == ["unknown-chunk"] for c in claims)
    assert elapsed < 20, f"{elapsed:.1f}s for 150 unknown chunk ids"


def test_the_cli_reports_every_malformed_block(demo):
    """Through `cairn check`: a draft of hostile blocks gives a report, exit 1, no traceback."""
    text = "".join(f"Claim {i}.\n\n```cite\n{body}```\n\n" for i, body in enumerate(YAML_BOMBS))
    text += "Surrogate.\n\n```cite\n{\"chunk_id\": \"%s\", \"start\": 0, \"end\": 1, \"quote\": \"\\ud800\"}\n```\n" % CHUNK_ID
    text = text.replace("\n", "\r\n")
    (demo / "drafts" / "hostile.md").write_bytes(text.encode("utf-8") + b"\n\xff\xfe invalid bytes\n")
    for fmt in ("json", "sarif", "text"):
        proc = run_cairn(demo, "check", "--format", fmt, "drafts/hostile.md")
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr
        if fmt != "text":
            json.loads(proc.stdout)
    report = json.loads(run_cairn(demo, "check", "--format", "json", "drafts/hostile.md").stdout)
    (d,) = report["drafts"]
    assert len(d["claims"]) == len(YAML_BOMBS) + 1
    assert all(not c["supported"] for c in d["claims"])
    assert [x["code"] for x in d["diagnostics"]] == ["encoding"]


def test_pathological_inline_markup_is_fast(verifier):
    """Hundreds of kilobytes of unclosed brackets or emphasis in one paragraph: markdown-it's
    inline rules need seconds for them, so such a paragraph is not parsed inline."""
    for para in ("![a" * 200_000, "[a" * 300_000, "**a" * 200_000):
        text = para + "\n\n" + _one_block(f'chunk_id: {CHUNK_ID}\nstart: 0\nend: 65\nquote: "{QUOTE}"\n')
        t0 = time.perf_counter()
        doc = drafts_mod.parse_draft(text)
        result = verifier.verify_draft("drafts/fuzz.md", doc)
        assert time.perf_counter() - t0 < 3.0
        assert doc.uncited_paragraphs == 1 and result.claims[0].supported


def test_deep_nesting_hides_no_claim_and_verifies_no_empty_one(demo):
    """Through `cairn check`: block quotes and lists nested deeper than CommonMark's preset
    allows (20 levels) are still read, so a claim twenty quotes deep keeps its text and the cite
    blocks after a list ten deep are all reported; past the parser's limit a claim left without
    text is a block-syntax problem, never verified."""
    cite = f"```cite\nchunk_id: {CHUNK_ID}\nstart: 0\nend: 22\nquote: A customer has 14 days\n```\n\n"
    deep_list = "".join("  " * i + "- item\n" for i in range(10))
    text = ("> " * 20 + "Zebras fly over the moon.\n\n" + cite
            + "A customer has 14 days to ask for a credit.\n\n" + cite
            + deep_list + "\nZebras sing at dawn.\n\n" + cite
            + "> " * 230 + "Zebras swim.\n\n" + cite)
    (demo / "drafts" / "deep.md").write_text(text, encoding="utf-8")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/deep.md")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    claims = json.loads(proc.stdout)["drafts"][0]["claims"]
    # (one citation serves every claim here: its citation-reuse hint is not what this test is about)
    got = [(c["text"], c["supported"], [d["code"] for d in c["diagnostics"] if d["code"] != "citation-reuse"])
           for c in claims]
    assert got[:3] == [
        ("Zebras fly over the moon.", False, ["unsupported-claim"]),
        ("A customer has 14 days to ask for a credit.", True, []),
        ("Zebras sing at dawn.", False, ["unsupported-claim"]),
    ], got
    # deeper than the parser reads: no text, so no claim to verify
    assert got[3] == ("", False, ["block-syntax"]), got
