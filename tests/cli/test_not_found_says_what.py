"""A quote that is not found says what the source says instead, and a block that lacks its
offsets gets them as a fix (issue: a new user's first hour, round two, item 1), through the
real CLI: text (the differing words marked), JSON (the plain text), and `--fix`."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn

CHUNK = "691d71e4b46d8b0d"
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"


def _draft(demo: Path, name: str, body: str) -> Path:
    path = demo / "drafts" / name
    path.write_text(body, encoding="utf-8")
    return path


def test_quote_not_found_shows_the_closest_sentence_marked_in_text_plain_in_json(demo: Path):
    _draft(demo, "near.md", f"""A customer has 21 days to request a credit.

```cite
chunk_id: {CHUNK}
start: 0
end: 65
quote: "A customer has 21 days to request a credit for a damaged delivery"
```
""")
    text = run_cairn(demo, "check", "drafts/near.md")
    assert text.returncode == 1
    line = next(x for x in text.stdout.splitlines() if "[quote-not-found]" in x)
    # the sentence around the closest text, whole
    assert "% similar: \u201cA customer has 14 days to request a credit for a damaged delivery." in line
    says = next(x for x in text.stdout.splitlines() if x.strip().startswith("source says:"))
    assert "has [14] days" in says and "[customer]" not in says and says.split("\u201d")[0].count("[") == 1
    report = json.loads(run_cairn(demo, "check", "drafts/near.md", "--format", "json").stdout)
    (diag,) = [d for c in report["drafts"][0]["claims"] for d in c["diagnostics"] if d["code"] == "quote-not-found"]
    assert "\u201cA customer has 14 days to request a credit" in diag["message"] and "[" not in diag["message"]


def test_missing_offsets_get_a_fix_that_check_fix_applies(demo: Path):
    path = _draft(demo, "offsets.md", f"""A customer has 14 days to request a credit for a damaged delivery.

```cite
chunk_id: {CHUNK}
quote: "{QUOTE}"
```
""")
    before = run_cairn(demo, "check", "drafts/offsets.md")
    assert before.returncode == 1
    fixes = [x for x in before.stdout.splitlines() if x.strip().startswith("fix: Set start and end")]
    assert len(fixes) == 1 and "[0, 65)" in fixes[0]  # one fix for both missing fields
    fixed = run_cairn(demo, "check", "--fix", "drafts/offsets.md")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    body = path.read_text(encoding="utf-8")
    assert "start: 0\n" in body and "end: 65\n" in body
    assert run_cairn(demo, "check", "drafts/offsets.md").returncode == 0


def test_unreadable_offset_gets_the_fix_too(demo: Path):
    _draft(demo, "twelve.md", f"""A customer has 14 days to request a credit for a damaged delivery.

```cite
chunk_id: {CHUNK}
start: twelve
end: 65
quote: "{QUOTE}"
```
""")
    out = run_cairn(demo, "check", "drafts/twelve.md").stdout
    assert "expected a non-negative integer, got 'twelve'" in out
    assert "fix: Set start and end to where the quote is in chunk 691d71e4b46d8b0d ([0, 65))" in out


def test_no_offsets_fix_when_the_quote_is_ambiguous_absent_or_the_block_has_other_problems(demo: Path):
    # "request" is in the chunk more than once; a quote not in the chunk; a quote field missing too
    _draft(demo, "nofix.md", f"""First claim about requests.

```cite
chunk_id: {CHUNK}
quote: "request"
```

Second claim.

```cite
chunk_id: {CHUNK}
quote: "nothing like this is in the policy"
```

Third claim.

```cite
chunk_id: {CHUNK}
end: 65
```
""")
    proc = run_cairn(demo, "check", "drafts/nofix.md")
    assert proc.returncode == 1
    assert "Set start and end" not in proc.stdout


def test_no_offsets_fix_reveals_a_source_the_principal_may_not_read(demo: Path):
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[[policy]]\npath = "sources/policy.md"\naccess = ["staff"]\n'
                    '[principals]\nreader = ["public"]\n', encoding="utf-8")
    _draft(demo, "denied.md", f"""A customer has 14 days to request a credit for a damaged delivery.

```cite
chunk_id: {CHUNK}
quote: "{QUOTE}"
```
""")
    proc = run_cairn(demo, "check", "--as", "reader", "drafts/denied.md")
    assert proc.returncode == 1 and "Set start and end" not in proc.stdout
    owner = run_cairn(demo, "check", "drafts/denied.md")
    assert "Set start and end" in owner.stdout
