// The table page: joins or watches a table, keeps one WebSocket to the server, and draws what the seat sees.
//
// The server sends {"type": "state", seq, status, view, legal, events}: the seat's own view, its legal moves
// (each {id, notation, move}) and what it saw happen since the last frame.  The page never computes game rules:
// it draws the view with the game's renderer (games/<id>/web/renderer.js) and offers exactly the legal moves.

import {api, holdSeat, playerName, seatAt, setPlayerName} from "./api.js";
import {clear, h} from "./dom.js";
import {currentLang, loadGameCatalog, loadShellCatalog, setLang, t} from "./i18n.js";
import {markdown} from "./markdown.js";

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
  socket: null,
  pending: null,     // the client_move_id of a move sent and not yet shown in a frame
  ackedSeq: null,    // the seq its ack named: the frame that includes it clears ``pending``
  notice: null,      // {kind, text}: an error or information line
  showRules: false,
  rules: {},         // the rules help by language, once fetched
  closed: null,      // why the connection was closed for good
  seenSeq: 0,
};

async function main() {
  await loadShellCatalog();
  try {
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    clear(root).append(h("main", {class: "page"}, h("h1", {}, t("table.missing")), h("p", {}, error.message),
      h("a", {href: "/"}, t("nav.lobby"))));
    return;
  }
  page.games = await api("/api/games");
  await loadGameCatalog(page.summary.game);
  page.renderer = await loadRenderer(page.summary.game);
  if (page.held || page.summary.status !== "waiting" || !page.summary.seats.some((s) => s.kind === "open")) {
    connect();
  }
  draw();
}

async function loadRenderer(gameId) {
  if (new URLSearchParams(location.search).get("renderer") === "fallback") return await import("/static/js/fallback.js");
  try {
    return await import(`/games/${gameId}/web/renderer.js`);
  } catch {
    return await import("/static/js/fallback.js");  // a game without its own renderer stays playable
  }
}

// -- the connection ------------------------------------------------------------------------------------------

let retry = 0;
let inbox = Promise.resolve();

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const token = page.held ? `?token=${encodeURIComponent(page.held.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${token}`);
  page.socket = socket;
  socket.onopen = () => {
    retry = 0;
    socket.send(JSON.stringify({type: "hello", last_seq: page.seenSeq}));
  };
  // one message at a time, in order: a frame may wait for the table's summary before it is drawn
  socket.onmessage = (message) => { inbox = inbox.then(() => receive(JSON.parse(message.data))); };
  socket.onclose = (event) => {
    page.socket = null;
    if (event.code === 4404 || event.code === 4401) {
      page.closed = t(event.code === 4404 ? "table.missing" : "table.bad_token");
      draw();
      return;
    }
    page.notice = {kind: "info", text: t("connection.lost")};
    draw();
    setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
  };
}

async function receive(message) {
  if (message.type === "state") {
    if (page.summary.status !== message.status) {
      page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);  // names and bots, before drawing
    }
    page.state = message;
    page.recent = message.events;
    page.log.push(...message.events);
    page.seenSeq = message.seq;
    // the move stays pending until a frame that includes it: the frame before it still offers the old moves
    if (page.pending && page.ackedSeq !== null && message.seq >= page.ackedSeq) {
      page.pending = null;
      page.ackedSeq = null;
    }
  } else if (message.type === "ack") {
    if (message.client_move_id === page.pending) {
      if (page.state && page.state.seq >= message.seq) page.pending = null;
      else page.ackedSeq = message.seq;
    }
    page.notice = null;
  } else if (message.type === "error") {
    page.pending = null;
    page.ackedSeq = null;
    // the server explains in English: shown as it is to English readers, kept as a tooltip for the others
    page.notice = {kind: "error", text: t("error." + message.code), detail: message.message};
  }
  draw();
}

function play(entry) {
  const state = page.state;
  if (!state || !page.socket || page.pending) return;
  const legal = typeof entry === "string" ? state.legal.find((m) => m.notation === entry) : entry;
  if (!legal) return;
  const id = (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
  page.pending = id;
  page.ackedSeq = null;
  page.socket.send(JSON.stringify({type: "move", move: legal.notation, client_move_id: id, after_seq: state.seq}));
  draw();
}

// -- drawing -------------------------------------------------------------------------------------------------

function gameInfo() {
  const game = page.games.find((g) => g.id === page.summary.game) || {name: page.summary.game};
  const key = `${page.summary.game}.game.name`;
  return {...game, catalogName: game.name, name: t(key) === key ? game.name : t(key)};
}

function botName(spec, index) {
  const level = t(`level.${spec}`);
  return t("seat.bot_at", {level: level === `level.${spec}` ? spec : level, n: index + 1});
}

function names() {
  return page.summary.seats.map((s, i) => (s.kind === "bot" ? botName(s.name, i) : s.name || t("seat.open")));
}

function context() {
  const state = page.state;
  const seat = page.held ? page.held.seat : null;
  return {
    h, t, lang: currentLang(), seat, names: names(), view: state.view, legal: state.legal, status: state.status,
    events: page.log, recent: page.recent, pending: Boolean(page.pending), play,
    myTurn: seat !== null && state.legal.length > 0 && !page.pending,
    redraw: () => draw(),  // for a selection that lives only in the page (a card picked before its target)
    find: (test) => state.legal.find((entry) => test(entry.move)),
    findAll: (test) => state.legal.filter((entry) => test(entry.move)),
  };
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

function draw() {
  const game = gameInfo();
  document.title = `${isMyTurn() ? "● " : ""}${game.name} · ludotheque`;
  announceTurn();
  clear(root).append(...[
    header(game),
    page.closed ? h("p", {class: "notice error"}, page.closed) : null,
    page.notice ? h("p", {class: ["notice", page.notice.kind], role: "status", title: page.notice.detail},
      page.notice.text, page.notice.detail && currentLang() === "en" ? ` ${page.notice.detail}` : "") : null,
    page.state ? tableArea() : waitingArea(),
    page.showRules ? rulesPanel() : null,
  ].filter(Boolean));
}

function isMyTurn() {
  return Boolean(page.state && page.held && page.state.legal.length && !page.pending);
}

function header(game) {
  const other = currentLang() === "fr" ? "en" : "fr";
  return h("header", {class: "bar"},
    h("a", {href: "/", class: "home"}, "ludotheque"),
    h("span", {class: "title"}, game.name,
      [game.name, game.catalogName].includes(page.summary.name) ? "" : ` · ${page.summary.name}`),
    h("span", {class: "spacer"}),
    h("button", {class: "link", "data-test": "rules", onclick: () => { page.showRules = !page.showRules; draw(); }},
      t("nav.rules")),
    h("button", {class: "link", "data-test": "sound", "aria-pressed": String(localStorage.getItem(SOUND_KEY) === "on"),
      title: t("nav.sound_help"), onclick: () => {
        localStorage.setItem(SOUND_KEY, localStorage.getItem(SOUND_KEY) === "on" ? "off" : "on");
        draw();
      }}, localStorage.getItem(SOUND_KEY) === "on" ? t("nav.sound_on") : t("nav.sound_off")),
    h("button", {class: "link", "data-test": "lang", onclick: () => { setLang(other); draw(); }},
      other.toUpperCase()),
  );
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
    seatsList(null),
    open && !page.held ? form : h("p", {}, t("table.connecting")));
}

function seatsList(view) {
  const toAct = view ? view.to_act : [];
  const seat = page.held ? page.held.seat : null;
  return h("ol", {class: "seats", "aria-label": t("table.seats")},
    names().map((name, index) => h("li", {class: ["seat", toAct.includes(index) && "to-act", index === seat && "me"]},
      h("span", {class: "name"}, name), index === seat ? h("span", {class: "you"}, t("seat.you")) : null,
      toAct.includes(index) ? h("span", {class: "turn-dot", title: t("status.to_act")}, "●") : null)));
}

function statusLine(state) {
  const view = state.view;
  if (state.status === "waiting") return t("status.waiting");
  if (view.terminal) return t("status.over");
  if (page.pending) return t("status.sending");
  if (state.legal.length) return t("status.your_turn");
  const waiting = view.to_act.map((i) => names()[i]);
  const bots = view.to_act.every((i) => page.summary.seats[i].kind === "bot");
  if (!waiting.length) return t("status.moving_on");
  return bots ? t("status.bots_thinking", {names: waiting.join(", ")}) : t("status.waiting_for", {names: waiting.join(", ")});
}

function tableArea() {
  const state = page.state;
  const ctx = context();
  const board = h("section", {class: ["board", `game-${page.summary.game}`], "aria-label": t("table.board")});
  try {
    page.renderer.render(board, ctx);
  } catch (error) {
    board.append(h("p", {class: "notice error"}, `${error}`));
  }
  return h("main", {class: "table-page"},
    h("p", {class: ["status", isMyTurn() && "mine"], role: "status", "data-test": "status"}, statusLine(state)),
    seatsList(state.view),
    state.status === "waiting" ? inviteBox() : null,
    board,
    state.view.terminal ? endPanel(ctx) : null,
    eventLog(ctx));
}

function inviteBox() {
  const url = `${location.origin}/tables/${tableId}${invite ? `?invite=${invite}` : ""}`;
  const creator = page.held && page.summary.creator_seat === page.held.seat;
  return h("div", {class: "invite"},
    h("p", {}, t("invite.send")),
    h("input", {readonly: true, value: url, "aria-label": t("invite.link"), onclick: (e) => e.target.select()}),
    h("button", {onclick: () => navigator.clipboard && navigator.clipboard.writeText(url)}, t("invite.copy")),
    creator ? h("button", {class: "primary", "data-test": "start", onclick: async () => {
      try {
        page.summary = await api(`/api/tables/${tableId}/start`, {method: "POST", token: page.held.token});
      } catch (error) { page.notice = {kind: "error", text: error.message}; }
      draw();
    }}, t("invite.start_with_bots")) : null);
}

function eventLog(ctx) {
  // a renderer's describe() may return "" or null for an event not worth a line (each card dealt, say)
  const described = (event) => {
    if (!page.renderer.describe) return `${event.type}`;
    try { return page.renderer.describe(event, ctx); } catch { return `${event.type}`; }
  };
  const lines = [];
  for (let index = page.log.length - 1; index >= 0 && lines.length < 40; index--) {
    const event = page.log[index];
    const text = described(event);
    if (text) lines.push(h("li", {class: page.recent.includes(event) ? "new" : null}, text));
  }
  return h("details", {class: "log", open: true}, h("summary", {}, t("table.what_happened")), h("ol", {}, lines));
}

function endPanel(ctx) {
  const view = ctx.view;
  const winners = view.winners || [];
  const actions = h("div", {class: "actions"},
    h("button", {class: "primary", onclick: playAgain}, t("end.play_again")),
    h("a", {href: `/api/tables/${tableId}/record`, download: `${page.summary.game}-${tableId}.json`}, t("end.record")));
  if (page.renderer.summary) {
    // a game whose result is not a ranking (a solo game's rating) says it itself
    return h("section", {class: "end", "data-test": "end"}, page.renderer.summary(ctx), actions);
  }
  const rows = names().map((name, index) => h("tr", {class: winners.includes(index) ? "winner" : null},
    h("td", {}, name), h("td", {class: "num"}, view.returns ? String(view.returns[index]) : ""),
    h("td", {}, winners.includes(index) ? t("end.winner") : "")));
  return h("section", {class: "end", "data-test": "end"},
    h("h2", {}, winners.length ? t("end.winners", {names: winners.map((i) => names()[i]).join(", ")}) : t("end.no_winner")),
    h("table", {}, h("tbody", {}, rows)),
    actions);
}

async function playAgain() {
  const summary = page.summary;
  const seat = page.held ? page.held.seat : null;
  const seats = summary.seats.map((s, index) => (index === seat ? "me" : s.kind === "bot" ? `bot:${s.name}` : "open"));
  try {
    const created = await api("/api/tables", {method: "POST", body: {
      game: summary.game, players: summary.players, options: summary.options, seats,
      player_name: playerName() || t("seat.guest"), name: summary.name}});
    if (created.token !== null) holdSeat(created.table_id, created.seat, created.token, summary.game);
    location.href = `/tables/${created.table_id}`;
  } catch (error) {
    page.notice = {kind: "error", text: error.message};
    draw();
  }
}

function rulesPanel() {
  const lang = currentLang();
  const body = h("div", {class: "rules-body"});
  const text = page.rules[lang];
  if (text === undefined) {
    body.textContent = t("rules.loading");
    page.rules[lang] = null;  // asked once; drawn again when it comes
    fetch(`/games/${page.summary.game}/web/rules.${lang}.md`)
      .then((r) => (r.ok ? r.text() : ""))
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

window.ludotheque = page;  // for the browser tests: the latest frame and the log, as the page holds them
main();
