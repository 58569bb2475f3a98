"""The game registry: one line per game, ``id -> "module:GameClass"``.  Adding a game adds one line here."""

REGISTRY: dict[str, str] = {
    "geier": "ludotheque.games.geier:GeierGame",
    "cheese": "ludotheque.games.cheese:CheeseGame",
    "mice": "ludotheque.games.mice:MiceGame",
    "mu": "ludotheque.games.mu:MuGame",
    "rummu": "ludotheque.games.rummu:RummuGame",
    "calcory": "ludotheque.games.calcory:CalcoryGame",
    "safaru": "ludotheque.games.safaru:SafaruGame",
}
