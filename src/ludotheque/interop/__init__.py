"""Research interop: every registered game in PettingZoo, Gymnasium and OpenSpiel (``pip install ludotheque[rl]``).

- ``ludotheque.interop.pettingzoo.env(game_id, players=..., **options)``: a PettingZoo AEC environment;
- ``ludotheque.interop.gymnasium``: importing it registers ``ludotheque/<game>-v0`` single-agent environments in
  which our bots hold the other seats;
- ``ludotheque.interop.openspiel.register()``: every game as the OpenSpiel Python game ``python_ludotheque_<game>``.

The adapters know no game by name: they find games through ``ludotheque.game_ids()`` and ``load_game``.  The
submodules import their library, so this package stays importable without the ``rl`` extra.  See
``docs/interop.md``.
"""
