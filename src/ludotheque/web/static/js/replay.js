// The replay page (/tables/<id>/replay): a finished game move by move, as one seat saw it or as a spectator.
//
// The server answers GET /api/tables/<id>/replay?seq=K&seat=N with the position after the first K actions as that
// seat saw it (view, the events of step K, the marks where each round begins).  The page asks once per seat for
// every event of the game (since=0), so that the event log of any position is those with seq <= K; each step
// then asks only for the view.  The position is drawn with the game's renderer, offering no move.
//
// For a seat, the page offers the coach's review (POST/GET /api/tables/<id>/review, docs/coach.md): asked with a
// button, followed while the coach works, then drawn as a chart of the seat's expected final points along the game
// (markers on its mistakes) and a line per decision: what was played, what the coach preferred, at what cost.

import {api, seatAt} from "./api.js";
import {board, loadRenderer, makeContext, momentWords, moveWords} from "./board.js";
import {loadMuted, speaker} from "./chat.js";
import {clear, h} from "./dom.js";
import {currentLang, loadGameCatalog, loadShellCatalog, t} from "./i18n.js";
import {bar, createEventLog, describeEvent, gameTitle, seatList, seatNames} from "./tableparts.js";

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
  review: null,    // the coach's review of `seat`: GET /api/tables/{id}/review (status, progress, review), or
                   // {status: "refused", text, detail}; null when none was asked
  retry: null,     // "retry your mistakes": {list: the decisions judged worse than good, index, verdict}, or null
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
  loadChat();
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
  page.retry = null;
  loadReview(seat);
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
  return gameTitle(page.games, page.summary.game).name;
}

function names() {
  return seatNames(page.summary.seats);
}

function context() {
  const step = page.step;
  const events = page.log.filter((event) => event.seq <= step.seq);
  // a replay offers no move (`legal` stays empty and `play` does nothing), but for the position before a mistake
  // being retried: the seat's moves there, and a pick goes to the coach's verdict, never to the server
  const retrying = retryDecision();
  const offered = retrying && step.seq === retrying.seq - 1 && !page.retry.verdict ? step.legal || [] : [];
  return makeContext({
    view: step.view, seat: page.seat, names: names(), status: step.view.terminal ? "finished" : "playing", events,
    recent: events.filter((event) => event.seq === step.seq), redraw: () => draw(), legal: offered,
    play: (entry) => pickRetry(entry),
  });
}

function describe(event, ctx) {
  return describeEvent(page.renderer, event, ctx);
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

// the bar, the seats and the event log are the table page's (js/tableparts.js), without its life at the table
function header() {
  return bar({title: [t("replay.title"), page.summary ? ` · ${gameName()}` : ""], redraw: draw});
}

function replayArea() {
  const step = page.step;
  const ctx = context();
  const drawn = board(page.renderer, page.summary.game, ctx);
  return h("main", {class: "table-page"},
    controls(step),
    choices(step),
    currentMove(step, ctx),
    page.retry ? retryPanel(step) : reviewHere(step),
    seatsList(step.view),
    drawn,
    step.view.terminal ? result(ctx) : null,
    page.retry ? null : reviewPanel(),
    eventLog(ctx),
    chatRooms(step));
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
  return seatList({names: names(), toAct: view.to_act, me: page.seat});
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

// the log up to the step shown, drawn again with the page (a plain list: stepping is not news to announce)
function eventLog(ctx) {
  return createEventLog().show({events: ctx.events, recent: ctx.recent, names: ctx.names,
    describe: (event) => describe(event, ctx)});
}

// -- the coach's review --------------------------------------------------------------------------------------

const reviewBase = `/api/tables/${encodeURIComponent(tableId)}/review`;
const REVIEW_POLL_MS = 500;
// the markers' colours, by judgement (a good move has none)
const JUDGED = {inaccuracy: "#c9a227", mistake: "#e07b24", blunder: "#c0392b"};
let reviewTimer = null;

function reviewToken() { return held ? held.token : undefined; }

// The review of `seat` as it stands, if one was asked (a 404 says none was); followed until it is done
async function loadReview(seat) {
  clearTimeout(reviewTimer);
  page.review = null;
  if (seat === null) return;
  try {
    const answer = await api(`${reviewBase}?seat=${seat}`, {token: reviewToken()});
    if (page.seat === seat) followReview(seat, answer);
  } catch (error) {
    if (page.seat === seat && error.status !== 404) reviewRefused(error);
  }
}

async function askReview() {
  const seat = page.seat;
  try {
    const answer = await api(reviewBase, {method: "POST", body: {seat}, token: reviewToken()});
    if (page.seat === seat) followReview(seat, answer);
  } catch (error) {
    if (page.seat === seat) reviewRefused(error);
  }
}

function followReview(seat, answer) {
  page.review = answer;
  draw();
  if (answer.status !== "queued" && answer.status !== "running") return;
  clearTimeout(reviewTimer);
  reviewTimer = setTimeout(async () => {
    try {
      const next = await api(`${reviewBase}?seat=${seat}`, {token: reviewToken()});
      if (page.seat === seat) followReview(seat, next);
    } catch (error) {
      if (page.seat === seat) reviewRefused(error);
    }
  }, REVIEW_POLL_MS);
}

function reviewRefused(error) {
  const known = {403: "replay.forbidden", 429: "review.busy"}[error.status];
  page.review = {status: "refused", text: known ? t(known) : t("review.failed"), detail: error.message};
  draw();
}

function decisions() {
  const review = page.review;
  return review && review.status === "done" ? review.review.decisions : [];
}

function points(value) {
  return Number(value).toLocaleString(currentLang(), {maximumFractionDigits: 1});
}

// A move of the review in words, as the game's buttons name it (docs/coach.md): the notation stays for machines
function named(move, notation) {
  return moveWords(page.renderer, context(), move, notation);
}

// "played X, the coach preferred Y (+n points)"
function comment(decision) {
  const played = named(decision.played_move, decision.played);
  if (decision.best === decision.played) return t("review.agreed", {played});
  return t("review.preferred", {played, best: named(decision.best_move, decision.best), loss: points(decision.loss)});
}

// when the decision was taken, as the game counts it (hand, trick, round...), else its rank among the seat's
function moment(decision, index) {
  return momentWords(decision.moment) || t("review.decision_n", {n: index + 1});
}

function judgement(decision) {
  return decision.judgement === "good" ? "" : ` · ${t(`review.judgement.${decision.judgement}`)}`;
}

// The coach's word on the step shown, when it is one of the seat's decisions
function reviewHere(step) {
  const decision = decisions().find((d) => d.seq === step.seq);
  if (!decision) return null;
  return h("p", {class: "replay-move", "data-test": "review-here"}, comment(decision), judgement(decision));
}

function reviewPanel() {
  if (page.seat === null) return null;
  const review = page.review;
  const parts = [h("h2", {}, t("review.title"))];
  if (review && review.status === "done") {
    parts.push(reviewSummary(review.review), reviewChart(review.review), reviewList(review.review));
    if (mistakes().length) {
      parts.push(h("button", {"data-test": "retry-start", onclick: startRetry}, t("retry.start")));
    }
  } else if (review && (review.status === "queued" || review.status === "running")) {
    const {done, total} = review.progress;
    parts.push(h("p", {"data-test": "review-progress", "aria-live": "polite"},
      review.status === "queued" || !total ? t("review.queued") : t("review.running", {done, total})),
    h("progress", {max: Math.max(total, 1), value: total ? done : 0}));
  } else {
    if (review && review.status === "failed") {
      parts.push(h("p", {class: "notice error", "data-test": "review-error", title: review.error}, t("review.failed")));
    } else if (review) {
      parts.push(h("p", {class: "notice error", "data-test": "review-error", title: review.detail}, review.text));
    }
    parts.push(h("p", {}, t("review.lead")),
      h("button", {"data-test": "review-ask", onclick: askReview}, t("review.ask", {name: names()[page.seat]})));
  }
  return h("section", {class: "end", "data-test": "review"}, parts);
}

function levelName(spec) {
  const key = `level.${spec}`;
  return t(key) === key ? spec : t(key);
}

// The summary in the review's unit (a hand's points at a match of hands), and who played each seat in the
// coach's playouts: a bot by its own level, a person by the chosen one (docs/coach.md)
// -- "retry your mistakes": the position before each decision judged worse than good, where the person picks
// again and is told whether the coach agrees (the review's preferred move)

function mistakes() {
  return decisions().filter((d) => d.judgement !== "good" && d.expected_played !== null);
}

function retryDecision() {
  const retry = page.retry;
  return retry && retry.index < retry.list.length ? retry.list[retry.index] : null;
}

function startRetry() {
  page.retry = {list: mistakes(), index: 0, verdict: null};
  go(page.retry.list[0].seq - 1);
}

function nextRetry() {
  page.retry.index += 1;
  page.retry.verdict = null;
  const decision = retryDecision();
  if (decision) go(decision.seq - 1);
  else draw();
}

function stopRetry() {
  page.retry = null;
  draw();
}

function pickRetry(entry) {
  const decision = retryDecision();
  if (!decision || !page.step || page.step.seq !== decision.seq - 1) return;
  const notation = typeof entry === "string" ? entry : entry.notation;
  const chosen = (page.step.legal || []).find((m) => m.notation === notation);
  page.retry.verdict = {notation, move: chosen ? chosen.move : null};
  draw();
}

function retryVerdict(decision, verdict) {
  const move = named(verdict.move, verdict.notation);
  const best = named(decision.best_move, decision.best);
  if (verdict.notation === decision.best) return {agree: true, text: t("retry.agree", {move})};
  if (verdict.notation === decision.played) {
    return {agree: false, text: t("retry.same", {best, loss: points(decision.loss)})};
  }
  return {agree: false, text: t("retry.other", {best, move})};
}

function retryPanel(step) {
  const retry = page.retry;
  const decision = retryDecision();
  const stop = h("button", {class: "link", "data-test": "retry-stop", onclick: stopRetry}, t("retry.stop"));
  if (!decision) {
    return h("section", {class: "replay-move", "data-test": "retry"}, h("p", {}, t("retry.done")), stop);
  }
  const index = decisions().indexOf(decision);
  const said = retry.verdict ? retryVerdict(decision, retry.verdict) : null;
  return h("section", {class: "replay-move", "data-test": "retry", "aria-live": "polite"},
    h("strong", {}, t("retry.title")), " ",
    h("span", {"data-test": "retry-prompt"}, t("retry.prompt", {n: retry.index + 1, total: retry.list.length,
      moment: moment(decision, index)})),
    said ? h("p", {"data-test": "retry-verdict", "data-agree": String(said.agree)}, said.text) : null,
    h("div", {},
      retry.verdict ? h("button", {"data-test": "retry-again", onclick: () => { retry.verdict = null; go(decision.seq - 1); }},
        t("retry.again")) : null,
      step.seq === decision.seq - 1 ? null : h("button", {"data-test": "retry-back", onclick: () => go(decision.seq - 1)},
        t("retry.back")),
      h("button", {"data-test": "retry-next", onclick: nextRetry}, t("retry.next")), " ", stop));
}

function reviewSummary(review) {
  const summary = review.summary;
  const unit = review.unit ? t(`review.unit.${review.unit}`) : "";
  const said = (m) => m.seat === review.seat ? "review.model_self" : m.by === "bot" ? "review.model_bot"
    : "review.model_person";
  const models = (review.models || []).map((m) => t(said(m), {name: names()[m.seat], level: levelName(m.model)}));
  return h("div", {},
    h("p", {"data-test": "review-summary"}, t("review.summary", {
      loss: points(summary.total_loss), unit, accuracy: summary.accuracy === null ? "–" : points(summary.accuracy)})),
    models.length ? h("p", {"data-test": "review-models"}, t("review.models", {models: models.join(" ; ")})) : null,
    summary.unvalued ? h("p", {"data-test": "review-unvalued"}, t("review.unvalued", {n: summary.unvalued})) : null);
}

// The seat's expected final points along the game (the moves played; the coach's preferred ones dashed), by seq,
// with a marker on each judged move and a line at the step shown
function reviewChart(review) {
  const valued = review.decisions.filter((d) => d.expected_played !== null && d.expected_best !== null);
  if (!valued.length) return h("p", {"data-test": "review-chart"}, t("review.forced"));
  const width = 320, height = 130, pad = 10;
  const values = valued.flatMap((d) => [d.expected_played, d.expected_best]);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 1e-9) { low -= 1; high += 1; }
  const last = Math.max(1, page.step.last_seq);
  const x = (seq) => pad + (width - 2 * pad) * seq / last;
  const y = (value) => height - pad - (height - 2 * pad) * (value - low) / (high - low);
  const line = (key) => valued.map((d, i) => `${i ? "L" : "M"}${x(d.seq).toFixed(1)},${y(d[key]).toFixed(1)}`).join(" ");
  const label = (value, at) => h("svg:text", {x: pad + 2, y: at, "font-size": 9, fill: "#6b6b6b"}, points(value));
  return h("figure", {class: "review-chart", style: {margin: "0.4rem 0"}},
    h("svg", {viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", "data-test": "review-chart",
      "aria-label": t("review.chart")},
    h("svg:rect", {x: 0, y: 0, width, height, fill: "#fbfaf5"}),
    h("svg:line", {x1: x(page.step.seq), x2: x(page.step.seq), y1: pad, y2: height - pad, stroke: "#c8c2ad"}),
    h("svg:path", {d: line("expected_best"), fill: "none", stroke: "#7f9c8f", "stroke-width": 1.5,
      "stroke-dasharray": "4 3"}),
    h("svg:path", {d: line("expected_played"), fill: "none", stroke: "#2b4a3f", "stroke-width": 2}),
    label(high, pad + 8), label(low, height - pad - 2),
    valued.filter((d) => d.judgement in JUDGED).map((d) => h("svg:circle", {
      cx: x(d.seq).toFixed(1), cy: y(d.expected_played).toFixed(1), r: 5, fill: JUDGED[d.judgement],
      "data-test": "review-marker", "data-seq": d.seq, onclick: () => go(d.seq)},
    h("svg:title", {}, `${comment(d)}${judgement(d)}`)))),
    h("figcaption", {}, t("review.legend")));
}

function reviewList(review) {
  return h("details", {class: "log", open: true}, h("summary", {}, t("review.decisions")),
    h("ol", {"data-test": "review-decisions"}, review.decisions.map((d, index) => h("li", {
      class: d.seq === page.step.seq ? "new" : null, "data-seq": d.seq},
    h("a", {href: `?${new URLSearchParams({seat: page.seat, seq: d.seq})}`,
      onclick: (event) => { event.preventDefault(); go(d.seq); }}, moment(d, index)), " — ",
    comment(d), judgement(d)))));
}

// -- the table's chat, as its readers saw it (GET /api/tables/<id>/chat): the spectators' room for everyone, the
// players' room for the people who sat there; each line from the position at which it was said, a person muted at
// the table (js/chat.js) muted here too, and every message a text node, never markup

const replayChat = {players: null, spectators: null};

async function loadChat() {
  const url = `/api/tables/${encodeURIComponent(tableId)}/chat`;
  const token = held ? held.token : undefined;
  // a room this person may not read (the players' for a spectator) is not shown
  const [players, spectators] = await Promise.all(["players", "spectators"].map((room) =>
    api(`${url}?room=${room}`, {token}).catch(() => null)));
  Object.assign(replayChat, {players, spectators});
  draw();
}

function chatRooms(step) {
  const muted = loadMuted(tableId);
  const rooms = ["players", "spectators"].filter((room) => replayChat[room] && replayChat[room].length);
  if (!rooms.length) return null;
  return h("section", {class: "replay-chat", "data-test": "replay-chat"}, rooms.map((room) => {
    const said = replayChat[room].filter((m) => m.seq <= step.seq && !muted.has(speaker(m)));
    return h("details", {class: "log", open: true, "data-room": room}, h("summary", {}, t(`chat.${room}`)),
      h("ol", {class: "chat-lines", tabindex: "0"}, said.length ? said.map((m) => h("li", {},
        h("span", {class: "chat-name"}, m.seat === null ? m.name || t("chat.spectator") : names()[m.seat] || m.name),
        " ", h("span", {class: "chat-text", "data-test": "chat-text"}, m.text))) : h("li", {}, t("chat.nothing_yet"))));
  }));
}

window.ludotheque = page;  // for the browser tests: the position shown, as the page holds it
main();
