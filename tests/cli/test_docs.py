"""The docs against the code: every `cairn` command and flag the README, docs/,
examples/ and the pre-commit hook show exists in the real command-line parser,
with the choices they show; the code tables match the code's own table."""

from __future__ import annotations

import re
from pathlib import Path

import click

from cairn.cli.main import main
from cairn.core.model import CODES

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", REPO / "client-vscode" / "README.md", REPO / ".pre-commit-hooks.yaml",
        *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "examples").glob("*"))]

_SHELL_END = re.compile(r"\s(?:\|\|?|>|&&|;|#)\s|`")


def _invocations(text: str) -> list[str]:
    """Each `cairn ...` the text shows as a command: in inline code, and on the lines
    of fenced blocks and YAML (after `$ `, `run: `, `entry: ` or at a line's start)."""
    out = [m.group(1) for m in re.finditer(r"`(cairn [^`\n]+)`", text)]
    for line in text.splitlines():
        m = re.search(r"(?:^\s*|\$ |run: |entry: |&& )(cairn (?:[a-z-]+|--?\w[\w-]*).*)", line)
        if m:
            out.append(m.group(1))
    return out


def _split(invocation: str) -> tuple[str | None, str]:
    text = invocation.replace("\\|", "|")
    text = _SHELL_END.split(text + " ", maxsplit=1)[0]
    words = text.split()
    command = words[1] if len(words) > 1 and not words[1].startswith("-") else None
    return command, " ".join(words[2:] if command else words[1:])


def _options(cmd: click.Command) -> dict[str, click.Parameter]:
    ctx = click.Context(cmd, info_name=cmd.name, help_option_names=["-h", "--help"])
    return {o: p for p in cmd.get_params(ctx) for o in (*p.opts, *p.secondary_opts) if o.startswith("-")}


def test_every_command_and_flag_the_docs_show_exists():
    seen: set[str] = set()
    problems = []
    for doc in DOCS:
        for inv in _invocations(doc.read_text(encoding="utf-8")):
            command, rest = _split(inv)
            if command is None:
                target = main
            elif command not in main.commands:
                problems.append(f"{doc.name}: `{inv}`: no command {command!r}")
                continue
            else:
                target = main.commands[command]
                seen.add(command)
            options = _options(target)
            for flag in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", rest):
                if flag not in options:
                    problems.append(f"{doc.name}: `{inv}`: {command or 'cairn'} has no option {flag}")
            for flag, choices in re.findall(r"(--[\w-]+)[ =]\[?([a-z]+(?:\|[a-z]+)+)", rest):
                param = options.get(flag)
                if param is not None and isinstance(param.type, click.Choice):
                    for choice in choices.split("|"):
                        if choice not in param.type.choices:
                            problems.append(f"{doc.name}: `{inv}`: {flag} has no choice {choice!r}")
    assert problems == []
    # the reading itself works: the docs show each of these
    assert seen >= {"init", "index", "chunks", "check", "calibrate", "gc", "serve"}


def test_the_checker_catches_a_flag_that_does_not_exist():
    command, rest = _split("cairn check --format text\\|yaml --nope > out.txt")
    assert command == "check"
    options = _options(main.commands[command])
    assert "--nope" not in options and "--format" in options
    assert "yaml" not in options["--format"].type.choices


def _code_rows(doc: Path) -> dict[str, tuple[str, bool]]:
    rows = {}
    # "fails the claim" may say when it changes: "no (yes with `strict_sentences = true`)"
    for m in re.finditer(r"^\| `([a-z-]+)` \| (error|warning|information|hint) \| (yes|no)(?: \([^|]*\))? \|",
                         doc.read_text(), re.M):
        rows[m.group(1)] = (m.group(2), m.group(3) == "yes")
    return rows


def test_code_tables_match_the_code():
    for doc in (REPO / "docs" / "reference.md", REPO / "docs" / "guide.md"):
        assert _code_rows(doc) == {code: (sev, fails) for code, (sev, fails) in CODES.items()}, doc.name


def test_the_workflow_example_is_the_one_the_guide_shows():
    guide = (REPO / "docs" / "guide.md").read_text()
    block = re.search(r"```yaml\n(# \.github/workflows/citations\.yml\n.*?)```\n", guide, re.S).group(1)
    example = (REPO / "examples" / "github-actions.yml").read_text()
    assert example == block
    import yaml

    steps = yaml.safe_load(example)["jobs"]["check"]["steps"]
    runs = [s.get("run", "") for s in steps]
    sarif = next(i for i, r in enumerate(runs) if "--format sarif > cairn.sarif" in r)
    upload = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert sarif < upload and steps[upload]["with"]["sarif_file"] == "cairn.sarif"
    assert yaml.safe_load(example)["permissions"]["security-events"] == "write"


def _config_keys(model: type, prefix: str = "") -> set[str]:
    """Every key `cairn.toml` accepts, as `section.key`, from the configuration's own models."""
    from pydantic import BaseModel

    out: set[str] = set()
    for name, field in model.model_fields.items():  # type: ignore[attr-defined]
        ann = field.annotation
        inner = getattr(ann, "__args__", (ann,))
        sub = next((t for t in inner if isinstance(t, type) and issubclass(t, BaseModel)), None)
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            out |= _config_keys(ann, f"{prefix}{name}.")
        elif sub is not None:  # a list of tables: [[policy]]
            out |= _config_keys(sub, f"{prefix}{name}.")
        elif name == "principals":  # a table of names: its own keys are the user's, and `principal`
            out |= {f"{prefix}principals.NAME", f"{prefix}principals.principal"}
        else:
            out.add(prefix + name)
    return out


def _documented_keys(text: str) -> set[str]:
    """The keys of the reference's configuration table: `[section] key`, then bare `key`s in
    the same cell belonging to that section."""
    table = text[text.index("## Configuration keys"):]
    table = table[table.index("| key |"):]
    table = table[:table.index("\n\n")]
    keys: set[str] = set()
    for row in table.splitlines()[2:]:
        cell = row.split("|")[1]
        section = ""
        for token in re.findall(r"`([^`]+)`", cell):
            m = re.fullmatch(r"\[\[?(\w+)\]\]?\s+(\w+)", token)
            if m:
                section = m.group(1) + "."
                keys.add(section + m.group(2))
            else:
                keys.add(section + token)
    return keys


def test_every_configuration_key_is_in_the_reference_and_back():
    from cairn.core.config import Config

    accepted = _config_keys(Config)
    documented = _documented_keys((REPO / "docs" / "reference.md").read_text(encoding="utf-8"))
    assert accepted - documented == set(), "accepted by cairn.toml but missing from docs/reference.md"
    assert documented - accepted == set(), "in docs/reference.md but refused by cairn.toml"
    assert {"judge.timeout", "policy.access", "retention.superseded_days", "principals.NAME"} <= accepted


def test_every_documented_key_is_accepted_by_a_real_config(tmp_path: Path):
    """Each key the reference lists, written in a cairn.toml, loads (or fails on its value,
    never as an unknown key)."""
    from cairn.core.config import ConfigError, load_settings

    documented = _documented_keys((REPO / "docs" / "reference.md").read_text(encoding="utf-8"))
    (tmp_path / "sources").mkdir()
    for key in sorted(documented - {"principals.NAME"}):
        section, _, name = key.rpartition(".")
        head = f"[[{section}]]\npath = \"sources/**\"\n" if section == "policy" else (f"[{section}]\n" if section else "")
        body = "" if (section, name) == ("policy", "path") else f"{name} = []\n"
        (tmp_path / "cairn.toml").write_text(head + body, encoding="utf-8")
        try:
            load_settings(tmp_path)
        except ConfigError as exc:
            assert "unknown key" not in str(exc), (key, str(exc))


def test_readme_example_is_the_demos_real_output(demo: Path):
    """The README's "What it looks like" shows excerpts of `cairn check` on the demo; each run of
    lines between `...` is a run of the real output, in the same order, the last one its end."""
    from cairn_testing import run_cairn

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    at = readme.index("tests/cli/test_docs.py compares them")
    block = readme[readme.index("```console\n", at) + len("```console\n"):]
    block = block[:block.index("\n```")]
    command, *shown = block.splitlines()
    assert command == "$ cairn check drafts/review-notes.md"
    proc = run_cairn(demo, "check", "drafts/review-notes.md")
    assert proc.returncode == 1, proc.stderr
    real = proc.stdout.splitlines()
    parts: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    at_line = 0
    for part in parts:
        found = next((i for i in range(at_line, len(real) - len(part) + 1) if real[i:i + len(part)] == part), None)
        assert found is not None, "the README shows lines the demo does not print, in this order:\n" + "\n".join(part)
        at_line = found + len(part)
    assert parts[0][0] == real[0] and parts[-1] == real[-len(parts[-1]):]
