"""Answers from models and evidence for claims: JSON answers (`json_answers`), `cairn ask` (`ask`),
`cairn cite` (`cite`) and ranked evidence for a claim (`evidence`).

May import: `report`, `judge`, `verify` and the floors below them.
"""
