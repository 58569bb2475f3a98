"""The tables of the database (SQLAlchemy Core).  The migrations in ``migrations/`` create them.

``actions`` is the append-only log: one row per applied action, keyed by (table, seq).  A table is restored by
applying its rows in order; nothing else holds game state.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

#: ``actor`` of a chance action in the ``actions`` table (seats are 0..n-1)
CHANCE_ACTOR = -1

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("name", String(80), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("invite", String(64), nullable=True),
    Column("status", String(16), nullable=False),  # waiting, playing, finished, expired, cancelled
    Column("default_bot", String(64), nullable=False),
    Column("creator_seat", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
    #: when a waiting table was last opened (summary read, seat taken, connection made); it expires unopened
    Column("opened_at", Float, nullable=True),
    #: ``{"profile": NAME | null, "move": SECONDS, "reserve": SECONDS}``, or null for a table without a clock
    Column("clock", JSON, nullable=True),
    #: per seat ``{"reserve": SECONDS, "timeouts": N}`` as it stood when the current turn began (``live.Clock``)
    Column("clock_state", JSON, nullable=True),
    Column("rated", Boolean, nullable=False, default=False),
    #: whether a person whose seat a bot took may take it back
    Column("reclaim", Boolean, nullable=False, default=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),  # the table offered as this one's rematch
    Column("finished_at", Float, nullable=True),
    #: ``{"returns": [...], "winners": [...]}`` once the game is over, for lists that do not replay the game
    Column("result", JSON, nullable=True),
    #: whether a seat may ask the coach for a move (``{"type": "hint"}``); such a table is never rated
    Column("hints", Boolean, nullable=False, default=False),
    #: ``player:ID`` (the token's player) or ``address:IP``: the tables waiting or in play count against it
    #: (``Settings.tables_per_creator``); null for the tables made before it was kept
    Column("created_by", String(80), nullable=True),
    #: the lobby lists tables by status
    Index("ix_game_tables_status", "status"),
    Index("ix_game_tables_created_by_status", "created_by", "status"),
)

#: People: guests (a name and a token) and accounts (a user name, an argon2 password hash, or neither and only
#: login links).  A guest becomes an account by taking a user name; its id, and so its games, stay.
players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("username", String(40), nullable=True, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("preferences", JSON, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: A player's secrets, by SHA-256 digest: ``session`` tokens (one per device) and one-time login ``link`` codes.
player_tokens = Table(
    "player_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("kind", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=True),
)

#: OpenSkill ratings per game.  ``rater`` is ``player:<id>`` or ``bot:<level>``.
ratings = Table(
    "ratings",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("rater", String(64), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

#: Each rated game's rating of each rater seated (``ratings.py``): the value shown before and after it, and the
#: OpenSkill mu and sigma after it, for a player's chart and the change an end box shows.
rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(32), nullable=False),
    Column("rater", String(64), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("before", Integer, nullable=False),
    Column("after", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_history_rater", "rater", "game", "at"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open, human, bot
    Column("name", String(80), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("bot", String(120), nullable=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True, index=True),
    #: a bot plays this person's seat for good (they left, or their time ran out again and again)
    Column("away", Boolean, nullable=False, default=False),
    #: how the person left the seat a bot plays: ``resigned``, ``left`` or ``timeout`` (gone too long, or out of
    #: time again and again); ``NULL`` while they hold it
    Column("departure", String(8), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("notation", Text, nullable=False),
    Column("client_move_id", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("table_id", "actor", "client_move_id", name="uq_actions_client_move"),
)

#: The coach's review of one seat's decisions at a finished table (``docs/coach.md``), kept once computed.
reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", JSON, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: What people said at a table (``live/chat.py``): the players' room (``seat`` the speaker's) and the spectators'
#: room (``seat`` null, ``name`` the one a spectator gave, if any); ``seq``, the table's seq when it was said, places
#: it in the replay.  Plain text, at most 300 characters.
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("game_tables.id"), nullable=False),
    Column("room", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(80), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("seq", Integer, nullable=False),
    Index("ix_chat_messages_table_room", "table_id", "room", "id"),
)

#: The Web Push subscriptions of browsers (``push.py`` sends, ``store/push.py`` keeps them): a seat's or a player's,
#: each with the keys the messages are encrypted for.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    #: ``seat:TABLE:N`` or ``player:ID``
    Column("owner", String(80), primary_key=True),
    Column("endpoint", Text, primary_key=True),
    #: the browser's public key (uncompressed P-256 point) and auth secret, base64url
    Column("p256dh", String(100), nullable=False),
    Column("auth", String(40), nullable=False),
    #: the page's language when it subscribed: the message is written in it
    Column("lang", String(2), nullable=False),
    Column("created_at", Float, nullable=False),
)

#: The fencing number of a table held by a node of a site (``Store.take_fence``): the node that takes the table's
#: lease raises it; a commit of the table's log with another number writes nothing.
table_fences = Table(
    "table_fences",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("fence", Integer, nullable=False),
)
