"""The record of what each source file hashed to (cairn.statcache): an unchanged
file is not read again, any edit is still seen, and a record Cairn did not write
on this machine for this folder is never trusted."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from cairn.core.config import load_settings
from cairn.index import statcache
from cairn.index.statcache import SourceStatus, status_of
from cairn.index.workspace import Workspace
from cairn.store import Store


def _workspace(root: Path, n: int = 6) -> Workspace:
    src = root / "sources"
    src.mkdir(parents=True)
    for i in range(n):
        (src / f"doc{i}.md").write_text(f"Document {i}. Refunds are accepted within 30 days.\n", encoding="utf-8")
    return Workspace(root, load_settings(root), store=Store(root))


def _reads(monkeypatch) -> list[str]:
    """The source files read from here on (a spy on the indexer's file read, which refuses
    what is not a regular file: the files are still read)."""
    from cairn.index import workspace as workspace_mod

    seen: list[str] = []
    real = workspace_mod.read_regular

    def spy(path, *args, **kwargs):
        seen.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(workspace_mod, "read_regular", spy)
    return seen


def test_an_unchanged_source_is_not_read_again_and_an_edit_is_seen(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(statcache, "SETTLE_SECONDS", 0.0)  # the files here are only just written
    ws = _workspace(tmp_path / "ws")
    assert len(ws.index().indexed) == 6
    record = SourceStatus(ws.root).path
    assert record is not None and record.is_file()
    assert not record.is_relative_to(ws.root)  # kept outside the workspace, which may come from anyone
    reads = _reads(monkeypatch)
    fresh = Workspace(ws.root, ws.settings, store=ws.store)  # a new run: the record is loaded from the file
    again = fresh.index()
    assert again.unchanged == 6 and reads == []
    # an edit of the same size with the modification time put back: the change time still moves
    doc = ws.root / "sources" / "doc3.md"
    before = doc.stat()
    doc.write_text(doc.read_text(encoding="utf-8").replace("30 days", "14 days"), encoding="utf-8")
    os.utime(doc, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert doc.stat().st_size == before.st_size and doc.stat().st_mtime_ns == before.st_mtime_ns
    reads.clear()
    edited = Workspace(ws.root, ws.settings, store=ws.store).index()
    assert edited.indexed == ["sources/doc3.md"] and reads == ["doc3.md"]
    assert any("14 days" in c.text for c in ws.store.current_chunks(["sources/doc3.md"]))


def test_a_file_just_written_is_not_recorded_until_it_settles(tmp_path: Path):
    ws = _workspace(tmp_path / "ws", n=1)
    ws.index()  # the default settle time: the file was written a moment ago
    record = SourceStatus(ws.root)
    doc = ws.root / "sources" / "doc0.md"
    assert record.known("sources/doc0.md", status_of(doc.stat())) is None


def test_a_record_not_written_here_is_ignored(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(statcache, "SETTLE_SECONDS", 0.0)
    ws = _workspace(tmp_path / "ws", n=2)
    ws.index()
    doc = ws.root / "sources" / "doc0.md"
    status = status_of(doc.stat())
    assert SourceStatus(ws.root).known("sources/doc0.md", status) is not None
    path = SourceStatus(ws.root).path
    assert path is not None
    good = path.read_bytes()
    # one byte of the body changed (a forged hash): the MAC no longer checks
    path.write_bytes(good.replace(b'"sources/doc0.md":[[', b'"sources/doc0.md":[[ '))
    assert SourceStatus(ws.root).known("sources/doc0.md", status) is None
    # the record of another folder put in this one's place: bound to the folder it was written for
    path.write_bytes(good)
    other = tmp_path / "copy"
    shutil.copytree(ws.root, other, symlinks=True)
    theirs = SourceStatus(other).path
    assert theirs is not None
    theirs.write_bytes(good)
    assert SourceStatus(other).known("sources/doc0.md", status) is None
    assert SourceStatus(ws.root).known("sources/doc0.md", status) is not None
    # garbage is ignored, not an error
    path.write_bytes(b"\x00\xff not a record")
    assert SourceStatus(ws.root).known("sources/doc0.md", status) is None


def test_no_cache_folder_means_every_file_is_read(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(statcache, "SETTLE_SECONDS", 0.0)
    monkeypatch.setattr(statcache, "cache_dir", lambda: None)  # no home folder, no XDG_CACHE_HOME
    ws = _workspace(tmp_path / "ws", n=2)
    ws.index()
    reads = _reads(monkeypatch)
    assert Workspace(ws.root, ws.settings, store=ws.store).index().unchanged == 2
    assert sorted(reads) == ["doc0.md", "doc1.md"]
    # the status cache is never kept in the workspace (the snapshots there are the record of versions)
    assert not [p for p in (ws.root / ".cairn").iterdir() if not p.name.startswith((".gitignore", "index.db", "snapshots"))]


def test_old_records_are_pruned_and_used_ones_kept(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(statcache, "SETTLE_SECONDS", 0.0)
    ws = _workspace(tmp_path / "ws", n=1)
    ws.index()
    mine = SourceStatus(ws.root).path
    assert mine is not None
    gone = mine.parent / ("0" * 32 + ".json")
    gone.write_bytes(b"a record of a deleted workspace")
    old = 1_000_000_000
    os.utime(gone, (old, old))
    os.utime(mine, (old, old))
    SourceStatus(ws.root)  # a pass that uses its record keeps it fresh
    (mine.parent / ".pruned").unlink()
    other = _workspace(tmp_path / "other", n=1)
    other.index()  # saving a record prunes (at most once a day)
    assert mine.exists() and not gone.exists()
