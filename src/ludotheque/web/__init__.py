"""The web shell: the lobby and table pages, shared styles, scripts and message catalogs (no build step).

Each game's own web furniture (its renderer, its rules help in French and English, its messages and picture)
lives in ``games/<id>/web/``; the server serves both (``ludotheque.server.pages``).
"""

from pathlib import Path

STATIC = Path(__file__).with_name("static")
