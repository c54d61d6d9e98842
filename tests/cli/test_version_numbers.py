"""Version numbers in changelogs, through the real CLI (issue 46): a dotted version
(`1.2.13`, `1.2.11.1`) or a Debian package version (`1:1.2.11.dfsg-4.1`) is an
identifier, never split into quantities. The release a claim names is held to the
release the cited entry gives, in the quote or in the entry's heading ("Changes in
1.2.13 (…)" over its items): the same release verifies, another one is a
number-mismatch naming both, in `check` and in what `cite --for` offers."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import check_json, run_cairn

UPSTREAM = """\
                ChangeLog file for zlib

Changes in 1.2.13 (13 Oct 2022)
- Correct the prototypes of the new CRC functions
- Fix a crash when reading an extra field of a gzip header with inflate()
- Tighten the bounds that deflateBound gives

Changes in 1.2.12 (27 Mar 2022)
- Avoid a conversion warning in gzread.c

Changes in 1.2.11.1 (1 Jan 2022)
- Repair the detection of a window that is too small

Changes in 1.2.6.1 (12 Feb 2012)
- Make the Windows build files agree on the library name

Changes in 1.2.3.6 (17 Jan 2010)
- Add a configure option to build only the static library
"""

DEBIAN = """\
zlib (1:1.2.13.dfsg-1) unstable; urgency=low

  * New upstream release.
  * Drop a patch that the new release carries.

 -- A Maintainer <someone@example.org>  Sat, 05 Nov 2022 12:24:46 +0000

zlib (1:1.2.11.dfsg-4.1) unstable; urgency=medium

  * Non-maintainer upload.
  * Fix a crash when reading an extra field of a gzip header.

 -- Another Person <other@example.org>  Fri, 12 Aug 2022 22:15:03 +0200
"""


def _workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n', encoding="utf-8")
    (root / "sources" / "zlib-changelog").write_text(UPSTREAM, encoding="utf-8")
    (root / "sources" / "zlib-debian-changelog.txt").write_text(DEBIAN, encoding="utf-8")
    return root


def _checked(root: Path, claim: str, quote: str, source: str) -> dict:
    """`claim` cited to `quote` (a block `cairn cite` writes), as `cairn check --format json` reports it."""
    proc = run_cairn(root, "cite", "--source", source, "--", quote)
    assert proc.returncode == 0, proc.stderr
    draft = root / "drafts" / "notes.md"
    draft.write_text(f"# Notes\n\n{claim}\n\n{proc.stdout}", encoding="utf-8")
    _, report = check_json(root, "drafts/notes.md")
    (got,) = report["drafts"][0]["claims"]
    return got


def _codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


def _message(claim: dict, code: str) -> str:
    return next(d["message"] for d in claim["diagnostics"] if d["code"] == code)


def test_the_release_the_quoted_heading_gives_verifies_and_another_is_a_mismatch(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    quote = "Changes in 1.2.13 (13 Oct 2022)\n- Correct the prototypes of the new CRC functions"
    same = _checked(root, "zlib 1.2.13 corrected the prototypes of the new CRC functions.", quote, "sources/zlib-changelog")
    assert same["supported"] is True and "number-mismatch" not in _codes(same), same
    other = _checked(root, "zlib 1.2.12 corrected the prototypes of the new CRC functions.", quote,
                     "sources/zlib-changelog")
    assert other["supported"] is False
    message = _message(other, "number-mismatch")
    assert "1.2.12" in message and "1.2.13" in message, message
    # four parts: 1.2.11.1 is its own release, 1.2.11 another
    quote = "Changes in 1.2.11.1 (1 Jan 2022)\n- Repair the detection of a window that is too small"
    four = _checked(root, "zlib 1.2.11.1 repaired the detection of a window that is too small.", quote,
                    "sources/zlib-changelog")
    assert four["supported"] is True and "number-mismatch" not in _codes(four), four
    three = _checked(root, "zlib 1.2.11 repaired the detection of a window that is too small.", quote,
                     "sources/zlib-changelog")
    assert "number-mismatch" in _codes(three) and "1.2.11.1" in _message(three, "number-mismatch")


def test_an_item_is_held_to_the_release_its_entry_heads_it_with(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    quote = "- Fix a crash when reading an extra field of a gzip header with inflate()"
    same = _checked(root, "zlib 1.2.13 fixed a crash when reading an extra field of a gzip header with inflate().",
                    quote, "sources/zlib-changelog")
    assert same["supported"] is True and "number-mismatch" not in _codes(same), same
    other = _checked(root, "zlib 1.2.12 fixed a crash when reading an extra field of a gzip header with inflate().",
                     quote, "sources/zlib-changelog")
    assert "number-mismatch" in _codes(other)
    assert "1.2.12" in _message(other, "number-mismatch") and "1.2.13" in _message(other, "number-mismatch")


def test_a_debian_package_version_is_one_identifier(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    # the epoch (1:) and the revision (-1) are no counts the quote must hold
    new = _checked(root, "zlib 1.2.13-1 is a new upstream release.", "New upstream release.",
                   "sources/zlib-debian-changelog.txt")
    assert new["supported"] is True and "number-mismatch" not in _codes(new), new
    # an entry's heading is a paragraph of its own
    quote = "zlib (1:1.2.11.dfsg-4.1) unstable; urgency=medium"
    source = "sources/zlib-debian-changelog.txt"
    same = _checked(root, "zlib 1:1.2.11.dfsg-4.1 was uploaded to unstable with medium urgency.", quote, source)
    assert same["supported"] is True and "number-mismatch" not in _codes(same), same
    # another revision of the same upstream release is another package version
    other = _checked(root, "zlib 1:1.2.11.dfsg-4 was uploaded to unstable with medium urgency.", quote, source)
    assert "number-mismatch" in _codes(other)
    assert "revision 4;" in _message(other, "number-mismatch") and "revision 4.1" in _message(other, "number-mismatch")


def test_cite_for_offers_only_the_entry_of_the_release_the_claim_names(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    proc = run_cairn(root, "cite", "--json", "--for", "zlib 1.2.3.6 added a configure option to build only the static library")
    assert proc.returncode == 0, proc.stderr
    first = json.loads(proc.stdout)["passages"][0]
    assert first["supports"] is True and "configure option" in first["citation"]["quote"]
    # the same item claimed of another release: the entry's heading says 1.2.3.6, so it is no support
    proc = run_cairn(root, "cite", "--json", "--for", "zlib 1.2.6.1 added a configure option to build only the static library")
    assert proc.returncode == 1, proc.stdout
    got = json.loads(proc.stdout)
    assert got["supported"] is False
    item = next(p for p in got["passages"] if "configure option" in p["citation"]["quote"])
    assert item["supports"] is False and "1.2.6.1" in item["why"] and "1.2.3.6" in item["why"], item
