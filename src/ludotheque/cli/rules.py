"""The rules of a game, readable from inside the terminal game (``rules`` at the move prompt).

Each game keeps its rules help in its folder, ``games/<id>/web/rules.<lang>.md``, written in the project's own
words from the rulebook; the browser shows the same text.
"""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown

from ludotheque.games import game_class


def rules_markdown(game_id: str, lang: str = "en") -> str:
    """The rules help of ``game_id`` in ``lang`` (``en``, ``fr`` or ``de``) as Markdown."""
    package = game_class(game_id).__module__.rpartition(".")[0]
    return resources.files(package).joinpath("web", f"rules.{lang}.md").read_text(encoding="utf-8")


def rules_text(game_id: str, lang: str = "en") -> Markdown:
    return Markdown(rules_markdown(game_id, lang))
