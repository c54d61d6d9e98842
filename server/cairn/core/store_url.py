"""Which libpq parameters a workspace's own `[store] url` may carry.

libpq acts on many of its connection parameters before it has spoken to the
server: `sslkeylogfile` appends TLS secrets to any file, `passfile`, `sslcert`,
`sslkey`, `sslrootcert` and `sslcrl` read files, `service` and `options` bring
in other settings. A cloned workspace could name any of them, so a URL that only
the workspace's `cairn.toml` names may carry only where to connect and how
securely: host, port, database, user and sslmode. Every other parameter comes
from the user alone (CAIRN_STORE_URL, the editor setting cairn.store.url)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlparse

ALLOWED = frozenset({"host", "port", "dbname", "user", "sslmode"})

# keyword/value form: key = value, the value bare or in single quotes (with \' and \\)
_PAIR = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)")


def conninfo_keys(url: str) -> list[str]:
    """The names of the libpq parameters `url` sets (URI or keyword/value form); a
    password in a URI's user part counts as `password`."""
    text = url.strip()
    if text.startswith(("postgresql://", "postgres://")):
        parsed = urlparse(text)
        keys: list[str] = []
        netloc = parsed.netloc
        if "@" in netloc:
            userinfo = netloc.rsplit("@", 1)[0]
            keys.append("user")
            if ":" in userinfo:
                keys.append("password")
        if netloc.rsplit("@", 1)[-1]:
            keys.append("host")
        if parsed.path.strip("/"):
            keys.append("dbname")
        keys += [k for k, _ in parse_qsl(parsed.query, keep_blank_values=True)]
        return keys
    keys = []
    pos = 0
    while pos < len(text):
        m = _PAIR.match(text, pos)
        if m is None or m.end() == pos:
            keys.append(text[pos:].split("=", 1)[0].strip() or "?")  # not a parameter: refused by name
            break
        keys.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return keys


def workspace_refusal(url: str) -> str | None:
    """The first parameter a workspace's own store URL may not carry, or None."""
    for key in conninfo_keys(url):
        if key not in ALLOWED:
            return key
    return None
