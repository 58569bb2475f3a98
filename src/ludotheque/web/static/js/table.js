// The table page: joins or watches a table, takes in what its connection (js/socket.js) brings, and draws what the
// seat sees, with the bar, the seats and the event log it shares with the replay (js/tableparts.js).
//
// The server sends {"type": "state", seq, status, view, legal, events}: the seat's own view, its legal moves
// (each {id, notation, move}) and what it saw happen since the last frame.  The page never computes game rules:
// it draws the view with the game's renderer (games/<id>/web/renderer.js) and offers exactly the legal moves.
//
// Nothing one message brings can stop the next: each is handled on its own, at once (a frame is drawn from what it
// carries, without waiting for any request), and a failure is shown as a notice.  Every wait on the network has a
// deadline; while the connection is down the page offers no move, and a move on its way when it drops is given up
// with a notice (the first frame after the reconnection shows whether the server had it).

import {REQUEST_TIMEOUT_MS, api, holdSeat, playerName, playerToken, seatAt, setPlayerName} from "./api.js";
import {board, loadRenderer, makeContext, moveWords} from "./board.js";
import {clear, h} from "./dom.js";
import {currentLang, loadGameCatalog, loadShellCatalog, t} from "./i18n.js";
import {markdown} from "./markdown.js";
import {notifyButton} from "./push.js";
import {createChat} from "./chat.js";
import {createHint} from "./hint.js";
import {createConnection} from "./socket.js";
import {bar, createEventLog, describeEvent, gameTitle, seatList, seatNames} from "./tableparts.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const invite = new URLSearchParams(location.search).get("invite");
const root = document.getElementById("app");

const page = {
  summary: null,     // GET /api/tables/{id}
  games: null,       // GET /api/games (names, options)
  renderer: null,    // the game's module: render(root, ctx), describe(event, ctx)
  held: seatAt(tableId),
  state: null,       // the latest state frame
  log: [],           // every event received, in order
  recent: [],        // the events of the latest frame
  // the connection's state, as js/socket.js keeps it (read here by the page and by the browser tests)
  get socket() { return connection.socket; },
  get live() { return connection.live; },      // its first frame came: only then are moves offered
  get lost() { return connection.lost; },      // it dropped and a new one is being tried
  get pending() { return connection.pending; },  // the client_move_id of a move sent and not yet shown in a frame
  get seenSeq() { return connection.seenSeq; },
  notice: null,      // {kind, key or text, detail}: an error or information line (a key is said in the page's language)
  showRules: false,
  rules: {},         // the rules help by language, once fetched
  closed: null,      // why the connection was closed for good
  // life at the table (the section below draws them)
  clock: null,       // the latest frame's clock, with `at`: when it arrived (performance.now())
  notices: [],       // what happened to the seats, each with `at`: its place in the log
  lastNotice: null,  // the notice line under the status
  confirmLeave: false,
  confirmResign: false,
  copied: false,     // the invite link was copied to the clipboard (said beside its button)
  busy: false,       // a leave, reclaim or rematch request on its way
};

// The chat panel (js/chat.js: one element for the page's life, after the part drawn at every frame) and the coach's
// hints (js/hint.js), fed by the socket's chat and hint messages.
const chat = createChat({tableId, seat: () => mySeat(), names: () => names(), online: () => online(),
  send: sendMessage, myName: () => playerName()});
const hint = createHint({send: sendMessage, redraw: () => draw()});
root.after(chat.element);

// a message that is not a move (a chat line, a hint asked) over the table's socket: false while it is not open
function sendMessage(message) {
  return connection.send(message);
}

async function main() {
  try {
    await loadShellCatalog();
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    page.games = await api("/api/games");
    await loadGameCatalog(page.summary.game);
    page.renderer = await loadRenderer(page.summary.game);
  } catch (error) {
    // a missing table (404), or a server that did not answer: said, with the way back, and nothing else to wait for
    clear(root).append(h("main", {class: "page"},
      h("h1", {}, error.status === 404 ? t("table.missing") : t("network.failed")), h("p", {}, error.message),
      h("a", {href: "/"}, t("nav.lobby"))));
    return;
  }
  if (page.held || page.summary.status !== "waiting" || !page.summary.seats.some((s) => s.kind === "open")) {
    connect();
  }
  draw();
}

// -- the connection (js/socket.js keeps it; the page takes in what it brings) ----------------------------------

// why the server refused the connection for good, by its close code
const REFUSED = {4404: "table.missing", 4401: "table.bad_token", 4403: "table.private"};

const connection = createConnection({
  url: socketUrl,
  message: receive,
  failed: (error) => failed("connection.message_failed", error),
  dropped: ({moveDropped, refused}) => {
    // a move given up with the connection: the next frame shows whether the server had it (the person plays it
    // again if not)
    if (moveDropped) page.notice = {kind: "info", key: "connection.move_dropped"};
    if (refused !== null) page.closed = t(REFUSED[refused]);
  },
  changed: () => draw(),
});

function connect() {
  connection.open();
}

// The table's socket: a seat's token, or else the invite code of a private table's link (a private table is watched
// with one of them); watching, the player's token too: a person who sits at the table chats in the players' room
// from any socket
function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams();
  if (page.held) query.set("token", page.held.token);
  else {
    if (invite) query.set("invite", invite);
    if (playerToken()) query.set("player_token", playerToken());
  }
  const token = query.toString() ? `?${query}` : "";
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${token}`;
}

// One message from the server, taken into the page (the connection has done its part: the page draws after it).
// Never waits: what it needs from the REST API (the summary when the table's status changed) is asked for on the
// side and drawn when it comes.
function receive(message) {
  if (message.type === "chat" || message.type === "chat_history" || (message.type === "error" && message.of === "chat")) {
    chat.receive(message);  // a chat line, or its refusal: nothing to do with a move on its way
    return;
  }
  if (message.type === "hint" || message.type === "error") hint.receive(message);
  if (message.type === "state") {
    lifeFrame(message);
    page.state = message;
    page.recent = message.events;
    page.log.push(...message.events);
    if (page.summary.status !== message.status) refreshSummary();
  } else if (message.type === "ack") {
    page.notice = null;
  } else if (message.type === "error") {
    // the server explains in English: shown as it is to English readers, kept as a tooltip for the others
    page.notice = {kind: "error", key: "error." + message.code, detail: message.message, explain: true};
  }
}

// A message that could not be handled: said in a notice (the error itself as its tooltip), and in the console.
function failed(key, error) {
  console.error(error);
  page.notice = {kind: "error", key, detail: String((error && error.message) || error)};
}

let refreshing = false;

// The table's summary (its status, the creator's seat, the rematch's origin), asked again when a frame says the
// status changed.  A failure is shown, and the next frame asks again.
function refreshSummary() {
  if (refreshing) return;
  refreshing = true;
  api(`/api/tables/${encodeURIComponent(tableId)}`)
    .then((summary) => {
      page.summary = summary;
      if (page.notice && page.notice.refresh) page.notice = null;
    })
    .catch((error) => {
      page.notice = {kind: "error", key: "connection.refresh_failed", detail: error.message, refresh: true};
    })
    .finally(() => {
      refreshing = false;
      draw();
    });
}

// whether a move may be sent now: the connection is open and its frames are the table's
function online() {
  return connection.online();
}

// a move offered (its legal entry, or its notation), sent on the frame it was offered on: the connection draws the
// page again once it is on its way
function play(entry) {
  const state = page.state;
  if (!state || !online() || page.pending) return;
  const legal = typeof entry === "string" ? state.legal.find((m) => m.notation === entry) : entry;
  if (!legal) return;
  connection.move(legal.notation, state.seq);
}

// -- drawing -------------------------------------------------------------------------------------------------

function gameInfo() {
  return gameTitle(page.games, page.summary.game);
}

// the seats as the latest frame has them (it carries their names and kinds), as the summary has them before it
function seats() {
  return (page.state && page.state.seats) || page.summary.seats;
}

function names() {
  return seatNames(seats());
}

// the moves the page offers: the frame's, while the connection is live (a move sent now would be lost)
function offered() {
  return page.state && online() ? page.state.legal : [];
}

function context() {
  const state = page.state;
  return makeContext({
    view: state.view, legal: offered(), help: state.help || null, seat: page.held ? page.held.seat : null, names: names(), status: state.status,
    events: page.log, recent: page.recent, pending: Boolean(page.pending), play,
    redraw: () => draw(),  // for a selection that lives only in the page (a card picked before its target)
  });
}

const SOUND_KEY = "ludotheque.sound";
let wasMyTurn = false;

// "Your turn": the title starts with ●, the icon gets a gold dot, and (if the player asked for it) a short chime
function announceTurn() {
  const mine = isMyTurn();
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (mine && !wasMyTurn && localStorage.getItem(SOUND_KEY) === "on") chime();
  wasMyTurn = mine;
}

function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch { /* no sound on this device */ }
}

// The page drawn again from `page`.  A failure while drawing (a renderer's, say) is shown in a bare page that
// keeps the notice and the way back; the next message draws the whole page again.
function draw() {
  try {
    drawPage();
  } catch (error) {
    console.error(error);
    clear(root).append(h("main", {class: "page"},
      h("p", {class: "notice error", role: "status", "data-test": "notice", title: String(error)},
        t("connection.message_failed")),
      h("a", {href: "/"}, t("nav.lobby"))));
  }
}

function drawPage() {
  const game = gameInfo();
  document.title = `${isMyTurn() ? "● " : ""}${game.name} · ludotheque`;
  announceTurn();
  const keyboard = focusedControl();
  mount([
    header(game),
    page.closed ? h("p", {class: "notice error"}, page.closed) : null,
    page.lost && !page.closed ? h("p", {class: "notice info", role: "status", "data-test": "connection"},
      t("connection.lost")) : null,
    page.notice ? h("p", {class: ["notice", page.notice.kind], role: "status", "data-test": "notice",
      title: page.notice.detail},
      page.notice.key ? t(page.notice.key) : page.notice.text,
      page.notice.explain && page.notice.detail && currentLang() === "en" ? ` ${page.notice.detail}` : "") : null,
    ...(page.state ? tableArea() : [waitingArea()]),
    page.showRules ? rulesPanel() : null,
  ].filter(Boolean));
  refocus(keyboard);
  chat.sync(Boolean(page.state));
  if (page.state) hint.mark(root, page.state.seq);
}

// The page's new elements in `root`; the event log's element, among them, is never taken out of the page: it is a
// live region, and a screen reader reads out only the lines added to it, not a whole new log at every frame.
function mount(nodes) {
  const kept = logView && logView.element;
  for (const child of [...root.childNodes]) if (child !== kept) child.remove();
  const at = nodes.indexOf(kept);
  if (at < 0) {
    if (kept) kept.remove();
    root.append(...nodes);
  } else {
    if (!kept.isConnected) root.append(kept);
    kept.before(...nodes.slice(0, at));
    kept.after(...nodes.slice(at + 1));
  }
}

// The keyboard's place across a redraw: each frame draws the page again, so the control that had the focus is a new
// element.  It is found again by what it does (its move's notation, its test name, its card), or, when it is gone
// (the card just played), the focus goes to the board it was on, from where Tab reaches the next move.
const FOCUS_KEYS = ["notation", "test", "card", "step", "cell"];

function focusedControl() {
  const active = document.activeElement;
  if (!active || active === document.body || !root.contains(active)) return null;
  const key = FOCUS_KEYS.find((name) => active.dataset && active.dataset[name] !== undefined);
  const selector = key ? `[data-${key}="${CSS.escape(active.dataset[key])}"]` : null;
  return {selector, onBoard: Boolean(active.closest(".board")), element: active};
}

function refocus(keyboard) {
  if (!keyboard || keyboard.element.isConnected) return;  // still in the page: it kept the focus
  const again = keyboard.selector && root.querySelector(keyboard.selector);
  if (again && !again.disabled) {
    again.focus({preventScroll: true});
  } else if (keyboard.onBoard) {
    const boardSection = root.querySelector(".board");
    if (boardSection) boardSection.focus({preventScroll: true});
  }
}

function isMyTurn() {
  return Boolean(page.held && offered().length && !page.pending);
}

function header(game) {
  return bar({
    title: [game.name, [game.name, game.catalogName].includes(page.summary.name) ? "" : ` · ${page.summary.name}`],
    controls: [
      h("button", {class: "link", "data-test": "rules", onclick: () => { page.showRules = !page.showRules; draw(); }},
        t("nav.rules")),
      h("button", {class: "link", "data-test": "sound", "aria-pressed": String(localStorage.getItem(SOUND_KEY) === "on"),
        title: t("nav.sound_help"), onclick: () => {
          localStorage.setItem(SOUND_KEY, localStorage.getItem(SOUND_KEY) === "on" ? "off" : "on");
          draw();
        }}, localStorage.getItem(SOUND_KEY) === "on" ? t("nav.sound_on") : t("nav.sound_off")),
    ],
    redraw: draw,
  });
}

function waitingArea() {
  const summary = page.summary;
  const open = summary.seats.some((s) => s.kind === "open");
  const form = h("form", {class: "join", onsubmit: async (event) => {
    event.preventDefault();
    const name = event.target.elements.name.value.trim() || t("seat.guest");
    setPlayerName(name);
    try {
      const joined = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {method: "POST", body: {name, invite}});
      holdSeat(tableId, joined.seat, joined.token, summary.game);
      page.held = seatAt(tableId);
      page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
      connect();
    } catch (error) {
      page.notice = {kind: "error", text: error.message};
    }
    draw();
  }},
    h("label", {}, t("join.name"), h("input", {name: "name", value: playerName(), maxlength: 80, autocomplete: "nickname"})),
    h("button", {type: "submit", class: "primary"}, t("join.take_seat")),
    h("button", {type: "button", onclick: () => { connect(); draw(); }}, t("join.watch")),
  );
  return h("main", {class: "page"},
    inviteFacts(),
    seatsList(null),
    open && !page.held ? form : h("p", {}, t("table.connecting")));
}

// the seats (js/tableparts.js), each with who is here, "you", whose turn it is, who left and the clocks; a name is a
// link to the page of the account seated there
function seatsList(view) {
  const toAct = view ? view.to_act : [];
  const seat = mySeat();
  return seatList({names: names(), toAct, me: seat, accounts: seats().map((s) => s && s.account),
    before: seatPresence,
    after: (index) => [index === seat ? h("span", {class: "you"}, t("seat.you")) : null,
      toAct.includes(index) ? h("span", {class: "turn-dot", title: t("status.to_act")}, "●") : null,
      seatAway(index), seatClock(index)]});
}

function statusLine(state) {
  const view = state.view;
  if (state.status === "waiting") return t("status.waiting");
  if (view.terminal) return t("status.over");
  if (page.pending) return t("status.sending");
  if (!online()) return t("status.offline");
  if (state.legal.length) return t("status.your_turn");
  const waiting = view.to_act.map((i) => names()[i]);
  const bots = view.to_act.every((i) => seats()[i].kind === "bot");
  if (!waiting.length) return t("status.moving_on");
  return bots ? t("status.bots_thinking", {names: waiting.join(", ")}) : t("status.waiting_for", {names: waiting.join(", ")});
}

function tableArea() {
  const state = page.state;
  const ctx = context();
  const drawn = board(page.renderer, page.summary.game, ctx);
  return [
    h("main", {class: "table-page"},
      h("p", {class: ["status", isMyTurn() && "mine"], role: "status", "data-test": "status"}, statusLine(state)),
      tableFacts(),
      seatsList(state.view),
      noticeLine(),
      awayBar(),
      hint.bar(Boolean(page.summary.hints) && isMyTurn(), state.seq, (notation) => {
        // the hint's moves named as their buttons are (the legal entry carries the structured move)
        const entry = ctx.legal.find((e) => e.notation === notation);
        return moveWords(page.renderer, ctx, entry ? entry.move : null, notation);
      }),
      state.status === "waiting" ? (page.summary.rematch_of ? rematchWaiting() : inviteBox()) : null,
      drawn,
      state.view.terminal ? endPanel(ctx) : null),
    eventLog(ctx),
    h("div", {class: "table-foot"}, leaveControl()),
  ];
}

// What an invitee reads before taking a seat: who invites them, to which game, on what terms, and who sits where.
function inviteFacts() {
  const summary = page.summary;
  const game = gameInfo();
  const host = summary.creator_seat === null ? null : summary.seats[summary.creator_seat];
  const options = Object.entries(summary.options || {}).filter(([name]) => name !== "hands").map(([name, value]) => {
    const label = t(`${summary.game}.option.${name}`);
    const shown = typeof value === "boolean" ? t(value ? "invite.yes" : "invite.no") : String(value);
    return h("li", {}, t("invite.option", {name: label === `${summary.game}.option.${name}` ? name : label, value: shown}));
  });
  const clock = summary.clock;
  const terms = !clock ? t("invite.no_clock") : clock.days
    ? t(clock.days === 1 ? "clock.correspondence.one" : "clock.correspondence.other", {days: clock.days})
    : t("clock.terms", {move: clockText(clock.move), reserve: clockText(clock.reserve)});
  return h("section", {class: "invite-facts", "data-test": "invite-facts"},
    h("h1", {}, host && host.name ? t("invite.from", {name: host.name, game: game.name}) : t("invite.to", {game: game.name})),
    h("p", {"data-test": "invite-terms"}, [t(summary.rated ? "invite.rated" : "invite.unrated"), terms,
      t("invite.players", {n: summary.players})].join(" · ")),
    options.length ? h("ul", {class: "options", "data-test": "invite-options"}, options) : null);
}

function copyLink(url) {
  if (!navigator.clipboard) return;
  navigator.clipboard.writeText(url).then(() => { page.copied = true; draw(); },
    () => { page.notice = {kind: "error", key: "invite.copy_failed"}; draw(); });
}

function inviteBox() {
  const url = `${location.origin}/tables/${tableId}${invite ? `?invite=${invite}` : ""}`;
  const creator = page.held && page.summary.creator_seat === page.held.seat;
  return h("div", {class: "invite"},
    h("p", {}, t("invite.send")),
    h("input", {readonly: true, value: url, "aria-label": t("invite.link"), onclick: (e) => e.target.select()}),
    h("button", {"data-test": "copy", onclick: () => copyLink(url)}, t("invite.copy")),
    page.copied ? h("span", {class: "copied", role: "status", "data-test": "copied"}, t("invite.copied")) : null,
    creator ? h("button", {class: "primary", "data-test": "start", onclick: async () => {
      try {
        page.summary = await api(`/api/tables/${tableId}/start`, {method: "POST", token: page.held.token});
      } catch (error) { page.notice = {kind: "error", text: error.message}; }
      draw();
    }}, t("invite.start_with_bots")) : null);
}

// The event log (js/tableparts.js): one element for the page's life, a polite live region whose lines are added as
// frames bring them, the seats' notices among the events; made with the first frame, once the catalogs are in.
let logView = null;

function eventLog(ctx) {
  if (!logView) logView = createEventLog({live: true});
  return logView.show({events: page.log, recent: page.recent, names: ctx.names,
    describe: (event) => describeEvent(page.renderer, event, ctx),
    notices: page.notices.map((notice) => ({at: notice.at, kind: notice.kind, text: noticeText(notice)}))});
}

function endPanel(ctx) {
  const view = ctx.view;
  const winners = view.winners || [];
  const actions = h("div", {class: "actions"},
    afterGame(),
    h("a", {href: `/api/tables/${tableId}/record`, download: `${page.summary.game}-${tableId}.json`}, t("end.record")));
  if (page.renderer.summary) {
    // a game whose result is not a ranking (a solo game's rating) says it itself; if its summary fails, the
    // ranking below still shows the end
    try {
      return h("section", {class: "end", "data-test": "end"}, page.renderer.summary(ctx), ratingChanges(true), actions);
    } catch (error) {
      console.error(error);
    }
  }
  const changes = page.state.rating_changes;
  const rows = names().map((name, index) => h("tr", {class: winners.includes(index) ? "winner" : null},
    h("td", {}, name), h("td", {class: "num"}, view.returns ? String(view.returns[index]) : ""),
    h("td", {}, winners.includes(index) ? t("end.winner") : ""),
    changes ? h("td", {class: "num", "data-rating-change": index}, ratingChange(index)) : null));
  return h("section", {class: "end", "data-test": "end"},
    h("h2", {}, winners.length ? t("end.winners", {names: winners.map((i) => names()[i]).join(", ")}) : t("end.no_winner")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("end.player")), h("th", {class: "num"}, t("end.points")),
      h("th", {}, ""), changes ? h("th", {class: "num"}, t("end.rating")) : null)), h("tbody", {}, rows)),
    ratingChanges(),
    actions);
}

// A seat's rating change at a rated table ("+12", "−8"), marked while the rating is provisional; "" for a bot's seat
function ratingChange(index) {
  const changes = page.state.rating_changes;
  const change = changes && changes[String(index)];
  if (change === undefined || change === null) return "";
  const text = change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "±0";
  const provisional = (page.state.rating_provisional || {})[String(index)];
  return provisional ? `${text} ${t("ratings.provisional")}` : text;
}

// the rating changes said in words: under the ranking table, the reader's own; under a game's own summary (which
// draws no ranking table, so no column of changes), every seat's, each change marked by its seat
function ratingChanges(everySeat = false) {
  const changes = page.state && page.state.rating_changes;
  if (!changes || !Object.keys(changes).length) return null;
  const seat = mySeat();
  if (everySeat) {
    const parts = [];
    for (const i of Object.keys(changes)) {
      if (parts.length) parts.push(" · ");
      parts.push(`${names()[Number(i)]} `, h("span", {"data-rating-change": i}, ratingChange(Number(i))));
    }
    return h("p", {class: "rating-changes", "data-test": "rating-changes"}, ...parts);
  }
  const line = seat !== null && changes[String(seat)] !== undefined
    ? t("end.your_rating", {change: ratingChange(seat)})
    : Object.keys(changes).map((i) => `${names()[Number(i)]} ${ratingChange(Number(i))}`).join(" · ");
  return h("p", {class: "rating-changes", "data-test": "rating-changes"}, line);
}

function rulesPanel() {
  const lang = currentLang();
  const body = h("div", {class: "rules-body"});
  const text = page.rules[lang];
  if (text === undefined) {
    body.textContent = t("rules.loading");
    page.rules[lang] = null;  // asked once; drawn again when it comes
    fetch(`/games/${page.summary.game}/web/rules.${lang}.md`, {signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)})
      .then((r) => (r.ok ? r.text() : ""))
      .catch(() => "")  // not there in time: said as missing, the page goes on
      .then((source) => { page.rules[lang] = source; draw(); });
  } else if (text === null) {
    body.textContent = t("rules.loading");
  } else if (text === "") {
    body.textContent = t("rules.missing");
  } else {
    body.innerHTML = markdown(text);
  }
  return h("aside", {class: "rules", role: "dialog", "aria-label": t("nav.rules")},
    h("button", {class: "close", onclick: () => { page.showRules = false; draw(); }}, t("nav.close")), body);
}

// -- life at the table: who is here, the clocks, what happened to the seats, leaving, the rematch ---------------
//
// The frame's `seats` (connected, away), `clock` (each seat's time when the frame was built), `notices` (what
// happened to the seats since the previous frame) and `rematch` are the server's: the deadlines live there.  The
// page only counts the running clock down between two frames, so that a second passes on screen as at the table.

const CLOCK_TICK_MS = 250;  // fine enough that a clock never shows a second late by more than a quarter
let clockTimer = null;

function lifeFrame(message) {
  // the running seat's `left` counts down from the moment the frame arrived
  page.clock = message.clock ? {...message.clock, at: performance.now()} : null;
  if (page.clock && clockTimer === null) clockTimer = setInterval(tickClocks, CLOCK_TICK_MS);
  // each notice comes once to a connection (a new connection gets only the later ones)
  for (const notice of message.notices || []) {
    page.notices.push({...notice, at: page.log.length});
    page.lastNotice = notice;
  }
}

function mySeat() { return page.held ? page.held.seat : null; }

function frameSeat(index) {
  return (page.state && page.state.seats && page.state.seats[index]) || null;
}

// a bot plays this person's seat for good; the frame knows first, the summary until a frame comes
function isAway(index) {
  const seat = frameSeat(index);
  if (seat) return Boolean(seat.away);
  const summarized = page.summary.seats[index];
  return Boolean(summarized && summarized.away);
}

function seatPresence(index) {
  const seat = frameSeat(index);
  if (!seat || seat.kind !== "human") return null;  // a bot is always there, an open seat has no one
  const label = t(seat.connected ? "presence.connected" : "presence.disconnected", {name: names()[index]});
  return h("span", {class: ["presence", seat.connected ? "on" : "off"], "data-presence": index, role: "img",
    "aria-label": label, title: label});
}

function seatAway(index) {
  const seat = frameSeat(index);
  if (!seat || seat.kind !== "human" || !seat.away) return null;
  const you = index === mySeat();
  const key = seat.departure ? `departure.${seat.departure}${you ? "_you" : ""}` : you ? "presence.away_you" : "presence.away";
  return h("span", {class: "away", "data-away": index, "data-departure": seat.departure || ""},
    t(key, {name: names()[index]}));
}

// -- the clocks: drawn with the seats, then only their text and classes change, once a tick for the whole page

function secondsLeft(index) {
  const seat = page.clock && page.clock.seats && page.clock.seats[index];
  if (!seat) return null;
  const spent = seat.running ? (performance.now() - page.clock.at) / 1000 : 0;
  return Math.max(0, seat.left - spent);
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);  // 0:00 only once the time is really out
  // a game by correspondence counts days and hours, then hours and minutes
  if (whole >= 86400) return t("clock.days_left", {days: Math.floor(whole / 86400), hours: Math.floor(whole % 86400 / 3600)});
  if (whole >= 3600) {
    return t("clock.hours_left", {hours: Math.floor(whole / 3600), minutes: String(Math.floor(whole % 3600 / 60)).padStart(2, "0")});
  }
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function seatClock(index) {
  const seconds = secondsLeft(index);
  // bots are not timed (nor a seat a bot plays for good), and an open seat has no one to time
  if (seconds === null || seats()[index]?.kind !== "human" || isAway(index)) return null;
  const element = h("span", {"data-clock": index, role: "timer"});
  paintClock(element, index, seconds);
  return element;
}

function paintClock(element, index, seconds) {
  const seat = page.clock.seats[index];
  // the move time spent, what is left is the seat's reserve: drawn apart, as a chess clock's increment is not
  const inReserve = seconds <= seat.reserve;
  const urgent = seat.running && index === mySeat() && seconds < 10;
  const classes = ["clock", seat.running && "running", inReserve && "reserve", urgent && "urgent"]
    .filter(Boolean).join(" ");
  const text = clockText(seconds);
  // only what changed is touched: a redraw of the seats under the finger would swallow a click
  if (element.textContent !== text) element.textContent = text;
  if (element.getAttribute("class") !== classes) element.setAttribute("class", classes);
  const title = t(inReserve ? "clock.in_reserve" : "clock.move_time", {name: names()[index]});
  if (element.title !== title) element.title = title;
}

function tickClocks() {
  if (!page.clock) return;
  for (const element of root.querySelectorAll("[data-clock]")) {
    const index = Number(element.dataset.clock);
    const seconds = secondsLeft(index);
    if (seconds !== null) paintClock(element, index, seconds);
  }
}

// the table's terms, under the status: its clock and whether it is rated
function tableFacts() {
  const facts = [];
  const clock = page.summary.clock;
  if (clock && clock.days) {
    facts.push(t(clock.days === 1 ? "clock.correspondence.one" : "clock.correspondence.other", {days: clock.days}));
  } else if (clock) {
    const profile = clock.profile ? t(`clock.profile.${clock.profile}`) : null;
    facts.push(t("clock.terms", {move: clockText(clock.move), reserve: clockText(clock.reserve)}) +
      (profile && profile !== `clock.profile.${clock.profile}` ? ` (${profile})` : ""));
  }
  if (page.summary.rated) facts.push(t("seat.rated"));
  return [facts.length ? h("p", {class: "table-facts", "data-test": "facts"}, facts.join(" · ")) : null,
    correspondenceNotify()];
}

// At a game by correspondence, a seated person may ask to be told when it is their turn (push.js), never asked on
// load: the button asks the browser's permission.
function correspondenceNotify() {
  const clock = page.summary.clock;
  if (!clock || !clock.days || !page.held || !["waiting", "playing"].includes(page.summary.status)) return null;
  return notifyButton({tableId, token: page.held.token}, () => draw());
}

// -- what happened to the seats: a line under the status and lines in the event log

function noticeText(notice) {
  const name = names()[notice.seat] || "?";
  const key = {timeout: "clock.timeout", takeover: "presence.takeover", left: "presence.left",
    resign: "presence.resigned", reclaim: "presence.reclaim"}[notice.kind];
  return key ? t(key, {name}) : `${notice.kind} (${name})`;
}

function noticeLine() {
  const notice = page.lastNotice;
  if (!notice || (page.state && page.state.view.terminal)) return null;
  return h("p", {class: ["notice", "life", notice.kind], role: "status", "data-test": "life-notice"},
    noticeText(notice));
}

// -- leaving the table and taking the seat back

function playing() {
  return Boolean(page.state && page.state.status === "playing" && !page.state.view.terminal);
}

// a person whose seat a bot plays: told so at the top, with the way back when the table allows it
function awayBar() {
  const seat = mySeat();
  if (seat === null || !playing() || !isAway(seat)) return null;
  return h("div", {class: "away-bar", "data-test": "away"},
    h("p", {}, t(frameSeat(seat)?.departure === "resigned" ? "presence.you_resigned" : "presence.you_are_away")),
    page.summary.reclaim && frameSeat(seat)?.departure !== "resigned" ? h("button", {class: "primary", "data-test": "reclaim", disabled: page.busy,
      onclick: () => seatRequest("reclaim")}, t("seat.reclaim")) : null);
}

// at the foot of the page, away from the moves: leaving asks twice
function leaveControl() {
  const seat = mySeat();
  if (seat === null || !playing() || isAway(seat)) return null;
  if (page.confirmResign) {
    return h("div", {class: "leave confirm", role: "group"},
      h("p", {}, t(page.summary.rated ? "seat.resign_confirm_rated" : "seat.resign_confirm")),
      h("button", {class: "danger", "data-test": "resign-confirm", disabled: !online(),
        onclick: () => { page.confirmResign = false; sendMessage({type: "resign"}); draw(); }}, t("seat.resign_yes")),
      h("button", {"data-test": "resign-cancel", onclick: () => { page.confirmResign = false; draw(); }},
        t("seat.leave_no")));
  }
  if (!page.confirmLeave) {
    return h("div", {class: "leave"},
      h("button", {"data-test": "resign", onclick: () => { page.confirmResign = true; draw(); }}, t("seat.resign")),
      h("button", {"data-test": "leave", onclick: () => { page.confirmLeave = true; draw(); }}, t("seat.leave")));
  }
  return h("div", {class: "leave confirm", role: "group"},
    h("p", {}, t("seat.leave_confirm")),
    h("button", {class: "danger", "data-test": "leave-confirm", disabled: page.busy,
      onclick: () => seatRequest("leave")}, t("seat.leave_yes")),
    h("button", {"data-test": "leave-cancel", onclick: () => { page.confirmLeave = false; draw(); }},
      t("seat.leave_no")));
}

// Leaving the page of a rated game in play (closing it, following a link) asks first: the game goes on without the
// person, and a bot taking their seat for good would count as a loss.
window.addEventListener("beforeunload", (event) => {
  const seat = mySeat();
  if (seat === null || !page.summary || !page.summary.rated || !playing() || isAway(seat)) return;
  event.preventDefault();
  event.returnValue = "";  // the browser says it in its own words: a page's text is no longer shown
});

async function seatRequest(kind) {
  page.busy = true;
  draw();
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/${kind}`, {method: "POST", token: page.held.token});
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    page.notice = null;
  } catch (error) {
    page.notice = {kind: "error", text: error.message};
  }
  page.busy = false;
  page.confirmLeave = false;
  draw();
}

// -- after the game: the rematch for the seated, a new game for the spectators, the replay for everyone

function afterGame() {
  const seat = mySeat();
  const replay = h("a", {class: "button", "data-test": "replay",
    href: `/tables/${encodeURIComponent(tableId)}/replay${seat === null ? "" : `?seat=${seat}`}`}, t("end.replay"));
  if (seat === null) return [h("a", {class: "button primary", href: "/", "data-test": "new-game"}, t("end.new_game")), replay];
  return [rematchOffer(seat), replay];
}

function rematchOffer(seat) {
  const offer = (page.state && page.state.rematch) || null;
  const button = (label) => h("button", {class: "primary", "data-test": "rematch", disabled: page.busy,
    onclick: rematch}, label);
  if (!offer) return button(t("rematch.offer"));
  if (offer.accepted.includes(seat)) {
    // accepted from this browser earlier (or another tab): the new table is waiting for the others
    return h("a", {class: "button primary", "data-test": "rematch-go", href: `/tables/${encodeURIComponent(offer.table_id)}`},
      t("rematch.go"));
  }
  const declined = offer.declined || [];
  const who = offer.accepted.map((i) => names()[i]).join(", ");
  if (declined.includes(seat)) {
    return h("span", {class: "rematch-offer", "data-test": "rematch-declined"}, t("rematch.you_declined"));
  }
  return h("span", {class: "rematch-offer", "data-test": "rematch-offer"},
    who ? t("rematch.proposed", {names: who}) : t("rematch.open"), " ", button(t("rematch.accept")), " ",
    h("button", {"data-test": "rematch-decline", disabled: page.busy, onclick: declineRematch}, t("rematch.decline")),
    declined.length ? h("span", {class: "declined"}, " ",
      t("rematch.declined", {names: declined.map((i) => names()[i]).join(", ")})) : null);
}

async function declineRematch() {
  page.busy = true;
  draw();
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/rematch/decline`, {method: "POST", token: page.held.token});
  } catch (error) {
    page.notice = {kind: "error", text: error.message};
  }
  page.busy = false;
  draw();
}

// a rematch's table waits for the people of the previous game (their seats kept for them), not for an invite link;
// whoever offered it may start without them, bots taking the seats not taken
function rematchWaiting() {
  const waiting = seats().filter((s) => s.kind === "invited").map((s) => s.name).join(", ");
  const declined = seats().filter((s) => s.kind === "declined").map((s) => s.name).join(", ");
  const creator = page.held && page.summary.creator_seat === page.held.seat;
  return h("div", {class: "invite", "data-test": "rematch-waiting"},
    declined ? h("p", {class: "notice info", role: "status", "data-test": "rematch-declined"},
      t("rematch.declined", {names: declined})) : null,
    h("p", {}, waiting ? t("rematch.waiting", {names: waiting}) : declined ? "" : t("table.connecting")),
    creator ? h("button", {"data-test": "start", disabled: page.busy, onclick: async () => {
      try {
        page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}/start`, {method: "POST", token: page.held.token});
      } catch (error) { page.notice = {kind: "error", text: error.message}; }
      draw();
    }}, t("rematch.start_now")) : null);
}

// one POST offers the rematch or accepts it: the answer is this person's seat at the new table, seats rotated
async function rematch() {
  page.busy = true;
  draw();
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {method: "POST", token: page.held.token});
    holdSeat(made.table_id, made.seat, made.token, page.summary.game);
    location.href = `/tables/${encodeURIComponent(made.table_id)}`;
  } catch (error) {
    page.busy = false;
    page.notice = {kind: "error", text: error.message};
    draw();
  }
}

window.ludotheque = page;  // for the browser tests: the latest frame and the log, as the page holds them
main();
