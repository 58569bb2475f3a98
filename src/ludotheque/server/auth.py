"""Who a request comes from, read once for every route: a seat's token (``Authorization: Bearer TOKEN``) and a
player's session token (``X-Player-Token: TOKEN``).  The routes decide what each token may do."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header

from ludotheque.server.errors import Refusal

#: the refusal of an ``Authorization`` header that is not a bearer token
MALFORMED_AUTHORIZATION = "Authorization must be 'Bearer TOKEN'"
#: a player token longer than any the server makes is refused before it is looked up
PLAYER_TOKEN_MAX = 200


def seat_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """A seat's token from ``Authorization: Bearer TOKEN`` (``None`` without the header; 401 when malformed)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal(401, MALFORMED_AUTHORIZATION)
    return token.strip()


def player_token(
    x_player_token: Annotated[str | None, Header(description="a player's session token")] = None,
) -> str:
    """The player's session token, which the route needs (401 without it)."""
    if not x_player_token:
        raise Refusal(401, "this request needs the header X-Player-Token")
    return x_player_token


#: ``Authorization: Bearer TOKEN``, when given
SeatTokenDep = Annotated[str | None, Depends(seat_token)]
#: ``X-Player-Token``, required
PlayerTokenDep = Annotated[str, Depends(player_token)]
#: ``X-Player-Token``, when given: the player a request comes from (without it, a route may make a guest)
OptionalPlayerTokenDep = Annotated[str | None, Header(alias="X-Player-Token", max_length=PLAYER_TOKEN_MAX)]
