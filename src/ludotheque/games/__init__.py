"""The game registry: one line per game, ``id -> "module:GameClass"``.  Adding a game adds one line here."""

REGISTRY: dict[str, str] = {
    "geier": "ludotheque.games.geier:GeierGame",
    "cheese": "ludotheque.games.cheese:CheeseGame",
}
