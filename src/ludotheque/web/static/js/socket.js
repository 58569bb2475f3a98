// The table's connection: one WebSocket to /ws/tables/<id> at a time, opened again after a drop, resumed where the
// page's frames stopped, and the bookkeeping of the person's move on its way.  The table page (table.js) draws; this
// module never does: it tells the page what came and what happened, and the page draws after each.
//
// The protocol (docs/server.md): on opening, {"type": "hello", last_seq} asks for the frames after the last one the
// page has, so a new connection loses and repeats no event.  A move {"type": "move", move, client_move_id, after_seq}
// is answered by an ack (the seq of the frame that will include it) or an error; it stays pending until that frame.
//
// Every wait on the network has a deadline: a socket that opens and brings no frame, or a move neither acknowledged
// nor refused, is treated as a dropped connection, so the page never waits for good.  While the connection is down
// no move may be sent; a move on its way when it drops is given up, never sent again on its own: the first frame of
// the next connection shows whether the server had it, and the person decides with what they see.

// How long the connection waits (ms) before it treats the socket as broken and opens a new one: for a socket to open
// and bring its first frame, and for a move's answer (an ack or an error); how long it waits at most between two
// attempts.  A server that stalls is then handled as one that dropped.
const CONNECT_TIMEOUT_MS = 10000;
const MOVE_TIMEOUT_MS = 10000;
const RETRY_MAX_MS = 5000;

// the close codes by which the server refuses the connection for good (no such table, a bad token, a private table
// without its invite): opening it again would be refused again
const REFUSED = new Set([4404, 4401, 4403]);

// A connection to the table at `url()` (asked at each attempt: a join changes the token it carries).  The page is
// told through:
//   message(message)   each message from the server, parsed, after the connection's own bookkeeping (live-ness,
//                      the pending move); what it throws goes to failed(error)
//   failed(error)      a message that could not be handled: the next one is handled as usual
//   dropped({moveDropped, refused})   the connection is over: moveDropped when a move on its way was given up
//                      unacknowledged; refused: the close code when the server refused for good (no new attempt),
//                      else null (a new attempt comes after a pause that grows with each failed one)
//   changed()          after each of the above, and after a move is sent: the page draws again
export function createConnection({url, message, failed, dropped, changed}) {
  const connection = {
    socket: null,    // the WebSocket the page listens to (null while none is open or opening)
    live: false,     // the socket is open and has brought its first frame: only then may a move be sent
    lost: false,     // the connection dropped and a new one is being tried (cleared by its first frame)
    pending: null,   // the client_move_id of a move sent and not yet shown in a frame
    ackedSeq: null,  // the seq its ack named: the frame that includes it clears ``pending``
    seenSeq: 0,      // the seq of the latest frame: a new connection's hello asks for the frames after it
    open,
    online,
    send,
    move,
  };
  let retry = 0;
  let retryTimer = null;
  let connectTimer = null;
  let moveTimer = null;

  // (re)open the connection: one at a time, so a spectator's is replaced by the seat's after a join
  function open() {
    clearTimeout(retryTimer);
    retryTimer = null;
    forget(connection.socket);
    const socket = new WebSocket(url());
    connection.socket = socket;
    connection.live = false;
    clearTimeout(connectTimer);
    connectTimer = setTimeout(() => lose(socket, null), CONNECT_TIMEOUT_MS);
    socket.onopen = () => {
      if (socket !== connection.socket) return;
      socket.send(JSON.stringify({type: "hello", last_seq: connection.seenSeq}));
    };
    // each message is handled at once and on its own: one that fails is said, and the next is handled as usual
    socket.onmessage = (event) => {
      if (socket !== connection.socket) return;  // a socket given up on may still deliver: it is not the table any more
      try {
        receive(JSON.parse(event.data));
      } catch (error) {
        failed(error);
      }
      changed();
    };
    socket.onclose = (event) => lose(socket, event.code);
  }

  // The connection `socket` is over (closed with `code`, or given up on with null): no move may be sent until the
  // next one brings a frame, which opens after a pause that grows with each failed attempt, unless the server
  // refused it for good.
  function lose(socket, code) {
    if (socket !== connection.socket) return;
    forget(socket);
    connection.socket = null;
    connection.live = false;
    // the move may or may not have reached the server: it is not sent again (see the top of this file)
    const moveDropped = Boolean(connection.pending && connection.ackedSeq === null);
    clearPending();  // an acknowledged move shows in the first frame of the next connection
    const refused = REFUSED.has(code) ? code : null;
    if (refused === null) connection.lost = true;
    dropped({moveDropped, refused});
    changed();
    if (refused === null) retryTimer = setTimeout(open, Math.min(RETRY_MAX_MS, 500 * 2 ** retry++));
  }

  // a socket the connection no longer listens to, closed (a stalled one may never say it closed: nothing waits for it)
  function forget(socket) {
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = null;
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
    clearTimeout(connectTimer);
  }

  function receive(data) {
    if (data.type === "state" && !connection.live) {
      // the first frame of this connection: the table is live again
      connection.live = true;
      connection.lost = false;
      retry = 0;
      clearTimeout(connectTimer);
    }
    message(data);
    if (data.type === "state") {
      connection.seenSeq = data.seq;
      // the move stays pending until a frame that includes it: the frame before it still offers the old moves;
      // a finished game answers no move any more
      if (connection.pending && ((connection.ackedSeq !== null && data.seq >= connection.ackedSeq) ||
          (data.view && data.view.terminal))) {
        clearPending();
      }
    } else if (data.type === "ack") {
      if (data.client_move_id === connection.pending) {
        if (connection.seenSeq >= data.seq) clearPending();  // the frame that includes it came first
        else connection.ackedSeq = data.seq;
      }
    } else if (data.type === "error" && data.of !== "chat") {
      clearPending();  // a refused move, or a refusal of the connection's: a chat line's refusal is the chat's
    }
  }

  function clearPending() {
    connection.pending = null;
    connection.ackedSeq = null;
    clearTimeout(moveTimer);
  }

  // whether a message may be sent now: the connection is open and its frames are the table's
  function online() {
    return Boolean(connection.live && connection.socket && connection.socket.readyState === WebSocket.OPEN);
  }

  // a message that is not a move (a chat line, a hint asked, a resignation): false while the connection is down
  function send(data) {
    if (!online()) return false;
    connection.socket.send(JSON.stringify(data));
    return true;
  }

  // The move `notation`, chosen on the frame `afterSeq`: sent unless the connection is down or a move is already on
  // its way; true when it was.  It is pending until the frame that includes it (or an error).
  function move(notation, afterSeq) {
    if (!online() || connection.pending) return false;
    const id = (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
    const socket = connection.socket;
    connection.pending = id;
    connection.ackedSeq = null;
    clearTimeout(moveTimer);
    // a move the server neither acknowledges nor refuses in time: the connection is taken as broken, and the move
    // is given up with it: the page never stays on "sending" for good
    moveTimer = setTimeout(() => { if (connection.pending === id) lose(socket, null); }, MOVE_TIMEOUT_MS);
    socket.send(JSON.stringify({type: "move", move: notation, client_move_id: id, after_seq: afterSeq}));
    changed();
    return true;
  }

  return connection;
}
