"""Go to definition on a superseded, PDF or HTML citation: the exact cited text as
a `cairn-source:` document served by `cairn/sourceText`, through the real server;
for a client without that capability, a superseded or PDF citation's text as a
read-only file in the workspace's .cairn/cited/."""

from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote, unquote, urlencode, urlsplit

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from cairn.lsp.cited_text import make_uri, parse_uri

from lsp_util import SERVER, build_demo, line_of, open_doc, plain, start, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("cited") / "demo")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def server(lsp_client: LanguageClient, ws):
    await start(lsp_client, ws, experimental={"cairnSourceDocuments": True})
    yield
    await lsp_client.shutdown_session()


async def definition(client: LanguageClient, path: Path, needle: str):
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    await until(lambda: u in client.diagnostics)
    return await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        position=types.Position(line=line_of(text, needle), character=2)))


async def source_text(client: LanguageClient, u: str) -> str:
    got = plain(await client.protocol.send_request_async("cairn/sourceText", {"uri": u}))
    return got["text"]


def as_vscode_writes_it(u: str) -> str:
    """A URI as VS Code hands it back to a content provider (`vscode.Uri.parse(u).toString()`):
    its path and query decoded, then every character but the unreserved ones (and `/` in the
    path) percent-encoded, `=` and `&` included."""
    parts = urlsplit(u)
    return f"{parts.scheme}:{quote(unquote(parts.path), safe='/~')}?{quote(unquote(parts.query), safe='~')}"


def span(text: str, r: types.Range) -> str:
    lines = text.split("\n")
    if r.start.line == r.end.line:
        return lines[r.start.line][r.start.character:r.end.character]
    mid = lines[r.start.line + 1:r.end.line]
    return "\n".join([lines[r.start.line][r.start.character:], *mid, lines[r.end.line][:r.end.character]])


async def test_superseded_citation_opens_the_cited_version(server: LanguageClient, ws: Path):
    (loc,) = await definition(server, ws / "drafts/review-notes.md",
                              'quote: "A customer has 30 days to request')
    assert loc.uri.startswith("cairn-source:/sources/policy.md%20%40977ec965")
    text = await source_text(server, loc.uri)
    old = (REPO / "fixtures/demo-history/sources/policy.md").read_text(encoding="utf-8").lstrip("\ufeff")
    assert text == old  # the 2024 edition, not today's file
    assert text != (ws / "sources/policy.md").read_text(encoding="utf-8")
    assert span(text, loc.range) == "A customer has 30 days to request a credit for a damaged delivery"


async def test_pdf_citation_opens_the_page_text_with_its_number(server: LanguageClient, ws: Path):
    (loc,) = await definition(server, ws / "drafts/credits-answer.md", "sources/shipping.pdf")
    assert loc.uri.startswith("cairn-source:/sources/shipping.pdf%20%40") and "%20page%202?" in loc.uri
    text = await source_text(server, loc.uri)
    assert "\f" not in text  # one page
    got = span(text, loc.range)
    assert got and got in text
    draft = (ws / "drafts/credits-answer.md").read_text(encoding="utf-8")
    assert " ".join(got.split()) in " ".join(draft.split())  # the quote the draft cites


async def test_html_citation_opens_the_visible_text(server: LanguageClient, ws: Path):
    (loc,) = await definition(server, ws / "drafts/credits-answer.md", '"chunk_id": "b751552f19a23ec1"')
    assert loc.uri.startswith("cairn-source:/sources/handbook.html")
    text = await source_text(server, loc.uri)
    assert "<" not in text  # the parsed text, not the markup
    assert span(text, loc.range).startswith("Agents may approve credits")


async def test_the_uri_as_vscode_writes_it_back_is_served(server: LanguageClient, ws: Path):
    # VS Code parses the location's URI and gives the content provider its own spelling of it,
    # which mangles a key=value query
    assert as_vscode_writes_it("cairn-source:/a%20b?x=1&y=a%26b") == "cairn-source:/a%20b?x%3D1%26y%3Da%26b"
    for path, needle in (("drafts/review-notes.md", 'quote: "A customer has 30 days to request'),
                         ("drafts/credits-answer.md", "sources/shipping.pdf")):
        (loc,) = await definition(server, ws / path, needle)
        again = as_vscode_writes_it(loc.uri)
        assert await source_text(server, again) == await source_text(server, loc.uri)


async def test_current_plain_text_citation_still_opens_the_file(server: LanguageClient, ws: Path):
    (loc,) = await definition(server, ws / "drafts/credits-answer.md", 'quote: "Reports after 48 hours')
    assert loc.uri == uri(ws / "sources/policy.md")


async def test_source_text_refuses_what_it_may_not_serve(server: LanguageClient, ws: Path, tmp_path: Path):
    (loc,) = await definition(server, ws / "drafts/review-notes.md", 'quote: "A customer has 30 days to request')
    good = loc.uri
    target = parse_uri(good)

    def with_(**changes) -> str:
        return make_uri(replace(target, **changes))

    outside = tmp_path / "ws"
    outside.mkdir()
    (outside / "sources").mkdir()
    bad = [
        with_(root=uri(outside)),  # not a folder of the server
        with_(source="../../etc/passwd"),  # leaves the source roots
        with_(source="drafts/review-notes.md"),  # not a source
        with_(version="0" * 64),  # a version the store does not hold
        with_(page=9),  # no such page
        "cairn-source:/x?root=1",  # malformed
        good.split("?")[0] + "?" + urlencode({"root": target.root, "source": target.source,
                                              "version": target.version}),  # the old key=value query
        uri(ws / "sources/policy.md"),  # another scheme
    ]
    for u in bad:
        with pytest.raises(Exception) as err:
            await source_text(server, u)
        assert "cairn/sourceText" in str(err.value), u
    assert "30 days" in await source_text(server, good)


@pytest.fixture(scope="module")
def ws_plain(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("cited-plain") / "demo")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def plain_client(lsp_client: LanguageClient, ws_plain):
    await start(lsp_client, ws_plain)
    yield
    await lsp_client.shutdown_session()


def cited_file(loc: types.Location, root: Path) -> Path:
    """The file a location names, which must be in the workspace's .cairn/cited/ and read-only."""
    assert loc.uri.startswith(uri(root / ".cairn/cited") + "/"), loc.uri
    path = Path(to_fs_path(loc.uri))
    assert path.is_file() and not path.is_symlink()
    assert stat.S_IMODE(path.lstat().st_mode) == 0o444  # read-only
    return path


async def test_a_client_without_the_capability_gets_the_cited_text_as_a_read_only_file(
        plain_client: LanguageClient, ws_plain: Path):
    # a superseded citation: the 2024 edition's text, at the span
    (loc,) = await definition(plain_client, ws_plain / "drafts/review-notes.md",
                              'quote: "A customer has 30 days to request')
    path = cited_file(loc, ws_plain)
    text = path.read_text(encoding="utf-8")
    assert text == (REPO / "fixtures/demo-history/sources/policy.md").read_text(encoding="utf-8").lstrip("\ufeff")
    assert span(text, loc.range) == "A customer has 30 days to request a credit for a damaged delivery"
    # a PDF citation: the page's text, at the quote
    (loc,) = await definition(plain_client, ws_plain / "drafts/credits-answer.md", "sources/shipping.pdf")
    path = cited_file(loc, ws_plain)
    assert path.name.endswith("-shipping.pdf-page2.txt")
    text = path.read_text(encoding="utf-8")
    got = span(text, loc.range)
    assert got and "\f" not in text
    draft = (ws_plain / "drafts/credits-answer.md").read_text(encoding="utf-8")
    assert " ".join(got.split()) in " ".join(draft.split())  # the quote the draft cites
    # a current Markdown citation still opens the source file at the span
    (loc,) = await definition(plain_client, ws_plain / "drafts/credits-answer.md", 'quote: "Reports after 48 hours')
    assert loc.uri == uri(ws_plain / "sources/policy.md") and loc.range.start.line > 0


async def test_the_cited_text_is_never_written_through_a_link(plain_client: LanguageClient, ws_plain: Path,
                                                              tmp_path: Path):
    needle = 'quote: "A customer has 30 days to request'
    (loc,) = await definition(plain_client, ws_plain / "drafts/review-notes.md", needle)
    path = cited_file(loc, ws_plain)
    # the file is a link (to a file outside the workspace): nothing is written, today's file as before
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    path.unlink()
    path.symlink_to(outside)
    (loc,) = await definition(plain_client, ws_plain / "drafts/review-notes.md", needle)
    assert loc.uri == uri(ws_plain / "sources/policy.md")
    assert outside.read_text(encoding="utf-8") == "keep me\n" and path.is_symlink()
    # the folder .cairn/cited is a link: the same
    path.unlink()
    cited = ws_plain / ".cairn/cited"
    for p in cited.iterdir():
        p.chmod(0o644)
        p.unlink()
    cited.rmdir()
    away = tmp_path / "away"
    away.mkdir()
    cited.symlink_to(away, target_is_directory=True)
    (loc,) = await definition(plain_client, ws_plain / "drafts/review-notes.md", needle)
    assert loc.uri == uri(ws_plain / "sources/policy.md")
    assert list(away.iterdir()) == []
    cited.unlink()
    # a real folder again: the file is written again
    (loc,) = await definition(plain_client, ws_plain / "drafts/review-notes.md", needle)
    assert span(cited_file(loc, ws_plain).read_text(encoding="utf-8"), loc.range).startswith("A customer has 30 days")


async def test_hover_links_to_the_cited_text(server: LanguageClient, ws: Path):
    import re

    path = ws / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(server, path)
    await until(lambda: u in server.diagnostics)
    h = await server.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        position=types.Position(line=line_of(text, 'quote: "A customer has 30 days to request'), character=2)))
    m = re.search(r"\[Open the cited text \(version 977ec965\)\]\((cairn-source:[^)#]+)#L(\d+),(\d+)\)", h.contents.value)
    assert m is not None, h.contents.value
    served = await source_text(server, m[1])
    line, col = int(m[2]) - 1, int(m[3]) - 1
    assert served.split("\n")[line][col:].startswith("A customer has 30 days")
    # a PDF citation names its page
    path = ws / "drafts/credits-answer.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(server, path)
    h = await server.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        position=types.Position(line=line_of(text, "sources/shipping.pdf"), character=2)))
    assert "[Open the cited text (page 2 of version" in h.contents.value
    # a current .md citation needs no link
    h = await server.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        position=types.Position(line=line_of(text, 'quote: "Reports after 48 hours'), character=2)))
    assert "Open the cited text" not in h.contents.value


async def test_no_hover_link_without_the_capability(plain_client: LanguageClient, ws_plain: Path):
    path = ws_plain / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(plain_client, path)
    await until(lambda: u in plain_client.diagnostics)
    h = await plain_client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        position=types.Position(line=line_of(text, 'quote: "A customer has 30 days to request'), character=2)))
    assert "30 days" in h.contents.value and "cairn-source:" not in h.contents.value


@pytest.fixture(scope="module")
def ws_edited(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("cited-edited") / "demo")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def edited_client(lsp_client: LanguageClient, ws_edited):
    await start(lsp_client, ws_edited, experimental={"cairnSourceDocuments": True})
    yield
    await lsp_client.shutdown_session()


async def test_a_superseded_citation_still_opens_after_its_source_is_edited(edited_client: LanguageClient,
                                                                            ws_edited: Path):
    # today's policy is edited and saved (re-indexed) while the review notes cite the 2024 edition
    client, demo = edited_client, ws_edited
    draft = demo / "drafts/review-notes.md"
    (before,) = await definition(client, draft, 'quote: "A customer has 30 days to request')
    policy = demo / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("A customer has 14", "In short: A customer has 14"),
                      encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(policy), type=types.FileChangeType.Changed)]))
    answer = uri(demo / "drafts/credits-answer.md")
    await until(lambda: "span-shifted" in [d.code for d in client.diagnostics.get(answer, [])],
                what="the re-index of the edited policy")
    (after,) = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(draft)),
        position=types.Position(line=line_of(draft.read_text(encoding="utf-8"),
                                             'quote: "A customer has 30 days to request'), character=2)))
    assert after.uri == before.uri and after.range == before.range
    assert span(await source_text(client, after.uri), after.range).startswith("A customer has 30 days")
