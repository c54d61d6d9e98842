"""What a draft, a source or a file name holds is shown on a terminal, never
obeyed (issue 11, item 9).

`\\x1b[2K\\x1b[1G` in a claim erased a FAILED line and drew a VERIFIED one in
its place; an OSC sequence (`\\x1b]0;...\\x07`, the window title) in a
`source:` value passed through to the terminal. Every human-readable output
(the text report, the --fix report, warnings and log lines on stderr,
`cairn chunks`) writes control characters as `\\xNN`; only Cairn's own colours
remain, and only on a terminal.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cairn_testing import run_in_pty
from robust_util import run_cairn

ERASE = "\x1b[2K\x1b[1G"
OSC = "\x1b]0;pwned\x07"
FAKE = f"{ERASE}  drafts/x.md:1: VERIFIED (support 1.00, lexical) all good"
# what a terminal would obey: ESC, BEL, CSI as one C1 character, a bare CR
RAW = re.compile("[\x1b\x07\x9b\r]")
COLOUR = re.compile(r"\x1b\[\d+m")


def _hostile_workspace(demo: Path) -> None:
    policy = "691d71e4b46d8b0d"  # a real chunk of sources/policy.md
    quote = "A customer has 14 days to request a credit for a damaged delivery"
    text = (f"A claim {FAKE}\n\n```cite\nchunk_id: {policy}\nstart: 0\nend: {len(quote)}\n"
            f"quote: {json.dumps(quote + ERASE)}\nsource: {json.dumps(OSC + 'sources/policy.md')}\n```\n\n"
            f"Another claim{OSC}.\n\n```cite\nchunk_id: 0123456789abcdef\nstart: 0\nend: 3\n"
            f"quote: {json.dumps('abc' + chr(0x9b) + '31m')}\n```\n")
    (demo / "drafts" / "escapes.md").write_text(text, encoding="utf-8")
    (demo / "drafts" / f"name{ERASE}.md").write_text(text, encoding="utf-8")
    (demo / "sources" / f"title{OSC}.txt").write_text(f"A source whose text holds{ERASE} escapes.\n",
                                                        encoding="utf-8")
    (demo / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")


def test_no_raw_escape_reaches_a_pipe(demo: Path):
    _hostile_workspace(demo)
    runs = [run_cairn(demo, *args) for args in (
        ["check"], ["check", "drafts/escapes.md"], ["check", "--fix"], ["index"], ["chunks"], ["gc"],
        ["check", "--strict", f"drafts/name{ERASE}.md"])]
    for proc in runs:
        assert proc.returncode in (0, 1), proc.stderr
        for stream in (proc.stdout, proc.stderr):
            assert not RAW.search(stream), repr(RAW.search(stream).group()) + " in " + repr(stream[-3000:])
    text = runs[0].stdout
    assert "\\x1b[2K" in text and "\\x1b]0;pwned\\x07" in text  # shown, escaped
    assert "\\x1b[2K" in runs[4].stdout  # cairn chunks: the source's text
    assert "FAILED" in text
    # JSON keeps the exact text (escaped by JSON itself)
    report = json.loads(run_cairn(demo, "check", "--format", "json", "drafts/escapes.md").stdout)
    assert report["drafts"][0]["claims"][0]["text"].endswith(FAKE)


def test_on_a_terminal_only_the_colours_are_sequences(demo: Path):
    _hostile_workspace(demo)
    code, shown = run_in_pty(demo, "check", "drafts/escapes.md")
    assert code == 1
    assert COLOUR.search(shown)  # the verdicts are coloured
    rest = COLOUR.sub("", shown)  # (CR is the progress bar's own)
    assert not re.search("[\x1b\x07\x9b]", rest), repr(rest[-3000:])
    assert "pwned" in rest  # the progress bar named the file (escaped, as checked above)
