"""The exact cited text as a read-only virtual document: `cairn-source:` URIs.

A citation of a superseded version, or of a source whose parsed text is not the
file's (a PDF's page text, an HTML page's visible text), cannot be shown by
opening today's file. For such a citation, go to definition answers a
`cairn-source:` location instead, and the client asks the server for that
document's text with the request `cairn/sourceText` ({"uri"} -> {"text"}).

The URI's path is only for people (the editor shows its last segment as the
tab's title: the file name, the version, the page); its query names what is
served: the workspace folder's root URI, the source identity, the full
version hash and, for a paged source, the page, as base64url-encoded JSON. A
query of `key=value` pairs would not come back intact: VS Code decodes a
URI's query when it parses it and percent-encodes every reserved character
(`=` and `&` too) when it writes it out again, so the separators and the
characters inside the values could no longer be told apart; base64url has
only characters that no client encodes. Every request is checked
again: the folder must be one the server was given, the source one the
workspace may read, the version one the store holds.

A client that does not declare `experimental.cairnSourceDocuments` cannot ask
for such a document. For a superseded or PDF citation it gets a plain file
instead: the same text written read-only (mode 0444) to
`.cairn/cited/<version>-<source name>[-page<N>].txt` in the workspace folder,
and a file location at the span. The file is written only there: never under a
source root, never through a symbolic link (when `.cairn`, `.cairn/cited` or
the file is one, nothing is written and the location is today's file, as
before). `.cairn` is Cairn's own folder, which git ignores (`.cairn/.gitignore`).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from lsprotocol import types
from pygls.uris import from_fs_path

from ..core.files import is_regular, read_regular
from ..core.model import Chunk, CitationResult
from ..store.base import STORE_DIR, ignore_store_folder
from .positions import LineIndex

if TYPE_CHECKING:
    from collections.abc import Iterable
    
    from .views import FolderView

CITED_DIR = "cited"  # in the workspace's .cairn folder: the cited texts for clients without cairn-source:
SCHEME = "cairn-source"
CAPABILITY = "cairnSourceDocuments"
PAGED = (".pdf",)
log = logging.getLogger(__name__)
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


class CitedTextError(Exception):
    """A `cairn-source:` URI that names nothing this server may serve."""


@dataclass(frozen=True, slots=True)
class Target:
    root: str  # the workspace folder's URI
    source: str
    version: str
    page: int | None


def client_supports(experimental) -> bool:
    """Does the client's `experimental` capability ask for cairn-source documents?"""
    if hasattr(experimental, "_asdict"):
        experimental = experimental._asdict()
    return isinstance(experimental, dict) and experimental.get(CAPABILITY) is True


def make_uri(t: Target) -> str:
    name = t.source + f" @{t.version[:8]}" + (f" page {t.page}" if t.page else "")
    fields: dict[str, str | int] = {"root": t.root, "source": t.source, "version": t.version}
    if t.page:
        fields["page"] = t.page
    data = json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return f"{SCHEME}:/{quote(name)}?{base64.urlsafe_b64encode(data).rstrip(b'=').decode('ascii')}"


def parse_uri(uri: str) -> Target:
    parts = urlsplit(uri)
    if parts.scheme != SCHEME:
        raise CitedTextError(f"not a {SCHEME}: URI")
    query = parts.query
    if not _BASE64URL.fullmatch(query):
        raise CitedTextError(f"malformed {SCHEME}: URI (its query is not base64url)")
    try:
        fields = json.loads(base64.urlsafe_b64decode(query + "=" * (-len(query) % 4)).decode("utf-8"))
        root, source, version = fields["root"], fields["source"], fields["version"]
        page = fields.get("page")
        if not (isinstance(root, str) and isinstance(source, str) and isinstance(version, str)):
            raise ValueError("root, source and version must be strings")
    except (ValueError, TypeError, KeyError, UnicodeDecodeError, binascii.Error) as exc:
        raise CitedTextError(f"malformed {SCHEME}: URI ({exc})") from exc
    version = version.lower()
    bad_page = page is not None and (not isinstance(page, int) or isinstance(page, bool) or page < 1)
    if len(version) != 64 or any(c not in "0123456789abcdef" for c in version) or bad_page:
        raise CitedTextError(f"malformed {SCHEME}: URI (version or page)")
    return Target(root, source, version, page)


def _version_text(folder: FolderView, source: str, version: str) -> LineIndex | None:
    from ..index.workspace import lineage_for

    store = folder.ws.store
    vid = store.find_version(source, version, lineage_for(source), folder.ws.settings.config.chunk_chars)
    return folder.texts.get(vid) if vid is not None else None


def _page_bounds(text: str, page: int) -> tuple[int, int] | None:
    """[start, end) of a page in a paged text (pages are joined by form feeds)."""
    start = 0
    for _ in range(page - 1):
        i = text.find("\f", start)
        if i < 0:
            return None
        start = i + 1
    end = text.find("\f", start)
    return start, (len(text) if end < 0 else end)


def served_text(folder: FolderView, t: Target) -> tuple[str, int]:
    """(the document's text, the offset in the version's parsed text where it starts)."""
    if not folder.ws.allowed(t.source):
        raise CitedTextError(f"{t.source}: not a source this workspace may read")
    index = _version_text(folder, t.source, t.version)
    if index is None:
        raise CitedTextError(f"{t.source} @{t.version[:8]}: that version is not in the index")
    if t.page is None:
        return index.text, 0
    bounds = _page_bounds(index.text, t.page)
    if bounds is None:
        raise CitedTextError(f"{t.source} @{t.version[:8]}: no page {t.page}")
    return index.text[bounds[0]:bounds[1]], bounds[0]


def needs_virtual(ch: Chunk, exact_suffixes: tuple[str, ...]) -> bool:
    """A superseded chunk, or a source whose file is not its parsed text."""
    return not ch.current or not ch.source.lower().endswith(exact_suffixes)


def _span_in_version(r: CitationResult) -> tuple[int, int]:
    """The cited span as offsets of the chunk's version: the citation's offsets when
    the quote is there, else where the quote sits in the chunk, else the whole chunk."""
    ch, cit = r.chunk, r.citation
    assert ch is not None
    s, e, quote = cit.start, cit.end, cit.quote or ""
    if s is not None and e is not None and 0 <= s < e <= len(ch.text) and ch.text[s:e] == quote:
        return ch.start + s, ch.start + e
    at = ch.text.find(quote) if quote else -1
    if at >= 0:
        return ch.start + at, ch.start + at + len(quote)
    return ch.start, ch.end


def virtual_location(folder: FolderView, r: CitationResult, root_uri: str) -> types.Location | None:
    """The cited version's text at the span, as a cairn-source: location (None when
    the version's text is not in the index)."""
    ch = r.chunk
    if ch is None or not folder.ws.allowed(ch.source):
        return None
    page = ch.page if ch.source.lower().endswith(PAGED) else None
    target = Target(root_uri, ch.source, ch.version, page)
    try:
        text, base = served_text(folder, target)
    except CitedTextError as exc:
        log.info("no cited-text document for %s: %s", ch.chunk_id, exc)
        return None
    start, end = _span_in_version(r)
    start, end = max(0, start - base), max(0, min(end - base, len(text)))
    return types.Location(uri=make_uri(target), range=LineIndex(text).lsp_range(folder.codec, start, end))


def folder_by_root(folders: Iterable[FolderView], root: str) -> FolderView | None:
    """The session's folder whose root is this URI (None: not one the server was given)."""
    from pygls.uris import to_fs_path

    path = to_fs_path(root)
    if not path:
        return None
    want = Path(path).resolve()
    return next((f for f in folders if Path(f.root).resolve() == want), None)


# -- a read-only file, for clients without cairn-source: documents -----------------------------


def needs_cited_file(ch: Chunk) -> bool:
    """SPEC section 8: a superseded or PDF citation shows the exact cited version's text."""
    return not ch.current or ch.source.lower().endswith(PAGED)


def cited_file_name(t: Target) -> str:
    name = re.sub(r"[^\w.-]", "_", t.source.rsplit("/", 1)[-1]).lstrip(".") or "source"
    return f"{t.version[:16]}-{name}" + (f"-page{t.page}" if t.page else "") + ".txt"


def file_location(folder: FolderView, r: CitationResult) -> types.Location | None:
    """The cited version's text at the span, as a read-only file in `.cairn/cited/` (None
    when the text is not in the index or the file may not be written there)."""
    ch = r.chunk
    if ch is None or not folder.ws.allowed(ch.source):
        return None
    page = ch.page if ch.source.lower().endswith(PAGED) else None
    target = Target("", ch.source, ch.version, page)
    try:
        text, base = served_text(folder, target)
    except CitedTextError as exc:
        log.info("no cited-text file for %s: %s", ch.chunk_id, exc)
        return None
    path = write_cited(folder, cited_file_name(target), text)
    if path is None:
        return None
    start, end = _span_in_version(r)
    start, end = max(0, start - base), max(0, min(end - base, len(text)))
    uri = from_fs_path(str(path)) or path.as_uri()
    return types.Location(uri=uri, range=LineIndex(text).lsp_range(folder.codec, start, end))


def _real_dir(path: Path) -> bool:
    """A folder that is no symbolic link (made when missing; False when it cannot be)."""
    if path.is_symlink():
        return False
    try:
        path.mkdir(mode=0o755)
    except FileExistsError:
        pass
    except OSError:
        return False
    return path.is_dir() and not path.is_symlink()


def write_cited(folder: FolderView, name: str, text: str) -> Path | None:
    """Write `text` read-only to `.cairn/cited/<name>` of the folder; the file's path, or None
    (logged) when it may not be written: a symbolic link on the way, a source root around
    it, or the file system refused."""
    from ..engine.checks import replace_file
    store = folder.root / STORE_DIR
    cited = store / CITED_DIR
    path = cited / name
    if folder.ws.is_under_source_root(path):
        log.warning("the cited text is not written: %s is under a source root", cited)
        return None
    made = not store.exists() and not store.is_symlink()
    if not _real_dir(store) or not _real_dir(cited):
        log.warning("the cited text is not written: %s or %s is a symbolic link or no folder", store, cited)
        return None
    if made:  # a new .cairn (the index is elsewhere): git ignores it, as it ignores the index's
        ignore_store_folder(store)
    if path.is_symlink():
        log.warning("the cited text is not written: %s is a symbolic link", path)
        return None
    data = text.encode("utf-8")
    try:
        if is_regular(path) and read_regular(path) == data:
            return path  # written before (a version's text never changes)
        replace_file(path, data, 0o444)  # (a link put there meanwhile is replaced, never written through)
    except OSError as exc:
        log.warning("the cited text could not be written to %s: %s", path, exc)
        return None
    return path
