"""The language server (SPEC section 8); server.py holds the wiring."""
