// The replay page (/tables/<id>/replay): a finished game move by move, as one seat saw it or as a spectator.
//
// The server answers GET /api/tables/<id>/replay?seq=K&seat=N with the position after the first K actions as that
// seat saw it (view, the events of step K, the marks where each round begins).  The page asks once per seat for
// every event of the game (since=0), so that the event log of any position is those with seq <= K; each step
// then asks only for the view.  The position is drawn with the game's renderer, offering no move.

import {api, seatAt} from "./api.js";
import {board, loadRenderer} from "./board.js";
import {clear, h} from "./dom.js";
import {currentLang, loadGameCatalog, loadShellCatalog, setLang, t} from "./i18n.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const query = new URLSearchParams(location.search);
const root = document.getElementById("app");
const base = `/api/tables/${encodeURIComponent(tableId)}/replay`;

const page = {
  summary: null,   // GET /api/tables/{id}: the game, the seats' names
  games: null,     // GET /api/games
  renderer: null,  // the game's module: render(root, ctx), describe(event, ctx)
  seat: null,      // the seat whose view is shown (null: a spectator)
  step: null,      // the latest replay answer drawn: {seq, last_seq, entry, view, events, marks}
  log: [],         // every event the seat saw in the whole game, in order (each carries its seq)
  logSeat: null,   // the seat whose events ``log`` holds (it follows ``seat`` once they have come)
  error: null,     // why the replay cannot be shown: {text, detail}
};

// a seat's token held by this browser opens a private table's replay; the player's own token goes with every call
const held = seatAt(tableId);
let asked = 0;  // the latest request: an answer to an older one (a quick double step) is dropped

async function main() {
  await loadShellCatalog();
  try {
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    refused(error);
    return;
  }
  page.games = await api("/api/games");
  await loadGameCatalog(page.summary.game);
  page.renderer = await loadRenderer(page.summary.game);
  const wanted = query.get("seat");
  const seat = wanted === null ? (held ? held.seat : null) : Number(wanted);
  const seq = query.get("seq") === null ? null : Number(query.get("seq"));
  await showSeat(Number.isInteger(seat) && seat >= 0 && seat < page.summary.players ? seat : null, seq);
  document.addEventListener("keydown", onKey);
}

function fetchStep(params) {
  const search = new URLSearchParams(params);
  return api(`${base}?${search}`, {token: held ? held.token : undefined});
}

function seatParams() {
  return page.seat === null ? {} : {seat: page.seat};
}

// A new seat: its whole event log, then the position asked (the end of the game unless said)
async function showSeat(seat, seq = null) {
  page.seat = seat;
  const mine = ++asked;
  let all;
  try {
    all = await fetchStep({...seatParams(), since: 0});
  } catch (error) {
    refused(error);
    return;
  }
  if (page.seat !== seat) return;  // another seat was chosen meanwhile
  page.log = all.events;
  page.logSeat = seat;
  if (mine !== asked) {
    draw();  // a step asked meanwhile is drawn again with this seat's log
  } else if (Number.isInteger(seq) && seq >= 0 && seq <= all.last_seq && seq !== all.seq) {
    await go(seq);
  } else {
    show(all);
  }
}

async function go(seq) {
  const mine = ++asked;
  try {
    const step = await fetchStep({...seatParams(), seq});
    if (mine === asked) show(step);
  } catch (error) {
    refused(error);
  }
}

// the server explains in English: a known refusal is said in the page's language, the server's words as a tooltip
function refused(error) {
  const known = {403: "replay.forbidden", 404: "table.missing", 409: "replay.not_over"}[error.status];
  page.error = {text: known ? t(known) : error.message, detail: error.message};
  draw();
}

function show(step) {
  page.step = step;
  page.error = null;
  const search = new URLSearchParams({...seatParams(), seq: step.seq});
  history.replaceState(null, "", `${location.pathname}?${search}`);  // a reload or a shared link shows the same
  draw();
}

function onKey(event) {
  if (!page.step || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["SELECT", "INPUT", "TEXTAREA"].includes(event.target.tagName)) return;  // their own arrows
  const seq = page.step.seq;
  const moves = {ArrowLeft: seq - 1, ArrowRight: seq + 1, Home: 0, End: page.step.last_seq};
  if (!(event.key in moves)) return;
  event.preventDefault();
  const target = moves[event.key];
  if (target >= 0 && target <= page.step.last_seq && target !== seq) go(target);
}

// -- drawing -------------------------------------------------------------------------------------------------

function gameName() {
  const game = (page.games || []).find((g) => g.id === page.summary.game) || {name: page.summary.game};
  const key = `${page.summary.game}.game.name`;
  return t(key) === key ? game.name : t(key);
}

function names() {
  return page.summary.seats.map((s, i) => {
    if (s.kind !== "bot") return s.name || t("seat.open");
    const level = t(`level.${s.name}`);
    return t("seat.bot_at", {level: level === `level.${s.name}` ? s.name : level, n: i + 1});
  });
}

function context() {
  const step = page.step;
  const events = page.log.filter((event) => event.seq <= step.seq);
  return {
    h, t, lang: currentLang(), seat: page.seat, names: names(), view: step.view, legal: [],
    status: step.view.terminal ? "finished" : "playing", events,
    recent: events.filter((event) => event.seq === step.seq), pending: false, play: () => {}, myTurn: false,
    redraw: () => draw(), find: () => undefined, findAll: () => [],
  };
}

function describe(event, ctx) {
  // a renderer's describe() may return "" for an event not worth a line (each card dealt, say)
  if (!page.renderer.describe) return `${event.type}`;
  try { return page.renderer.describe(event, ctx); } catch { return `${event.type}`; }
}

function draw() {
  // the page is drawn again from scratch: the control that had the focus gets it back (keyboard users step on)
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.test : null;
  const ready = page.summary && page.step;
  document.title = `${t("replay.title")}${page.summary ? ` · ${gameName()}` : ""} · ludotheque`;
  clear(root).append(...[
    header(),
    page.error ? h("p", {class: "notice error", role: "alert", "data-test": "error", title: page.error.detail},
      page.error.text) : null,
    ready ? replayArea() : page.error ? null : h("p", {class: "page"}, t("replay.loading")),
    page.summary ? h("p", {class: "page"}, h("a", {href: `/tables/${encodeURIComponent(tableId)}`,
      "data-test": "back"}, t("replay.back"))) : null,
  ].filter(Boolean));
  if (focused) {
    const again = root.querySelector(`[data-test="${focused}"]`);
    if (again && !again.disabled) again.focus();
  }
}

function header() {
  const other = currentLang() === "fr" ? "en" : "fr";
  return h("header", {class: "bar"},
    h("a", {href: "/", class: "home"}, "ludotheque"),
    h("span", {class: "title"}, t("replay.title"), page.summary ? ` · ${gameName()}` : ""),
    h("span", {class: "spacer"}),
    h("button", {class: "link", "data-test": "lang", onclick: () => { setLang(other); draw(); }}, other.toUpperCase()));
}

function replayArea() {
  const step = page.step;
  const ctx = context();
  const drawn = board(page.renderer, page.summary.game, ctx);
  return h("main", {class: "table-page"},
    controls(step),
    choices(step),
    currentMove(step, ctx),
    seatsList(step.view),
    drawn,
    step.view.terminal ? result(ctx) : null,
    eventLog(ctx));
}

// The four buttons' icons, drawn: the media symbols (⏮ ⏭) are missing from many phones' fonts
const ICONS = {first: "M3 2h2v12H3zM14 2v12L6 8z", prev: "M12 2v12L4 8z", next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z"};

function icon(name) {
  return h("svg", {viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true"},
    h("svg:path", {d: ICONS[name], fill: "currentColor"}));
}

function controls(step) {
  const button = (name, target, enabled) => h("button", {
    "data-test": name, "aria-label": t(`replay.${name}`), title: t(`replay.${name}`), disabled: !enabled,
    onclick: () => go(target)}, icon(name));
  const atStart = step.seq === 0;
  const atEnd = step.seq === step.last_seq;
  return h("nav", {class: "replay-controls", "aria-label": t("replay.controls")},
    button("first", 0, !atStart),
    button("prev", step.seq - 1, !atStart),
    h("span", {class: "position", "data-test": "position", "aria-live": "polite"},
      t("replay.position", {seq: step.seq, last: step.last_seq})),
    button("next", step.seq + 1, !atEnd),
    button("last", step.last_seq, !atEnd));
}

function choices(step) {
  const current = [...step.marks].reverse().find((mark) => mark.seq <= step.seq);
  const marks = h("select", {"data-test": "marks", onchange: (event) => {
    if (event.target.value !== "") go(Number(event.target.value));
  }},
    h("option", {value: "", selected: !current}, t("replay.rounds")),
    step.marks.map((mark) => h("option", {value: mark.seq, selected: mark === current},
      t("replay.round", {n: mark.index}))));
  const seats = h("select", {"data-test": "seat", onchange: (event) => {
    const value = event.target.value;
    showSeat(value === "" ? null : Number(value), step.seq);
  }},
    h("option", {value: "", selected: page.seat === null}, t("replay.spectator")),
    names().map((name, index) => h("option", {value: index, selected: page.seat === index}, name)));
  return h("div", {class: "replay-choices"},
    step.marks.length ? h("label", {}, t("replay.jump"), marks) : null,
    h("label", {}, t("replay.seen_by"), seats));
}

function currentMove(step, ctx) {
  if (!step.entry) return h("p", {class: "replay-move", "data-test": "move"}, t("replay.start"));
  const who = step.entry.actor === "chance" ? t("replay.chance") : names()[step.entry.actor];
  const lines = ctx.recent.map((event) => describe(event, ctx)).filter(Boolean);
  return h("div", {class: "replay-move", "data-test": "move"},
    h("strong", {}, t("replay.move", {name: who, move: step.entry.notation})),
    lines.length ? h("div", {class: "detail"}, lines.join(" · ")) : null);
}

function seatsList(view) {
  return h("ol", {class: "seats", "aria-label": t("table.seats")},
    names().map((name, index) => h("li", {class: ["seat", view.to_act.includes(index) && "to-act",
      index === page.seat && "me"]}, h("span", {class: "name"}, name))));
}

function result(ctx) {
  if (page.renderer.summary) return h("section", {class: "end", "data-test": "end"}, page.renderer.summary(ctx));
  const view = ctx.view;
  const winners = view.winners || [];
  return h("section", {class: "end", "data-test": "end"},
    h("h2", {}, winners.length ? t("end.winners", {names: winners.map((i) => names()[i]).join(", ")})
      : t("end.no_winner")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("end.player")), h("th", {class: "num"}, t("end.points")))),
      h("tbody", {}, names().map((name, index) => h("tr", {class: winners.includes(index) ? "winner" : null},
      h("td", {}, name), h("td", {class: "num"}, view.returns ? String(view.returns[index]) : ""))))));
}

function eventLog(ctx) {
  const lines = [];
  for (let index = ctx.events.length - 1; index >= 0 && lines.length < 40; index--) {
    const event = ctx.events[index];
    const text = describe(event, ctx);
    if (text) lines.push(h("li", {class: ctx.recent.includes(event) ? "new" : null}, text));
  }
  return h("details", {class: "log", open: true}, h("summary", {}, t("table.what_happened")), h("ol", {}, lines));
}

window.ludotheque = page;  // for the browser tests: the position shown, as the page holds it
main();
