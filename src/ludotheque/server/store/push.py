"""The push subscriptions in the database: what a browser's ``PushManager`` gave, kept for a seat
(``seat:TABLE:N``) or a player (``player:ID``), read back when a turn is told and forgotten when its push service
drops it.  ``server/push.py`` sends the messages; these are the plain synchronous calls it runs in its threads.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from sqlalchemy import Connection, Engine, and_, delete, insert, select

from ludotheque.server.schema import push_subscriptions
from ludotheque.server.store.writer import write

#: subscriptions kept per seat or player (a person's browsers); the oldest goes past it
PER_OWNER = 10


def subscribe(engine: Engine, owners: list[str], endpoint: str, p256dh: str, auth: str, lang: str) -> None:
    """Keep the subscription for each of ``owners`` (again: its keys are replaced), and at most ``PER_OWNER`` each."""

    def keep(db: Connection) -> None:
        now = time.time()
        for owner in owners:
            db.execute(delete(push_subscriptions).where(and_(push_subscriptions.c.owner == owner,
                                                             push_subscriptions.c.endpoint == endpoint)))
            db.execute(insert(push_subscriptions).values(owner=owner, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                                         lang=lang, created_at=now))
            kept = db.execute(select(push_subscriptions.c.endpoint).where(push_subscriptions.c.owner == owner)
                              .order_by(push_subscriptions.c.created_at.desc())).scalars().all()
            for old in kept[PER_OWNER:]:
                db.execute(delete(push_subscriptions).where(and_(push_subscriptions.c.owner == owner,
                                                                 push_subscriptions.c.endpoint == old)))

    write(engine, keep)


def subscriptions(engine: Engine, owners: Iterable[str]) -> list[dict[str, str]]:
    """The subscriptions of ``owners``, once each endpoint."""
    with engine.connect() as db:
        rows = db.execute(select(push_subscriptions).where(push_subscriptions.c.owner.in_(list(owners)))
                          .order_by(push_subscriptions.c.created_at)).mappings().all()
    by_endpoint = {row["endpoint"]: {"endpoint": row["endpoint"], "p256dh": row["p256dh"], "auth": row["auth"],
                                     "lang": row["lang"]} for row in rows}
    return list(by_endpoint.values())


def forget(engine: Engine, endpoint: str) -> None:
    """The push service dropped this subscription (404, 410): it goes, whoever it was kept for."""
    write(engine, lambda db: db.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint)))
