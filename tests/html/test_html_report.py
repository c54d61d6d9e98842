"""`cairn check --format html`, `--output` and `cairn lab` through the real CLI;
the page's behaviour in a real headless Chromium (tests/chromium_util.py)."""

from __future__ import annotations

import hashlib
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cairn_testing import run_cairn
from chromium_util import ensure_chromium, launch

DEMO_FAILING = ["quote-not-found", "unknown-chunk", "source-denied", "block-syntax", "no-citations",
                "number-mismatch", "unsupported-claim", "source-changed"]


# -- the CLI -------------------------------------------------------------------------


def test_html_report_of_the_demo_through_the_cli(demo: Path):
    proc = run_cairn(demo, "check", "--format", "html")
    assert proc.returncode == 1, proc.stderr
    page = proc.stdout
    assert page.startswith("<!DOCTYPE html>")
    # self-contained: no URL the browser would fetch
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", page, re.I)
    assert "@import" not in page and "url(" not in page
    assert "default-src 'none'" in html.unescape(page)  # the content security policy allows no request
    report = json.loads(run_cairn(demo, "check", "--format", "json").stdout)
    data = page_data(page)
    # the page's answers are the JSON report's, claim by claim
    assert [a["path"] for a in data["answers"]] == [d["path"] for d in report["drafts"]]
    for a, d in zip(data["answers"], report["drafts"]):
        assert a["faithful"] == d["faithful"]
        assert [(c["text"], c["line"], c["supported"]) for c in a["claims"]] == [
            (c["text"], c["line"], c["supported"]) for c in d["claims"]]
        assert [[x["code"] for x in c["diagnostics"]] for c in a["claims"]] == [
            [x["code"] for x in c["diagnostics"]] for c in d["claims"]]
    for code in DEMO_FAILING:
        assert f'<option value="{code}">' in page
    # the quote inside its sentence of the chunk
    cits = [x for a in data["answers"] for c in a["claims"] for x in c["citations"]]
    first = next(x for x in cits if x["quote"].startswith("A customer has 14 days"))
    assert first["found"] and first["before"] == "" and first["after"].startswith(".")
    pdf = next(x for x in cits if x["source"] == "sources/shipping.pdf")
    assert pdf["page"] == 2 and pdf["found"] and pdf["chunk"] in data["chunks"]
    # an unknown chunk has no context to show
    unknown = [x for a in data["answers"] for c in a["claims"] for x in c["citations"] if not x["resolved"]
               and x["chunk"] is None]
    assert unknown and all(not x["found"] for x in unknown)


def page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="cairn-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_output_writes_every_format_as_stdout_prints_it(demo: Path, tmp_path: Path):
    for fmt in ("text", "json", "sarif", "html"):
        out = tmp_path / f"report.{fmt}"
        printed = run_cairn(demo, "check", "--format", fmt)
        written = run_cairn(demo, "check", "--format", fmt, "--output", str(out))
        assert written.returncode == printed.returncode == 1, written.stderr
        assert written.stdout == ""
        assert f"wrote {out}" in written.stderr
        if fmt == "json":
            assert json.loads(out.read_text("utf-8")) == json.loads(printed.stdout)
        elif fmt == "sarif":
            assert json.loads(out.read_text("utf-8"))["runs"][0]["results"] == json.loads(printed.stdout)["runs"][0]["results"]
        else:
            assert out.read_text("utf-8") == printed.stdout


def test_output_never_overwrites_a_draft_or_a_source(demo: Path):
    draft = demo / "drafts" / "credits-answer.md"
    source = demo / "sources" / "policy.md"
    before = draft.read_bytes(), source.read_bytes()
    for target in (draft, source):
        proc = run_cairn(demo, "check", "--format", "html", "--output", str(target))
        assert proc.returncode == 2
        assert "never" in proc.stderr and "Traceback" not in proc.stderr
    assert (draft.read_bytes(), source.read_bytes()) == before


def test_output_into_a_missing_folder_is_a_clear_error(demo: Path):
    proc = run_cairn(demo, "check", "--format", "json", "--output", str(demo / "no" / "such" / "r.json"))
    assert proc.returncode == 2
    assert f"the folder {demo / 'no' / 'such'} does not exist" in proc.stderr
    assert "cairn-tmp" not in proc.stderr and "Traceback" not in proc.stderr


def test_lab_writes_its_page(tmp_path: Path):
    out = tmp_path / "lab.html"
    proc = run_cairn(tmp_path, "lab", "-p", "0.9", "-n", "10", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    page = out.read_text("utf-8")
    assert 'id="lab-p"' in page and 'value="0.9"' in page and 'value="10"' in page
    caveat = page[page.index('id="lab-caveat"'):]
    caveat = re.sub(r"<[^>]+>|\s+", " ", caveat[:caveat.index("</p>")])
    assert "hypothetical" in caveat and "no entailment model" in caveat and "correlated" in caveat
    assert run_cairn(tmp_path, "lab", "-p", "1.5").returncode == 2


def test_report_carries_the_labs_caveat(demo: Path, tmp_path: Path):
    out = tmp_path / "report.html"
    run_cairn(demo, "check", "--format", "html", "--output", str(out))
    page = out.read_text("utf-8")
    assert 'id="lab-caveat"' in page and "resolves no source" in page


# -- a hostile workspace -------------------------------------------------------------------

EVIL_QUOTE = "</script><script>window.pwned=3</script><img src=x onerror=window.pwned=4>"
EVIL_SOURCE = "sources/<img src=x onerror=window.pwned=1>.md"
EVIL_DRAFT = "drafts/<svg onload=window.pwned=2>.md"


def _hostile(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', "utf-8")
    para = f"Harmless words first. {EVIL_QUOTE} Then more words."
    (root / EVIL_SOURCE).write_text(para + "\n", "utf-8")
    chunk_id = hashlib.sha256(f"{EVIL_SOURCE}\n{para}".encode()).hexdigest()[:16]
    start = para.index(EVIL_QUOTE)
    block = json.dumps({"chunk_id": chunk_id, "start": start, "end": start + len(EVIL_QUOTE), "quote": EVIL_QUOTE,
                        "source": EVIL_SOURCE})
    (root / EVIL_DRAFT).write_text(f"The page says {EVIL_QUOTE} indeed.\n\n```cite\n{block}\n```\n", "utf-8")
    return root


def test_script_in_a_quote_or_a_file_name_is_inert_text(tmp_path: Path):
    ws = _hostile(tmp_path / "ws")
    proc = run_cairn(ws, "check", "--format", "html")
    assert proc.returncode in (0, 1), proc.stderr
    page = proc.stdout
    assert "window.pwned" in page  # the text is there ...
    for raw in ("<script>window.pwned", "<img src=x", "<svg onload", "</script><script>"):
        assert raw not in page  # ... never as markup
    assert page.count("<script") == 2  # the data element and the page's own script
    data = page_data(page)  # the hostile values come back whole from the page's data
    assert data["answers"][0]["path"] == EVIL_DRAFT
    (cit,) = data["answers"][0]["claims"][0]["citations"]
    assert (cit["quote"], cit["source"], cit["found"]) == (EVIL_QUOTE, EVIL_SOURCE, True)


# -- in Chromium -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    path, why = ensure_chromium()
    if path is None:
        print(f"skipping the browser tests: {why}")
        pytest.skip(why)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = launch(pw, path)
        yield b
        b.close()


class Page:
    """A page opened from a file, recording every request and script error."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def text(self, sel: str) -> str:
        return self.page.locator(sel).inner_text()

    def shown(self) -> int:
        return self.page.locator("article.claim:visible").count()


def _until(predicate, timeout: float = 10.0) -> None:
    """Poll from Python: the page's policy forbids the eval that wait_for_function uses."""
    import time

    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def _lab(p: Page, pv: str, nv: str) -> tuple[str, str]:
    p.page.get_by_label("p", exact=True).fill(pv)
    p.page.get_by_label("n", exact=True).fill(nv)
    return p.text("#lab-expected"), p.text("#lab-all")


def test_demo_page_in_chromium(browser, demo: Path, tmp_path: Path):
    out = tmp_path / "report.html"
    assert run_cairn(demo, "check", "--format", "html", "--output", str(out)).returncode == 1
    p = Page(browser, out)
    page = p.page
    assert p.requests == [p.url]  # nothing but the file itself
    assert p.errors == []
    body = page.locator("body").inner_text()
    for code in DEMO_FAILING:
        assert code in body
    assert "A customer has 14 days to request a credit for a damaged delivery" in body
    assert page.locator("mark", has_text="A customer has 14 days").count() >= 1

    # the lab: preset from the report, then the figures
    report = json.loads(run_cairn(demo, "check", "--format", "json").stdout)
    assert float(page.get_by_label("p", exact=True).input_value()) == pytest.approx(
        report["metrics"]["citation_validity"], abs=1e-4)
    assert p.text("#lab-observed") == f"{report['metrics']['faithfulness']:.4f}"
    assert _lab(p, "0.8", "10") == ("8", "0.1074")
    assert _lab(p, "0.9", "10") == ("9", "0.3487")
    assert p.text("#lab-count") == "0"
    page.get_by_role("button", name="Step").click()
    page.get_by_role("button", name="Step").click()
    assert p.text("#lab-count") == "2"
    assert re.fullmatch(r"0\.0000|0\.5000|1\.0000", p.text("#lab-share"))
    page.get_by_role("button", name="Play").click()
    _until(lambda: int(p.text("#lab-count")) > 10)
    page.get_by_role("button", name="Pause").click()
    stopped = int(p.text("#lab-count"))
    page.wait_for_timeout(200)
    assert int(p.text("#lab-count")) == stopped
    page.get_by_role("button", name="Reset").click()
    assert p.text("#lab-count") == "0" and p.text("#lab-share") == "–"
    assert page.get_by_label("n", exact=True).input_value() == str(report_n(report))

    # filters and search
    total = report["metrics"]["claims"]
    failing = sum(not c["supported"] for d in report["drafts"] for c in d["claims"])
    assert p.shown() == total
    page.get_by_label("failing only").check()
    assert p.shown() == failing
    assert p.text("#f-count") == f"{failing} of {total} claims shown"
    page.get_by_label("failing only").uncheck()
    page.get_by_label("code", exact=True).select_option("number-mismatch")
    assert p.shown() == 1
    page.get_by_label("code", exact=True).select_option("")
    page.get_by_label("source", exact=True).select_option("sources/shipping.pdf")
    with_pdf = sum(any(x["source"] == "sources/shipping.pdf" for x in c["citations"])
                   for d in report["drafts"] for c in d["claims"])
    assert p.shown() == with_pdf > 0
    page.get_by_label("source", exact=True).select_option("")
    page.locator("h1").click()  # out of the select, where "/" would pick an option
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "f-search"
    page.keyboard.type("photo of the damaged")
    _until(lambda: not p.text("#f-count").startswith(f"{total} of"))
    assert 0 < p.shown() < total
    page.keyboard.press("Escape")
    _until(lambda: p.text("#f-count").startswith(f"{total} of"))
    # keyboard: j and k walk the claims
    page.locator("h1").click()
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == "claim-0-0"
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == "claim-0-1"
    page.keyboard.press("k")
    assert page.evaluate("document.activeElement.id") == "claim-0-0"
    # the whole chunk on demand
    page.locator("details.chunk summary").first.click()
    assert "14 days" in page.locator("details.chunk pre").first.inner_text()
    assert page.locator("details.chunk pre mark").first.inner_text() == (
        "A customer has 14 days to request a credit for a damaged delivery")
    assert p.errors == [] and p.requests == [p.url]
    page.close()


def report_n(report: dict) -> int:
    import statistics

    counts = [len(d["claims"]) for d in report["drafts"] if d["claims"]]
    return max(1, round(statistics.median(counts)))


def test_hostile_page_runs_no_injected_script(browser, tmp_path: Path):
    ws = _hostile(tmp_path / "ws")
    out = tmp_path / "hostile.html"
    run_cairn(ws, "check", "--format", "html", "--output", str(out))
    p = Page(browser, out)
    assert p.page.evaluate("window.pwned === undefined")
    assert p.requests == [p.url]  # the <img src=x> never became an image
    body = p.page.locator("body").inner_text()
    assert EVIL_QUOTE in body and EVIL_DRAFT in body and EVIL_SOURCE in body
    assert p.errors == []
    p.page.close()


def test_in_an_editor_webview_a_claim_click_asks_to_reveal_it(browser, demo: Path, tmp_path: Path):
    out = tmp_path / "report.html"
    run_cairn(demo, "check", "--format", "html", "--output", str(out))
    page = browser.new_page()
    # what VS Code's webview gives the page: acquireVsCodeApi() and its postMessage
    # the host keeps the page's state and hands it to the page drawn again: here the test is the host
    # (the browser's own sessionStorage commits asynchronously, and a reload can read it stale)
    page.add_init_script(
        "window.sent = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.sent.push(m),"
        " getState: () => window.savedState || null, setState: (s) => { window.pageState = s; } });")
    page.goto(out.resolve().as_uri())
    claim = page.locator("article.claim").nth(1)
    claim.locator(".claim-text").click()
    sent = page.evaluate("window.sent")
    assert sent == [{"type": "open", "path": claim.get_attribute("data-path"),
                     "line": int(claim.get_attribute("data-line"))}]
    claim.locator("details.chunk summary").first.click()  # opening the chunk is not a reveal
    claim.focus()
    page.keyboard.press("Enter")
    assert len(page.evaluate("window.sent")) == 2
    # the page is drawn again after each check: the filters stay as they were
    page.get_by_label("failing only").check()
    shown = page.locator("#f-count").inner_text()
    assert not shown.startswith("20 of")
    page.add_init_script(f"window.savedState = {json.dumps(page.evaluate('window.pageState'))};")
    page.reload()
    assert page.get_by_label("failing only").is_checked()
    assert page.locator("#f-count").inner_text() == shown
    page.close()


def test_lab_page_alone_in_chromium(browser, tmp_path: Path):
    out = tmp_path / "lab.html"
    assert run_cairn(tmp_path, "lab", "--output", str(out)).returncode == 0
    p = Page(browser, out)
    assert (p.text("#lab-expected"), p.text("#lab-all")) == ("8", "0.1074")
    assert p.errors == [] and p.requests == [p.url]
    p.page.close()


def test_screenshots_of_the_report_and_the_lab(browser, demo: Path, tmp_path: Path):
    """The README's pictures, taken from the demo's page; CAIRN_UPDATE_IMAGES=1
    copies them to docs/images/."""
    import os
    import shutil
    import struct

    out = tmp_path / "report.html"
    run_cairn(demo, "check", "--format", "html", "--output", str(out))
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(out.resolve().as_uri())
    shots = {"report.png": tmp_path / "report.png", "lab.png": tmp_path / "lab.png"}
    page.screenshot(path=str(shots["report.png"]))
    page.get_by_label("p", exact=True).fill("0.8")
    page.get_by_label("n", exact=True).fill("10")
    for _ in range(40):
        page.get_by_role("button", name="Step").click()
    page.locator("#lab").screenshot(path=str(shots["lab.png"]))
    page.close()
    for name, path in shots.items():
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert width >= 600 and height >= 300, (name, width, height)
        if os.environ.get("CAIRN_UPDATE_IMAGES") == "1":
            shutil.copy(path, Path(__file__).resolve().parents[2] / "docs" / "images" / name)


def test_lab_without_output_opens_the_page_in_the_browser(tmp_path: Path):
    # $BROWSER names the program Python's webbrowser runs: here one that records what it was given
    seen = tmp_path / "seen.txt"
    opener = tmp_path / "browser.sh"
    opener.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{seen}"\n', "utf-8")
    opener.chmod(0o755)
    proc = run_cairn(tmp_path, "lab", "-p", "0.9", env={"BROWSER": f"{opener} %s"})
    assert proc.returncode == 0, proc.stderr
    url = seen.read_text("utf-8")
    assert url.startswith("file:///") and url.endswith(".html")
    page = Path(url[len("file://"):]).read_text("utf-8")
    assert 'value="0.9"' in page and f"opened {url[len('file://'):]}" in proc.stderr
    Path(url[len("file://"):]).unlink()


def test_uncited_paragraphs_are_listed_under_their_answer(browser, demo: Path, tmp_path: Path):
    """Issue 49 item 3: the page lists each answer's uncited prose paragraphs with their lines,
    as the JSON report does."""
    out = tmp_path / "report.html"
    assert run_cairn(demo, "check", "--format", "html", "--output", str(out), "drafts/review-notes.md").returncode == 1
    (uncited,) = json.loads(run_cairn(demo, "check", "--format", "json", "drafts/review-notes.md").stdout)[
        "drafts"][0]["uncited"]
    p = Page(browser, out)
    assert p.errors == []
    box = p.page.locator("details.uncited")
    assert box.count() == 1 and "1 uncited paragraph" in box.inner_text()
    box.locator("summary").click()
    assert f"line {uncited['line']}: {uncited['text']}" in box.locator("li").inner_text()


# -- a claim's parts (issue 47 item 3) -------------------------------------------------------------


class _Tree(HTMLParser):
    """The page as nested (tag, attributes, children, text) nodes: enough to find elements by class."""

    VOID = frozenset({"meta", "br", "input", "img", "link", "hr", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: dict = {"tag": "", "attrs": {}, "kids": [], "text": []}
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = {"tag": tag, "attrs": dict(attrs), "kids": [], "text": []}
        self.stack[-1]["kids"].append(node)
        self.stack[-1]["text"].append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, 0, -1):
            if self.stack[k]["tag"] == tag:
                del self.stack[k:]
                return

    def handle_data(self, data):
        self.stack[-1]["text"].append(data)


def _parse(page: str) -> dict:
    tree = _Tree()
    tree.feed(page)
    tree.close()
    return tree.root


def _find(node: dict, tag: str | None = None, cls: str | None = None) -> list[dict]:
    out = []
    for kid in node["kids"]:
        classes = (kid["attrs"].get("class") or "").split()
        if (tag is None or kid["tag"] == tag) and (cls is None or cls in classes):
            out.append(kid)
        out += _find(kid, tag, cls)
    return out


def _text(node: dict) -> str:
    return "".join(x if isinstance(x, str) else _text(x) for x in node["text"])


def _parts_workspace(root: Path) -> tuple[Path, str, str]:
    """A comparison claim each half of which one quote backs, and a claim whose second clause no quote backs."""
    from conflict_ws import PLAN_A, PLAN_B, POLICY, cite, draft, make

    comparison = PLAN_A[:-1] + ", but " + PLAN_B
    unbacked = POLICY[:-1] + ", and the office is closed on Sundays."
    ws = make(root)
    draft(ws, cite(comparison, ("sources/plans/a.md", PLAN_A), ("sources/plans/b.md", PLAN_B))
          + cite(unbacked, ("sources/policy/refunds.md", POLICY)))
    return ws, comparison, unbacked


def test_html_report_carries_each_claims_parts_with_their_quotes(tmp_path: Path):
    from conflict_ws import PLAN_A, PLAN_B, POLICY

    ws, comparison, unbacked = _parts_workspace(tmp_path)
    proc = run_cairn(ws, "check", "--format", "html")
    assert proc.returncode == 0, proc.stderr
    (script,) = [s for s in _find(_parse(proc.stdout), "script") if s["attrs"].get("id") == "cairn-data"]
    (answer,) = json.loads(_text(script))["answers"]
    joint, clause = answer["claims"]
    assert (joint["text"], joint["joint"], clause["text"], clause["joint"]) == (comparison, True, unbacked, False)
    # each part with the citations whose quotes back it, as offsets into the claim's text
    assert [(p["text"], p["citations"], p["supported"]) for p in joint["parts"]] == [
        (PLAN_A[:-1], [0], True), (PLAN_B, [1], True)]
    assert [comparison[p["start"]:p["end"]] for p in joint["parts"]] == [PLAN_A[:-1], PLAN_B]
    assert [[joint["citations"][i]["quote"] for i in p["citations"]] for p in joint["parts"]] == [[PLAN_A], [PLAN_B]]
    assert [(p["text"], p["citations"], p["supported"]) for p in clause["parts"]] == [
        (POLICY[:-1], [0], True), ("the office is closed on Sundays.", [], False)]
    assert [d["code"] for d in clause["diagnostics"]] == ["unsupported-sentence"]


def test_parts_drawn_in_chromium_each_beside_its_quote(browser, tmp_path: Path):
    from conflict_ws import PLAN_A, PLAN_B, POLICY

    ws, comparison, unbacked = _parts_workspace(tmp_path)
    out = tmp_path / "report.html"
    assert run_cairn(ws, "check", "--format", "html", "--output", str(out)).returncode == 0
    p = Page(browser, out)
    assert p.errors == [] and p.requests == [p.url]
    drawn = _parse(p.page.content())  # the page as its script drew it
    p.page.close()
    joint, clause = _find(drawn, "article", "claim")
    # the comparison: marked joint, each half underlined in the claim and listed beside its own quote
    head = _find(joint, "p", "claim-head")[0]
    assert [_text(b) for b in _find(head, "span", "badge")] == ["verified", "joint"]
    assert "no single quote backs the whole claim" in _text(_find(joint, "p", "joint-note")[0])
    assert [_text(s) for s in _find(_find(joint, "p", "claim-text")[0], "span", "part-span")] == [PLAN_A[:-1], PLAN_B]
    rows = _find(joint, "li", "part")
    assert [_text(_find(r, "span", "part-text")[0]) for r in rows] == [PLAN_A[:-1], PLAN_B]
    assert [[_text(m) for q in _find(r, "blockquote", "part-quote") for m in _find(q, "mark")] for r in rows] == [
        [PLAN_A], [PLAN_B]]
    assert [[q["attrs"]["data-citation"] for q in _find(r, "blockquote", "part-quote")] for r in rows] == [["1"], ["2"]]
    assert not _find(joint, cls="unbacked")
    # the clause no quote backs: marked so, with no quote beside it, and wavy-underlined in the claim
    head = _find(clause, "p", "claim-head")[0]
    assert _find(clause, "p", "joint-note") == [] and [_text(b) for b in _find(head, "span", "badge")] == ["verified"]
    backed, bare = _find(clause, "li", "part")
    assert "ok" in backed["attrs"]["class"].split() and [
        _text(m) for m in _find(backed, "mark")] == [POLICY]
    assert "bad" in bare["attrs"]["class"].split()
    assert _text(_find(bare, "span", "part-text")[0]) == "the office is closed on Sundays."
    assert [_text(b) for b in _find(bare, "span", "badge")] == ["no quote"]
    assert [_text(u) for u in _find(bare, "p", "unbacked")] == ["No quote backs this part."]
    assert _find(bare, "blockquote") == []
    (wavy,) = [s for s in _find(_find(clause, "p", "claim-text")[0], "span", "part-span") if "bad" in s["attrs"]["class"]]
    assert _text(wavy) == "the office is closed on Sundays."
    assert _text(_find(clause, "p", "claim-text")[0]) == unbacked
