"""A lone surrogate (``\\ud800``) is valid JSON but no text: in chat or a ``client_move_id`` it is answered
``malformed`` and the connection goes on (read on, it would fail wherever it is encoded, and the socket with it).  The
relayed path is in ``test_site.py`` (``test_a_lone_surrogate_is_malformed_through_a_relay``)."""

from __future__ import annotations

from tests.server.client import Client, create_table

from ludotheque.server.process import ServerProcess

RAW = ['{"type": "chat", "text": "hi \\ud800"}', '{"type": "chat", "text": "\\udfff"}',
       '{"type": "move", "move": "%s", "client_move_id": "\\ud83dx", "after_seq": %d}',
       '{"type": "hello", "last_seq": 0, "x": "\\udc00"}']


def lone_surrogates_leave_the_socket_open(client: Client) -> None:
    """Each message with a lone surrogate is refused ``malformed``; then the same socket chats and moves."""
    state = client.hello()
    while not state["legal"]:  # the deal (chance) comes first
        state = client.next("state")
    for raw in RAW:
        client.send(raw % (state["legal"][0]["notation"], state["seq"]) if "%" in raw else raw)
        error = client.next("error")
        assert error["code"] == "malformed" and "surrogate" in error["message"], error
    client.send({"type": "chat", "text": "still here 😀"})
    assert client.next("chat")["text"] == "still here 😀"
    client.send({"type": "move", "move": state["legal"][0]["notation"], "client_move_id": "after",
                 "after_seq": state["seq"]})
    assert client.next("ack")["client_move_id"] == "after"


def test_a_lone_surrogate_is_malformed_and_the_socket_stays_open(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"])
    client = Client(server.ws_url, created["table_id"], created["token"])
    try:
        lone_surrogates_leave_the_socket_open(client)
    finally:
        client.close()
