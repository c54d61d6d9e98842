"""Issue 49, item 4, through the real CLI: a file's bytes decide whether it is text, whatever its
name says (SPEC section 2); `MPL-2.0` is a licence name, not a file of type `.0`; a Latin-1 file
is named with a hint to convert it."""

from __future__ import annotations

from pathlib import Path

from cairn_testing import run_cairn


def _workspace(tmp_path: Path, files: dict[str, bytes]) -> Path:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('sources = ["sources"]\n', encoding="utf-8")
    for name, data in files.items():
        (root / "sources" / name).write_bytes(data)
    return root


def test_a_binary_named_txt_is_skipped_with_its_reason(tmp_path: Path):
    program = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8
    root = _workspace(tmp_path, {"fake.txt": program, "mostly.md": bytes(range(0x80, 0x100)) * 16,
                                 "real.txt": b"Refunds are paid within 14 days.\n"})
    proc = run_cairn(root, "index")
    assert proc.returncode == 0, proc.stderr
    assert "sources/fake.txt: skipped: binary (NUL bytes)" in proc.stderr, proc.stderr
    assert "sources/mostly.md: skipped: binary (mostly not UTF-8)" in proc.stderr, proc.stderr
    listed = run_cairn(root, "chunks", "--json").stdout
    assert "sources/real.txt" in listed and "fake.txt" not in listed and "mostly.md" not in listed


def test_licence_names_with_a_version_are_read_as_text(tmp_path: Path):
    root = _workspace(tmp_path, {"MPL-2.0": b"Mozilla Public License Version 2.0\n",
                                 "LGPL-2.1": b"GNU Lesser General Public License\n"})
    proc = run_cairn(root, "index")
    assert "unsupported type" not in proc.stderr, proc.stderr
    listed = run_cairn(root, "chunks", "--json").stdout
    assert "sources/MPL-2.0" in listed and "sources/LGPL-2.1" in listed, listed


def test_a_latin1_file_gets_a_hint_naming_it(tmp_path: Path):
    root = _workspace(tmp_path, {"menu.txt": "Caf\xe9 cr\xe8me is served every day.\n".encode("latin-1")})
    proc = run_cairn(root, "index")
    assert proc.returncode == 0, proc.stderr
    assert "menu.txt looks like Latin-1" in proc.stderr and "iconv -f latin1 -t utf-8 menu.txt" in proc.stderr
