"""Judges: who decides whether quotes support a claim (`providers`), and the HTTP client of an
OpenAI-compatible endpoint (`client`).

May import: everything below it (`verify` and its floors).
"""
