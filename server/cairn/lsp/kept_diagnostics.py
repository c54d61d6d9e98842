"""A draft's first diagnostics kept in the index across server starts.

The first check of an open draft since its folder was made (a start, a reopened workspace) whose
claims' verdicts are all final (stored.Stored.wanted: none the judge would still be asked about)
writes what it published to the store's verdict cache: the draft's own diagnostics as they were
sent, and for `citation-reuse` each citation's span and claim (the draft's entries in the span
index) with the range its warning would be on. The entry's key is the claims' (stored.py: the
command line's fingerprint of the workspace, what only the server's checks differ by, the draft's
path) over the draft's whole text, its URI, the folder's root, the client's position encoding and
whether the editor's text has an encoding problem: an edit, a source changed or indexed again, a
changed setting or configuration, another encoding or another place all make another key.

A server started again reads the entry of the text the editor opens as soon as its folder is
indexed and publishes it at once, without parsing the draft or reading a claim's verdict back;
the `citation-reuse` warnings are asked of the span index as it is then, as every publication
asks it. The draft is then checked as before (its full state: hover, lenses, actions), and that
check's diagnostics are published only when they differ from the ones sent. A SQLite store
signs each entry with this machine's key (docs/security.md): an entry edited, copied under
another key or brought from another machine is not read, and the draft is checked as without it.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..engine.reuse import Span, Use

FORMAT = "1"  # the layout of an entry; entries of another are not read

Probe = tuple[Span, Use, types.Range, bool]  # lsp/reuse.probes: span, claim, warning's range, ignored


@functools.cache
def _converter() -> Any:
    from lsprotocol.converters import get_converter

    return get_converter()


@dataclass(frozen=True)
class Kept:
    """An entry read back: the draft's own diagnostics and its citations' probes of the span index."""

    diagnostics: list[types.Diagnostic]
    probes: list[Probe]
    text: str  # the entry as stored (a check publishing the same writes nothing)
    where: tuple[str, bytes] = ("", b"")  # the fingerprint and key data it was read under

    @property
    def uses(self) -> list[tuple[Span, Use]]:
        """The draft's entries in the span index (lsp/reuse.uses_of of the state they were kept from)."""
        return [(span, use) for span, use, _, _ in self.probes]


def key_data(uri: str, root: Path, encoding: str, encoding_problem: bool, text: str) -> bytes:
    """What of a check the entry depends on beyond the fingerprint and the path, as bytes for the key."""
    head = json.dumps([FORMAT, uri, str(root), encoding, bool(encoding_problem)])
    return head.encode("utf-8", "surrogatepass") + b"\0" + text.encode("utf-8", "surrogatepass")


def dump(own: list[types.Diagnostic], probes: list[Probe]) -> str:
    c = _converter()
    return json.dumps({
        "format": FORMAT,
        "diagnostics": c.unstructure(own, list[types.Diagnostic]),
        "probes": [[span[0], span[1], span[2], use.line, use.text, c.unstructure(rng, types.Range), ignored]
                   for span, use, rng, ignored in probes],
    }, separators=(",", ":"))


def load(text: str, rel: str) -> Kept | None:
    """An entry of the draft at `rel` read back, or None when it cannot be (another format, damage)."""
    c = _converter()
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        diagnostics = c.structure(data["diagnostics"], list[types.Diagnostic])
        probes: list[Probe] = []
        for chunk_id, start, end, line, claim, rng, ignored in data["probes"]:
            if not (isinstance(chunk_id, str) and isinstance(start, int) and isinstance(end, int)
                    and isinstance(line, int) and isinstance(claim, str) and isinstance(ignored, bool)):
                return None
            probes.append(((chunk_id, start, end), Use(rel, line, claim), c.structure(rng, types.Range), ignored))
        return Kept(diagnostics, probes, text)
    except Exception:  # noqa: BLE001 - an entry that does not read back (cattrs raises its own kinds) is none
        return None
