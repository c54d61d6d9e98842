"""Readings kept between runs, in the user's cache folder.

Parsing a sentence costs about 5 ms, and loading the parser about a second:
a re-check of a draft, a second clone of the same sources, or CI checking
the same text again would pay both for readings it already made. Each
reading is kept, keyed by its text and by what made it, in one SQLite file
outside every workspace (`$XDG_CACHE_HOME/cairn/readings/readings.db`,
else `~/.cache/cairn/...`), so a run whose texts were all read before does
not load the parser at all.

- The key is the SHA-256 of the text together with the reader's identity:
  the pinned model's version and weights and the source of the code that
  turns a parse into a reading (`build.py`, `model.py`). A change to any of
  them makes every kept reading a stranger, never read again.
- Each row carries a MAC under this machine's key (cairn.store.provenance,
  handed in by `use`, since the reader stands below the store): a row that
  was not written by Cairn on this machine is ignored and the text is parsed
  again. Nothing a workspace ships is read here.
- Nothing is kept until `use` names the folder and the MAC (the verifier does
  when it is made): a process that only reads sentences keeps nothing.
- A row that does not decode into a reading is ignored the same way; losing
  the file (deleted, damaged, unwritable folder) only costs parsing again.
- At most `MAX_ROWS` readings are kept: past that, the oldest tenth goes.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import json
import logging
import sqlite3
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import pipeline
from .model import Clause, Quantifier, Quantity, Reading, Restriction, Token

log = logging.getLogger(__name__)

FOLDER = "readings"
FILE = "readings.db"
MAX_ROWS = 200_000
_FLUSH_AT = 256  # readings waiting to be written before they are

_lock = threading.RLock()
_conn: sqlite3.Connection | None = None
_closed = False  # the file could not be opened: nothing is kept this process
_ident: bytes | None = None
_waiting: list[tuple[bytes, bytes, bytes]] = []
_folder: Path | None = None
_mac: Callable[[bytes], bytes] | None = None


def use(folder: Path | None, mac: Callable[[bytes], bytes]) -> None:
    """Keep readings in `folder` (the user's cache folder for Cairn; None: keep none), each row
    under `mac` (a keyed MAC of its bytes). Once a process: a second call changes nothing."""
    global _folder, _mac
    with _lock:
        if _mac is None:
            _folder, _mac = (folder / FOLDER if folder is not None else None), mac


def _same(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)


def identity() -> bytes:
    """What made a reading: the model pinned and the code that builds a reading from a parse."""
    global _ident
    if _ident is None:
        h = hashlib.sha256(b"cairn-reading 1\0" + pipeline.VERSION.encode())
        for rel, digest in sorted(pipeline.WEIGHTS.items()):
            h.update(f"\0{rel}={digest}".encode())
        here = Path(__file__).resolve().parent
        for name in ("build.py", "model.py"):
            try:
                h.update(b"\0" + (here / name).read_bytes())
            except OSError:
                h.update(b"\0?")  # an installed build without its sources: keyed by the version alone
        _ident = h.digest()
    return _ident


def _key(text: str) -> bytes:
    return hashlib.sha256(identity() + b"\0" + text.encode("utf-8", "surrogatepass")).digest()


def _open() -> sqlite3.Connection | None:
    global _conn, _closed
    if _conn is not None or _closed:
        return _conn
    where = _folder
    if where is None or _mac is None:
        _closed = True
        return None
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        conn = sqlite3.connect(str(where / FILE), timeout=5, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA trusted_schema=OFF")
        conn.execute("CREATE TABLE IF NOT EXISTS readings (key BLOB PRIMARY KEY, body BLOB NOT NULL,"
                     " mac BLOB NOT NULL) WITHOUT ROWID")
        conn.execute("CREATE TABLE IF NOT EXISTS kept (n INTEGER PRIMARY KEY AUTOINCREMENT, key BLOB NOT NULL)")
    except (OSError, sqlite3.Error) as e:
        log.info("readings are not kept between runs: %s", e)
        _closed = True
        return None
    _conn = conn
    atexit.register(flush)
    return conn


def encode(r: Reading) -> bytes:
    body = [r.text, [list(_row(t)) for t in r.tokens], [list(s) for s in r.sentences],
            [[c.predicate, c.lemma, c.negation, c.modality, c.modal, list(c.subjects), list(c.objects),
              list(c.tokens)] for c in r.clauses],
            [[list(q.tokens), q.shown, q.value, q.measures, list(q.bound)] for q in r.quantities],
            [[x.target, x.kind, list(x.tokens), x.shown] for x in r.restrictions],
            [[x.word, x.noun, x.universal] for x in r.quantifiers],
            [list(k) for k in r.kids]]
    return zlib.compress(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def _row(t: Token) -> tuple[Any, ...]:
    return (t.i, t.text, t.lemma, t.pos, t.tag, t.dep, t.head, t.start, t.end, t.ent, t.sent)


def _ints(xs: Any) -> tuple[int, ...]:
    out = tuple(int(x) for x in xs)
    return out


def decode(blob: bytes) -> Reading:
    """The reading `encode` wrote; ValueError (or TypeError) when the bytes are not one."""
    text, tokens, sentences, clauses, quantities, restrictions, quantifiers, kids = json.loads(
        zlib.decompress(blob).decode("utf-8"))
    toks = tuple(Token(int(i), str(tx), str(lemma), str(pos), str(tag), str(dep), int(head), int(s), int(e),
                       str(ent), int(sent))
                 for i, tx, lemma, pos, tag, dep, head, s, e, ent, sent in tokens)
    return Reading(
        str(text), toks,
        tuple((int(a), int(b)) for a, b in sentences),
        tuple(Clause(int(p), str(lemma), str(neg), str(mod), str(modal), _ints(subj), _ints(obj), _ints(tk))
              for p, lemma, neg, mod, modal, subj, obj, tk in clauses),
        tuple(Quantity(_ints(tk), str(shown), str(value), None if measures is None else int(measures), _ints(bound))
              for tk, shown, value, measures, bound in quantities),
        tuple(Restriction(int(target), str(kind), _ints(tk), str(shown)) for target, kind, tk, shown in restrictions),
        tuple(Quantifier(int(w), int(n), bool(u)) for w, n, u in quantifiers),
        tuple(_ints(k) for k in kids))


def get(text: str) -> Reading | None:
    """The reading kept for `text` (NFKC already), or None."""
    with _lock:
        conn = _open()
        if conn is None or _mac is None:
            return None
        key = _key(text)
        mac_of = _mac
        try:
            row = conn.execute("SELECT body, mac FROM readings WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as e:
            log.info("the kept readings cannot be read: %s", e)
            return None
    if row is None:
        return None
    body, mac = bytes(row[0]), bytes(row[1])
    if not _same(mac, mac_of(key + body)):
        return None
    try:
        got = decode(body)
    except (ValueError, TypeError, zlib.error, UnicodeDecodeError):
        return None
    return got if got.text == text else None


def put(text: str, reading: Reading) -> None:
    """Keep a reading (written with the next flush)."""
    mac_of = _mac
    if mac_of is None or _closed:
        return
    key = _key(text)
    body = encode(reading)
    row = (key, body, mac_of(key + body))
    with _lock:
        _waiting.append(row)
        if len(_waiting) >= _FLUSH_AT:
            flush()


def flush() -> None:
    """Write the readings waiting, and drop the oldest when there are too many."""
    with _lock:
        if not _waiting:
            return
        conn = _open()
        rows = list(_waiting)
        _waiting.clear()
        if conn is None:
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT OR REPLACE INTO readings (key, body, mac) VALUES (?, ?, ?)", rows)
            conn.executemany("INSERT INTO kept (key) VALUES (?)", [(r[0],) for r in rows])
            count = conn.execute("SELECT count(*) FROM readings").fetchone()[0]
            if count > MAX_ROWS:
                cut = conn.execute("SELECT n FROM kept ORDER BY n LIMIT 1 OFFSET ?", (MAX_ROWS // 10,)).fetchone()
                if cut is not None:
                    conn.execute("DELETE FROM readings WHERE key IN (SELECT key FROM kept WHERE n < ?)", (cut[0],))
                    conn.execute("DELETE FROM kept WHERE n < ?", (cut[0],))
            conn.execute("COMMIT")
        except sqlite3.Error as e:
            log.info("the readings were not kept: %s", e)
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
