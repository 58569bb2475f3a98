"""The ids and secrets the database hands out, and the digest it keeps of a secret instead of the secret itself
(seats' tokens, players' sessions and login codes alike): a copy of the database lets nobody act for anyone."""

from __future__ import annotations

import hashlib
import secrets


def new_id() -> str:
    return secrets.token_urlsafe(9)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
