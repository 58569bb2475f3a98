"""Message catalogs and rules help: every language says the same things (no key missing from any catalogue), and
French reads as French."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ludotheque.games import game_class, game_ids
from ludotheque.server.pages import game_web_folder
from ludotheque.web import STATIC

#: The languages of the pages, as static/js/i18n.js lists them
LANGUAGES = ("fr", "en", "de")

#: French typography: no plain space before ! ? ; : or », nor after « (a no-break space, U+00A0 or U+202F)
BAD_FRENCH_SPACE = re.compile(r" [!?;:»]|« ")


def french_typography_errors(texts: dict[str, str]) -> list[str]:
    return [f"{key}: {text!r}" for key, text in texts.items() if BAD_FRENCH_SPACE.search(text)]


def missing_keys(catalogs: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """For each language, the keys another language has and it lacks."""
    every = set().union(*catalogs.values())
    return {lang: sorted(every - set(texts)) for lang, texts in catalogs.items() if every - set(texts)}


def test_the_shell_catalogs_match_and_read_as_french() -> None:
    catalogs = {lang: json.loads((STATIC / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
                for lang in LANGUAGES}
    assert missing_keys(catalogs) == {}
    assert missing_keys({"fr": {"a": "x", "b": "y"}, "de": {"a": "x"}}) == {"de": ["b"]}  # what the check finds
    assert all(text.strip() for texts in catalogs.values() for text in texts.values())
    fr = catalogs["fr"]
    assert french_typography_errors(fr) == []
    assert french_typography_errors({"ok": "À vous de jouer\u202f!"}) == []
    assert french_typography_errors({"bad": "À vous de jouer !"}) != []


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_speaks_every_language(game_id: str) -> None:
    folder = game_web_folder(game_id)
    messages = json.loads((folder / "messages.json").read_text(encoding="utf-8"))
    assert set(messages) == set(LANGUAGES)
    assert missing_keys(messages) == {}
    fr = messages["fr"]
    assert all(key.startswith(f"{game_id}.") for key in fr), "a game's keys carry its id"
    required = {f"{game_id}.game.name", f"{game_id}.game.description"}
    for option in game_class(game_id).option_specs:
        if option.name != "hands":  # a cap for tools, not offered at a table
            required.add(f"{game_id}.option.{option.name}")
    assert required <= set(fr), sorted(required - set(fr))
    assert french_typography_errors(fr) == []
    for lang in LANGUAGES:
        rules = (folder / f"rules.{lang}.md").read_text(encoding="utf-8")
        assert rules.startswith("#") and len(rules) > 800, f"{game_id}'s rules help in {lang}"
    assert french_typography_errors({"rules.fr.md": (folder / "rules.fr.md").read_text(encoding="utf-8")}) == []
    assert (folder / "renderer.js").is_file() and (folder / "picture.svg").is_file()


def test_the_terminal_shows_the_same_rules() -> None:
    from ludotheque.cli.rules import rules_markdown

    assert rules_markdown("geier", "fr") == (game_web_folder("geier") / "rules.fr.md").read_text(encoding="utf-8")
    assert Path(STATIC / "page.html").is_file()
