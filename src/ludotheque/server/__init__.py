"""The table server: lobby, seats, bots and live play over WebSocket, durable on SQLite or PostgreSQL.

It runs every game through the engine protocol and knows none by name.  The server owns the truth: every action
(a person's move, a bot's move, a chance outcome drawn from a cryptographic source) is committed to the database
before it is acknowledged, and acknowledged before it is shown to anyone; each connection is sent frames built
from its own seat's view and events only (``docs/server.md``).
"""
