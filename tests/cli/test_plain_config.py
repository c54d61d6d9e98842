"""Issue 49, item 2: configuration mistakes in plain words, through the real CLI.

A typo in cairn.toml had been pydantic's "Extra inputs are not permitted"
and a value of the wrong kind "Input should be a valid number", with no line
and nothing about what would do. Each error now names the file, the line,
the key, the value written and what the key takes; an unquoted colon in a
cite block's YAML value says to quote it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cairn_testing import run_cairn

HEAD = '# my workspace\nsources = ["sources"]\n'  # the mistakes below start on line 3


def _refused(tmp_path: Path, toml: str) -> str:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text(HEAD + toml, encoding="utf-8")
    proc = run_cairn(root, "check")
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "Extra inputs" not in proc.stderr
    assert "Input should be" not in proc.stderr
    return proc.stderr


def test_a_misspelt_key_is_named_with_its_line_and_the_key_meant(tmp_path: Path):
    err = _refused(tmp_path, "treshold = 0.6\n")
    assert "cairn.toml, line 3: unknown key 'treshold' in cairn.toml (did you mean 'threshold'?)" in err, err


def test_a_misspelt_key_in_a_table_names_the_table(tmp_path: Path):
    err = _refused(tmp_path, '\n[judge]\nprovider = "stub"\nmodle = "m"\n')
    assert "cairn.toml, line 6: unknown key 'modle' in [judge] of cairn.toml (did you mean 'model'?)" in err, err
    err = _refused(tmp_path / "b", '[jduge]\nurl = ""\n')
    assert "cairn.toml, line 3: unknown key 'jduge' in cairn.toml (did you mean 'judge'?)" in err, err


def test_a_key_like_no_other_lists_the_keys_allowed(tmp_path: Path):
    err = _refused(tmp_path, "frobnicate = 1\n")
    assert "line 3: unknown key 'frobnicate' in cairn.toml; the keys allowed there are: sources, drafts" in err, err


@pytest.mark.parametrize("toml, said", [
    ("threshold = 2\n", "cairn.toml, line 3: threshold = 2 is not allowed: threshold takes a number from 0 to 1"),
    ("threshold = true\n", "cairn.toml, line 3: threshold = true is not allowed: threshold takes a number from 0 to 1"),
    ("chunk_chars = 1200.0\n",
     "cairn.toml, line 3: chunk_chars = 1200.0 is not allowed: chunk_chars takes a whole number from 32 to 1000000"),
    ('strict_sentences = "yes"\n',
     'cairn.toml, line 3: strict_sentences = "yes" is not allowed: strict_sentences takes true or false'),
    ('\n[judge]\nprovider = "gpt"\n',
     'cairn.toml, line 5: judge.provider = "gpt" is not allowed: judge.provider takes one of "stub", "openai"'),
    ('[[policy]]\npath = "sources/**"\n\n[[policy]]\npath = "sources/a/**"\nderived = "no"\n',
     'cairn.toml, line 8: policy[2].derived = "no" is not allowed: policy[2].derived takes true or false'),
    ('[[policy]]\nauthority = "official"\n',
     "cairn.toml, line 3: [[policy]] number 1 of cairn.toml has no 'path': it is required (a text in quotes)"),
    ('[judge]\napi_key_env = "OPENAI_KEY"\n',
     'cairn.toml, line 4: judge.api_key_env = "OPENAI_KEY": api_key_env must name an environment variable'
     ' starting with CAIRN_'),
    ('drafts = ["../elsewhere/*.md"]\n', "cairn.toml, line 3: drafts: '../elsewhere/*.md' leaves the workspace"),
    ('[authority]\ntiers = ["official", "internal"]\nminimum = "offical"\n',
     "cairn.toml, line 5: authority.minimum: 'offical' is not one of authority.tiers (official, internal)"),
    ("threshold = yes\n", "cairn.toml, line 3, column 13: Invalid value (a text value needs quotes"),
    ("threshold = 0.5\nthreshold = 0.6\n", "cairn.toml, line 4, column 16: Cannot overwrite a value (a key or table"
     " is set twice)"),
])
def test_each_configuration_error_names_file_line_key_value_and_what_is_allowed(tmp_path: Path, toml: str, said: str):
    err = _refused(tmp_path, toml)
    assert said in err, err


def test_a_source_root_outside_the_workspace_names_its_line(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "cairn.toml").write_text('# roots\n\nsources = ["/etc"]\n', encoding="utf-8")
    proc = run_cairn(root, "check")
    assert proc.returncode == 2
    assert "cairn.toml, line 3: sources: '/etc' is an absolute path" in proc.stderr, proc.stderr


def test_an_unquoted_colon_in_a_cite_value_says_to_quote_it(demo: Path):
    draft = demo / "drafts" / "colon.md"
    draft.write_text(
        "# Credits\n\nA customer has 14 days to request a credit for a damaged delivery.\n\n```cite\n"
        "chunk_id: 691d71e4b46d8b0d\nstart: 0\nend: 65\n"
        "quote: Note: A customer has 14 days to request a credit for a damaged delivery\n```\n",
        encoding="utf-8")
    before = draft.read_bytes()
    proc = run_cairn(demo, "check", "drafts/colon.md")
    assert proc.returncode == 1, proc.stderr
    assert "drafts/colon.md:9: error [block-syntax] invalid YAML" in proc.stdout, proc.stdout
    assert ("the value of 'quote' holds ': ', which YAML reads as a new key: put it in quotes,"
            ' quote: "Note: A customer has 14 days') in proc.stdout, proc.stdout
    assert draft.read_bytes() == before
