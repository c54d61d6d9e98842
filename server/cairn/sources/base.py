"""What every source parser shares: the error a parser raises on a file it cannot read.

The parsers (text, html, pdf) import it from here, and the package re-exports it, so that the
package can pick a parser without the parsers importing the package back."""

from __future__ import annotations


class SourceError(Exception):
    """A source that cannot be read or parsed; the message says why."""
