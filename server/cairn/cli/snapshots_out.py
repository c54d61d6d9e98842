"""What the snapshots hold (index.snapshots), as `cairn index` reports it: a size line, and the
snapshots found unusable on the way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..index.snapshots import SNAPSHOT_DIR, human_size
from ..store import STORE_DIR
from .common import _err

if TYPE_CHECKING:
    from ..index.workspace import Workspace


def report_snapshots(ws: Workspace) -> None:
    count, disk, raw = ws.snapshots.size()
    where = f"{STORE_DIR}/{SNAPSHOT_DIR}/"
    if count:
        ratio = f", {raw / disk:.1f}x smaller" if disk and raw > disk else ""
        click.echo(f"snapshots: {count} version(s) in {where}, {human_size(disk)} on disk"
                   f" ({human_size(raw)} of source bytes{ratio}); commit them, the index is a cache", err=True)
    else:
        click.echo(f"snapshots: none in {where} yet", err=True)
    for name, why in sorted(ws.snapshots.bad.items()):
        _err(f"warning: {where}{name}: ignored, never used as evidence: {why}")
