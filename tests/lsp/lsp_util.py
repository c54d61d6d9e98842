"""Helpers of the language server tests: a fresh copy of the demo workspace
(fixtures/make_demo.py), a real `cairn serve` subprocess driven over JSON-RPC
by pytest-lsp, and what a client does with what the server sends.

(Not in conftest.py: several test folders have one, and `conftest` is not a
name a test module can import reliably.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cairn.lsp.positions import Codec, LineIndex

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))

import make_demo  # noqa: E402 - found through the path set above
from cairn_testing import open_doc, until, uri  # noqa: E402,F401 - after the path set-up; re-exported

# a citation that verifies in the demo (sources/policy.md)
CITE_OK = (
    "```cite\nchunk_id: 691d71e4b46d8b0d\nstart: 0\nend: 65\n"
    "quote: \"A customer has 14 days to request a credit for a damaged delivery\"\n"
    "source: sources/policy.md\nversion: 9b3c4325200c\n```\n"
)

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])
CHECKED = "cairn/checked"


def build_demo(dest: Path) -> Path:
    return make_demo.build(dest)


def capabilities(encodings: list[str] | None = None, experimental: dict | None = None) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    if experimental is not None:
        caps.experimental = experimental
    if encodings is not None:
        caps.general = caps.general or types.GeneralClientCapabilities()
        caps.general.position_encodings = encodings
    return caps


def plain(o):
    """pygls hands untyped JSON over as named tuples; back to dicts and lists."""
    if hasattr(o, "_asdict"):
        return {k: plain(v) for k, v in o._asdict().items()}
    if isinstance(o, (list, tuple)):
        return [plain(v) for v in o]
    return o


def watch_client(client: LanguageClient) -> None:
    """Record what the server sends beyond the defaults pytest-lsp keeps."""
    client.checked = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(CHECKED)
    def on_checked(params):
        client.checked.append(plain(params))  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams):
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def on_lens_refresh(params):
        return None


async def start(client: LanguageClient, root: Path, *, encodings: list[str] | None = None,
                options: dict | None = None, experimental: dict | None = None) -> types.InitializeResult:
    """initialize + initialized, then wait until the first check cycle is done."""
    watch_client(client)
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(encodings, experimental),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
            initialization_options={"debounce_ms": 0, **(options or {})},
        )
    )
    await until(lambda: client.checked, timeout=30, what="the first check cycle")
    return result


def codes(diags) -> list[tuple[str, int]]:
    return sorted((d.code, d.range.start.line) for d in diags)


def cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cairn", *args], cwd=root, capture_output=True, text=True,
                          timeout=120)


def cli_report(root: Path) -> dict:
    out = cli(root, "check", "--format", "json")
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def apply_edits(text: str, edits, encoding: str = "utf-16") -> str:
    """Apply LSP TextEdits (all relative to `text`) as a client would."""
    codec = Codec(encoding)
    idx = LineIndex(text)
    spans = sorted(
        ((idx.from_lsp(codec, e.range.start), idx.from_lsp(codec, e.range.end), e.new_text) for e in edits),
        key=lambda s: (s[0], s[1]),
    )
    out, last = [], 0
    for a, b, new in spans:
        assert a >= last, "overlapping edits"
        out += [text[last:a], new]
        last = b
    out.append(text[last:])
    return "".join(out)


def edits_for(edit: types.WorkspaceEdit, target: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return [e for dc in edit.document_changes if dc.text_document.uri == target for e in dc.edits]
    return list((edit.changes or {}).get(target, []))


def change_all(client: LanguageClient, u: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def change_range(client: LanguageClient, u: str, version: int, line: int, start: int, end: int, text: str) -> None:
    """didChange replacing columns [start, end) of one line (client units) with `text`."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=line, character=start),
                                  end=types.Position(line=line, character=end)),
                text=text,
            )],
        )
    )


def line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines()):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not found")


def units(s: str, encoding: str) -> int:
    return len(s.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(s.encode("utf-8"))
