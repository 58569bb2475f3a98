"""The coach's words for people (``docs/coach.md``): every kind of move of every game named, in French and in
English, by the game's renderer (``moveName``) as its buttons name it, never by the notation or a catalogue key;
and the moments the coach gives read from the catalogues."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.bots.moments import moment
from ludotheque.core import sample_chance
from ludotheque.games import game_ids, load_game
from ludotheque.server.process import ServerProcess


def examples(game_id: str) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """One legal move of each kind met in a few random games (structured, notation), and the moments seen."""
    players = {"mu": 4, "rummu": 3}.get(game_id, 2)
    found: dict[tuple[str, bool], dict[str, Any]] = {}
    moments: list[list[dict[str, Any]]] = []
    for seed in range(3):
        state = load_game(game_id, players=players).new_initial_state()
        rng = random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_players()[0]
            for action in state.legal_actions(seat):
                move = state.action_to_json(action, seat)
                found.setdefault((move["type"], move.get("from") == "table"),
                                 {"move": move, "notation": state.action_to_string(action, seat)})
            if len(moments) < 40:
                moments.append(moment(game_id, state.view(seat)))
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return list(found.values()), moments


SAY = """async ([game, lang, moves, moments]) => {
  const i18n = await import("/static/js/i18n.js");
  const board = await import("/static/js/board.js");
  i18n.setLang(lang);
  await i18n.loadShellCatalog();
  await i18n.loadGameCatalog(game);
  const renderer = await import(`/games/${game}/web/renderer.js`);
  const names = ["Ana", "Bo", "Cy", "Di"];
  const ctx = board.makeContext({view: {players: 4, table: {}}, seat: 0, names});
  return [moves.map((m) => board.moveWords(renderer, ctx, m.move, m.notation)),
          moments.map((parts) => board.momentWords(parts))];
}"""


def test_every_move_and_moment_reads_in_words(page: Any, web_server: ServerProcess) -> None:
    page.goto(f"{web_server.url}/")
    for game_id in game_ids():
        moves, moments = examples(game_id)
        for lang in ("fr", "en"):
            words, said = page.evaluate(SAY, [game_id, lang, moves, moments])
            for example, text in zip(moves, words, strict=True):
                where = f"{game_id} ({lang}) {example['notation']!r}: {text!r}"
                assert text and text != example["notation"], where
                assert "{" not in text and "undefined" not in text and f"{game_id}." not in text, where
            for parts, text in zip(moments, said, strict=True):
                assert text and "{" not in text and "review." not in text and f"{game_id}." not in text, (parts, text)
