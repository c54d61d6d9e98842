"""Meaning rules over the sentence reader's structure (`cairn.reading`), each
a rule of English comparing a claim's reading with its quote's sentence:

- `relation`: a quantity or an entity bound to another argument than in the
  quote, or two arguments with each other's roles (`relation-mismatch`);
- `limits`: a universal claim from a restricted quote, a modality changed
  between must and may (`context-limits`);
- `scope`: a clause negated on one side only, read with its true scope;
- `retraction`: a retraction right after the quote (`this is not the case`).

Plain Python (outside the native build: the reader it reads is not compiled).
"""
