"""The game registry: one line per game, ``id -> "module:GameClass"``.  Adding a game adds one line here."""

REGISTRY: dict[str, str] = {
    "geier": "ludotheque.games.geier:GeierGame",
    "rummu": "ludotheque.games.rummu:RummuGame",
    "mice": "ludotheque.games.mice:MiceGame",
    "safaru": "ludotheque.games.safaru:SafaruGame",
    "mu": "ludotheque.games.mu:MuGame",
    "calcory": "ludotheque.games.calcory:CalcoryGame",
    "cheese": "ludotheque.games.cheese:CheeseGame",
}
