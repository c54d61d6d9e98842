"""What the snapshots hold (index.snapshots), as `cairn index` reports it: a size line (the
snapshots compressed, the source bytes they hold, the index beside them), and the snapshots
found unusable on the way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.terminal import safe
from ..index.snapshots import human_size
from .common import _err

if TYPE_CHECKING:
    from ..index.workspace import Workspace


def report_snapshots(ws: Workspace) -> None:
    count, disk, raw = ws.snapshots.size()
    where = safe(ws.snapshots.where)
    if count:
        ratio = f", {raw / disk:.1f}x smaller" if disk and raw > disk else ""
        if ws.store.keeps_snapshots:
            tail = "kept in the database with the versions"
        else:
            from ..store import store_size

            index = store_size(ws.root)
            tail = (f"the index beside them {human_size(index)}; " if index else "") + \
                "commit the snapshots, the index is a cache"
        click.echo(f"snapshots: {count} version(s) in {where}, {human_size(disk)} compressed"
                   f" ({human_size(raw)} of source bytes{ratio}); {tail}", err=True)
    else:
        click.echo(f"snapshots: none in {where} yet", err=True)
    for name, why in sorted(ws.snapshots.bad.items()):
        _err(f"warning: {safe(ws.snapshots.shelf.label(name))}: ignored, never used as evidence: {why}")
