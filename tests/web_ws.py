"""A workspace citing a web page and a local file, for the snapshot and `cairn fetch --verify`
tests on either store (importable: tests/ is on sys.path). The page itself is served by the
test's own loopback server (web_server.Site, the `site` fixture of tests/cli/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

from policy_ws import cite

OLD = "The libffi library is thread-safe."
NEW = "The libffi library is not fully thread-safe."
MOVED = "Alpha beta gamma delta."
LOCAL_OLD = "The local note says the build takes ten minutes."
LOCAL_NEW = "The local note says the build takes an hour."


def html(*paras: str) -> bytes:
    """A page of these paragraphs, as the loopback server sends it."""
    return ("<html><body>" + "".join(f"<p>{p}</p>" for p in paras) + "</body></html>").encode()


def make(where: Path, url: str, *, moved: bool = False) -> Path:
    """The workspace at `where`: sources/local.md and the web page `url` as its sources, and a
    draft citing the page (and `MOVED` on it, with `moved`) and the local note."""
    (where / "sources").mkdir(parents=True)
    (where / "drafts").mkdir()
    (where / "sources" / "local.md").write_text(LOCAL_OLD + "\n", encoding="utf-8")
    (where / "cairn.toml").write_text(f"sources = {json.dumps(['sources', url])}\n", encoding="utf-8")
    (where / "drafts" / "d.md").write_text(
        cite("libffi is thread-safe.", url, OLD) + (cite("Alpha beta gamma delta.", url, MOVED) if moved else "")
        + cite("The build takes ten minutes.", "sources/local.md", LOCAL_OLD), encoding="utf-8")
    return where
