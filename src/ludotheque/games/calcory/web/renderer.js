// Calcory's table: the 6×10 grid of cards (calcory-1), the turn's running sum, the marked cards to beat
// (calcory-3), each player's markers and won cards, and what the last turns did.
//
// Memory is the game (calcory-5): a face-down card is drawn as a plain back, whatever the history says.  The
// values of cards now face down appear only as history ("what just happened", the event log), never on the grid.
//
// Moves: a face-down card is a button that flips it (its notation, e.g. "C4"); "stop" and "pass" are buttons
// under the grid; after a 13 or a collection, pick the held card to put back (a step), then an empty cell
// ("7@C4").  The grid stands upright on a phone (6 columns A–F, 10 rows) and lies flat on a wide screen.

const ROWS = "ABCDEF";
const COLS = 10;
const CELLS = 60;
const TARGET = 13;
const VALUE_COLOURS = ["red", "yellow", "green", "blue", "black"];

// a put-back takes two clicks: the value chosen first is kept here between frames
const selection = {value: null, turn: null};
let redraw = () => {};

export function render(root, ctx) {
  injectStyle();
  redraw = (focus = null) => {
    while (root.firstChild) root.removeChild(root.firstChild);
    render(root, ctx);
    const next = focus && root.querySelector(focus);
    if (next) next.focus({preventScroll: true});  // the keyboard goes on from the new targets
  };
  const view = ctx.view;
  const table = view.table;
  const info = tableInfo(ctx);
  if (table.phase !== "put_back" || selection.turn !== table.turn || !table.holding.includes(selection.value)) {
    selection.value = null;
    selection.turn = null;
  }
  const distinct = [...new Set(table.holding)];
  if (table.phase === "put_back" && info.putBacks.length && distinct.length === 1) {
    selection.value = distinct[0];  // nothing to choose: the only value held goes back
    selection.turn = table.turn;
  }
  const parts = [
    players(ctx, info),
    table.dealt < CELLS ? ctx.h("p", {class: "cal-dealing"}, ctx.t("calcory.dealing", {n: table.dealt, total: CELLS})) : null,
    news(ctx),
    grid(ctx, info),
    bar(ctx, info),
    view.terminal ? finalScore(ctx) : null,
  ];
  root.append(...parts.filter(Boolean));  // Element.append would write a null as the text "null"
}

// -- what the page knows about this frame -------------------------------------------------------------------

function tableInfo(ctx) {
  const table = ctx.view.table;
  const marked = table.marked;
  return {
    current: ctx.view.to_act.length ? ctx.view.to_act[0] : null,
    flipped: new Map(table.flipped.map(([cell, value]) => [cell, value])),
    latest: table.flipped.length ? table.flipped[table.flipped.length - 1][0] : null,
    markedCells: new Set(marked ? marked.cells : []),
    markedSeat: marked ? marked.seat : null,
    putBacks: ctx.findAll((m) => m.type === "put_back"),
  };
}

function cellName(index) {
  return `${ROWS[Math.floor(index / COLS)]}${(index % COLS) + 1}`;
}

/** Where an item of the grid goes: row r of A–F (-1: the labels' row), column c of 1–10 (0: the labels'). */
function place(r, c) {
  return `--r:${r + 2};--c:${c + 1}`;
}

function colour(value) {
  return `v-${VALUE_COLOURS[value % VALUE_COLOURS.length]}`;
}

/** A player's name as the table shows it; bots of the same level are told apart by their seat. */
function who(ctx, seat) {
  const name = ctx.names[seat] ?? `#${seat + 1}`;
  const same = ctx.names.filter((n) => n === name).length;
  return same > 1 ? `${name} ${seat + 1}` : name;
}

function plural(ctx, key, n, params = {}) {
  const one = n === 1 || (n === 0 && ctx.lang === "fr");  // « 0 carte gagnée », "0 cards won"
  return ctx.t(`${key}.${one ? "one" : "many"}`, {n, ...params});
}

function marker(ctx, seat, extra = null) {
  return ctx.h("span", {class: ["cal-marker", `seat-${seat}`, extra], "aria-hidden": "true"});
}

// -- the players: markers at home, cards won ------------------------------------------------------------------

function players(ctx, info) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  return h("ul", {class: "cal-players", "aria-label": t("calcory.players")},
    table.markers.map((home, seat) => {
      const out = 6 - home;
      const won = table.cards_won[seat];
      return h("li", {class: ["cal-player", `seat-${seat}`, info.current === seat && "to-act", ctx.seat === seat && "me"],
        "data-test": `player-${seat}`},
        marker(ctx, seat),
        h("span", {class: "name"}, who(ctx, seat)),
        h("span", {class: "cal-home", title: t("calcory.markers_home", {n: home}),
          "aria-label": t("calcory.markers_home", {n: home})},
          Array.from({length: 6}, (_, i) => h("span", {class: ["cal-dot", i < home ? "home" : "out"]}))),
        h("span", {class: "cal-won", title: plural(ctx, "calcory.won", won), "aria-label": plural(ctx, "calcory.won", won),
          "data-test": `won-${seat}`},
          h("span", {class: "cal-stack", "aria-hidden": "true"}), String(won)),
        out && table.marked && table.marked.seat === seat
          ? h("span", {class: "cal-out"}, plural(ctx, "calcory.on_table", out)) : null);
    }));
}

// -- the grid ----------------------------------------------------------------------------------------------------

function grid(ctx, info) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const items = [];
  for (let r = 0; r < ROWS.length; r++) {
    items.push(h("span", {class: "cal-label", style: place(r, 0)}, ROWS[r]));
  }
  for (let c = 0; c < COLS; c++) {
    items.push(h("span", {class: "cal-label", style: place(-1, c + 1)}, String(c + 1)));
  }
  for (let index = 0; index < CELLS; index++) items.push(cell(ctx, info, index, table.cells[index]));
  const mine = ctx.myTurn && table.phase === "flip";
  return h("div", {class: "cal-grid-wrap"},
    h("div", {class: ["cal-grid", mine && "flipping"], role: "group", "aria-label": t("calcory.grid"), "data-test": "grid"},
      items));
}

function cell(ctx, info, index, item) {
  const {h, t} = ctx;
  const name = cellName(index);
  const at = place(Math.floor(index / COLS), (index % COLS) + 1);
  if (item === "down") {
    // calcory-5: a back is a back; what it hides is for the player to remember
    const entry = ctx.find((m) => m.type === "flip" && m.cell === name);
    const label = t("calcory.cell.down", {cell: name});
    if (entry) {
      return h("button", {class: "card back cal-cell flippable", style: at, "data-notation": entry.notation,
        "data-cell": name, disabled: ctx.pending, title: label, "aria-label": label, onclick: () => ctx.play(entry)});
    }
    return h("div", {class: "card back cal-cell", style: at, "data-cell": name, title: label, "aria-label": label,
      role: "img"});
  }
  if (item === null) {
    const entry = selection.value !== null
      ? info.putBacks.find((e) => e.move.value === selection.value && e.move.cell === name) : null;
    if (entry) {
      const label = t("calcory.cell.put_here", {cell: name, value: selection.value});
      return h("button", {class: "cal-cell cal-empty target", style: at, "data-notation": entry.notation,
        "data-cell": name, disabled: ctx.pending, title: label, "aria-label": label,
        onclick: () => { selection.value = null; ctx.play(entry); }});
    }
    return h("div", {class: ["cal-cell", "cal-empty", info.putBacks.length && "waiting"], style: at,
      "data-cell": name, title: t("calcory.cell.empty", {cell: name})});
  }
  // a face-up card: flipped this turn, or marked (calcory-3)
  const marked = info.markedCells.has(name);
  const label = marked
    ? t("calcory.cell.marked", {cell: name, value: item, name: who(ctx, info.markedSeat)})
    : t("calcory.cell.up", {cell: name, value: item});
  return h("div", {class: ["card", "cal-cell", "cal-face", colour(item), marked && `marked seat-${info.markedSeat}`,
    info.flipped.has(name) && "flipped", info.latest === name && "latest"], style: at, "data-cell": name,
    "data-value": item, title: label, "aria-label": label, role: "img"},
    h("span", {class: "num"}, String(item)),
    marked ? marker(ctx, info.markedSeat, "on-card") : null);
}

/** A small face-up card for the bar and the news (values as they showed at that moment). */
function mini(ctx, value, cellLabel, extra = null) {
  const {h} = ctx;
  return h("span", {class: ["cal-mini-wrap", extra]},
    h("span", {class: ["card", "cal-mini", "cal-face", colour(value)]}, h("span", {class: "num"}, String(value))),
    cellLabel ? h("span", {class: "cal-mini-cell"}, cellLabel) : null);
}

// -- the turn: sum, target, moves (kept in sight under the grid) -----------------------------------------------

function bar(ctx, info) {
  const {h, t} = ctx;
  const view = ctx.view;
  const table = view.table;
  const parts = [];
  if (view.terminal) return null;  // the final count says it all
  const current = info.current;
  const mine = ctx.seat !== null && current === ctx.seat;
  if (table.phase === "put_back") {
    parts.push(putBack(ctx, info, mine));
  } else {
    parts.push(sumLine(ctx, info));
    if (table.marked) parts.push(targetLine(ctx));
    const moves = [];
    const stop = ctx.find((m) => m.type === "stop");
    const pass = ctx.find((m) => m.type === "pass");
    if (stop) {
      moves.push(h("button", {class: "move go", "data-notation": stop.notation, disabled: ctx.pending,
        "data-test": "stop", onclick: () => ctx.play(stop)}, t("calcory.stop"), h("small", {}, stopHint(ctx))));
    }
    if (pass) {
      moves.push(h("button", {class: "move go", "data-notation": pass.notation, disabled: ctx.pending,
        "data-test": "pass", onclick: () => ctx.play(pass)}, t("calcory.pass")));
    }
    if (mine && table.phase === "pass") {
      parts.push(h("p", {class: "cal-hint"}, t(table.flipped.length ? "calcory.hint.stuck" : "calcory.hint.nothing")));
    } else if (mine && table.phase === "flip") {
      const needs = table.flipped.length < 2 && table.cards_won[ctx.seat] === 0 && !stop;
      parts.push(h("p", {class: "cal-hint"}, t(needs ? "calcory.hint.flip_two" : "calcory.hint.flip")));
    } else if (current !== null) {
      parts.push(h("p", {class: "cal-hint"}, t("calcory.hint.watching", {name: who(ctx, current)})));
    }
    if (moves.length) parts.push(h("div", {class: "moves"}, moves));
  }
  return h("div", {class: ["cal-bar", mine && "mine"], "data-test": "bar"}, parts);
}

function sumLine(ctx, info) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const cards = table.flipped.map(([cell, value]) => mini(ctx, value, cell, cell === info.latest ? "latest" : null));
  return h("div", {class: "cal-sumline"},
    h("span", {class: "cal-sum", "data-test": "sum", "aria-label": t("calcory.sum_label", {sum: table.sum})},
      h("small", {}, t("calcory.sum")), h("strong", {}, String(table.sum)), h("small", {}, `/ ${TARGET}`)),
    h("span", {class: "cal-flipped"}, cards.length ? cards : h("span", {class: "cal-muted"}, t("calcory.nothing_flipped"))),
    table.zeros ? h("span", {class: "cal-zero"}, t("calcory.one_zero")) : null);
}

function targetLine(ctx) {
  const {h, t} = ctx;
  const marked = ctx.view.table.marked;
  return h("p", {class: "cal-target", "data-test": "target"}, marker(ctx, marked.seat),
    plural(ctx, "calcory.to_beat", marked.count, {sum: marked.sum, name: who(ctx, marked.seat)}));
}

function stopHint(ctx) {
  const table = ctx.view.table;
  const marked = table.marked;
  const count = table.flipped.length;
  if (!marked) return ctx.t("calcory.stop.mark", {sum: table.sum});
  const beats = table.sum > marked.sum || (table.sum === marked.sum && count > marked.count);
  return ctx.t(beats ? "calcory.stop.beats" : "calcory.stop.fails", {sum: marked.sum});
}

function putBack(ctx, info, mine) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const name = who(ctx, info.current);
  const why = table.collecting ? "calcory.putback.collected" : "calcory.putback.thirteen";
  const choosing = mine && info.putBacks.length;
  const held = table.holding.map((value, i) => {
    const chosen = selection.value === value && table.holding.indexOf(value) === i;
    if (!choosing) return mini(ctx, value, null);
    return h("button", {class: ["card", "cal-mini", "cal-face", "cal-pick", colour(value), chosen && "selected"],
      "data-step": `hold-${value}`, disabled: ctx.pending, "aria-pressed": chosen ? "true" : "false",
      "aria-label": t("calcory.putback.choose_value", {value}),
      onclick: () => { selection.value = value; selection.turn = table.turn; redraw("button.cal-empty.target"); }},
    h("span", {class: "num"}, String(value)));
  });
  const lines = [h("p", {class: "cal-line"}, t(why, {name})), h("div", {class: "cal-held"}, held)];
  if (choosing) {
    const distinct = new Set(table.holding).size;
    lines.push(h("p", {class: "cal-hint"}, selection.value === null
      ? t("calcory.hint.choose_value")
      : t("calcory.hint.choose_cell", {value: selection.value})));
    if (selection.value !== null && distinct > 1) {
      lines.push(h("div", {class: "moves"}, h("button", {class: "move", "data-test": "cancel",
        onclick: () => { selection.value = null; redraw("button.cal-pick"); }}, t("calcory.cancel"))));
    }
  } else {
    lines.push(h("p", {class: "cal-hint"}, t("calcory.hint.putting_back", {name})));
  }
  return h("div", {class: "cal-putback"}, lines);
}

// -- what just happened: the last finished turns, from the events ---------------------------------------------

/** The events grouped by turn: {seat, flips, end, thirteen, put, collect, done}. */
function turnsOf(events) {
  const turns = [];
  let open = null;
  const start = (seat) => { open = {seat, flips: [], done: false}; turns.push(open); return open; };
  for (const e of events) {
    switch (e.type) {
      case "flip":
        if (!open || open.done) start(e.seat);
        open.flips.push(e);
        break;
      case "thirteen":
        if (!open || open.done) start(e.seat);
        open.thirteen = e;
        break;
      case "bust": case "mark": case "beat": case "fail": case "pass":
        if (!open || open.done) start(e.seat);
        open.end = e;
        open.done = true;
        break;
      case "collect":
        start(e.seat).collect = e;
        if (e.count === 1) open.done = true;
        break;
      case "put_back":
        if (!open || open.done) start(e.seat);
        open.put = e;
        open.done = true;
        break;
      default:
        break;
    }
  }
  return turns;
}

function news(ctx) {
  const {h, t} = ctx;
  const finished = turnsOf(ctx.events).filter((turn) => turn.done);
  if (!finished.length) return null;
  const shown = finished.slice(-Math.max(1, ctx.view.players - 1)).reverse();
  return h("section", {class: "cal-news", "aria-label": t("calcory.news"), "data-test": "news"},
    h("h3", {}, t("calcory.news")),
    h("ol", {}, shown.map((turn, i) => h("li", {class: i === 0 ? "newest" : null}, turnLine(ctx, turn)))));
}

function turnLine(ctx, turn) {
  const {h, t} = ctx;
  const name = who(ctx, turn.seat);
  const flips = turn.flips;
  const cards = (breaker) => h("span", {class: "cal-flipped"},
    flips.map((f, i) => mini(ctx, f.value, f.cell, breaker && i === flips.length - 1 ? "broke" : null)));
  let text;
  let kind;
  let withCards = flips.length > 0;
  let breaker = false;
  const end = turn.end;
  if (turn.collect) {
    const c = turn.collect;
    kind = "collect";
    text = c.count === 1
      ? t("calcory.news.collect_one", {name, value: c.values[0], cell: c.cells[0]})
      : t("calcory.news.collect", {name, n: c.count, sum: c.sum, value: turn.put ? turn.put.value : "?",
        cell: turn.put ? turn.put.cell : "?"});
    withCards = false;
  } else if (turn.thirteen) {
    kind = "thirteen";
    const kept = turn.put ? turn.put.kept.length : turn.thirteen.count - 1;
    text = plural(ctx, "calcory.news.thirteen", kept, {name, value: turn.put ? turn.put.value : "?",
      cell: turn.put ? turn.put.cell : "?"});
  } else if (end && end.type === "bust") {
    kind = "bust";
    breaker = true;
    text = end.reason === "second_zero"
      ? t("calcory.news.bust_zero", {name})
      : t("calcory.news.bust_over", {name, sum: end.sum});
  } else if (end && end.type === "mark") {
    kind = "mark";
    text = plural(ctx, "calcory.news.mark", end.count, {name, sum: end.sum});
  } else if (end && end.type === "beat") {
    kind = "beat";
    text = t("calcory.news.beat", {name, sum: end.sum, old: end.beaten.sum, other: who(ctx, end.beaten.seat)});
  } else if (end && end.type === "fail") {
    kind = "fail";
    text = t("calcory.news.fail", {name, sum: end.sum, old: end.marked.sum, other: who(ctx, end.marked.seat)});
  } else if (end && end.type === "pass") {
    kind = "pass";
    text = t(end.cells.length ? "calcory.news.stuck" : "calcory.news.pass", {name});
  } else {
    kind = "other";
    text = name;
  }
  return h("div", {class: ["cal-turn", `kind-${kind}`], "data-kind": kind},
    marker(ctx, turn.seat),
    h("span", {class: "cal-turn-text"}, text),
    withCards ? cards(breaker) : null);
}

// -- the end: the count of cards won (calcory-4) -----------------------------------------------------------------

function finalScore(ctx) {
  const {h, t} = ctx;
  const view = ctx.view;
  const table = view.table;
  const winners = view.winners || [];
  const ending = table.ending;
  const rows = table.cards_won.map((won, seat) => h("tr", {class: winners.includes(seat) ? "winner" : null},
    h("td", {}, marker(ctx, seat), " ", who(ctx, seat)),
    h("td", {class: "num", "data-test": `final-${seat}`}, String(won)),
    h("td", {}, winners.includes(seat) ? t("calcory.end.winner") : "")));
  return h("section", {class: "cal-final", "data-test": "final"},
    h("h3", {}, t("calcory.end.title")),
    ending ? h("p", {}, t("calcory.end.ending", {name: who(ctx, ending.seat), value: ending.value, cell: ending.cell})) : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("calcory.end.player")), h("th", {class: "num"}, t("calcory.end.cards")),
        h("th", {}, ""))),
      h("tbody", {}, rows)),
    h("p", {class: "cal-muted"}, winners.length > 1 ? t("calcory.end.shared") : t("calcory.end.most")));
}

// -- the event log ---------------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const t = ctx.t;
  const name = event.seat !== undefined ? who(ctx, event.seat) : "";
  const group = (e) => e.values.join(" + ") + (e.count > 1 ? ` = ${e.sum}` : "");
  switch (event.type) {
    case "deal":
      return dealt(event, ctx);
    case "flip":
      return t("calcory.log.flip", {name, cell: event.cell, value: event.value, sum: event.sum});
    case "bust":
      return event.reason === "second_zero"
        ? t("calcory.log.bust_zero", {name, cells: event.cells.join(", ")})
        : t("calcory.log.bust_over", {name, sum: event.sum, cells: event.cells.join(", ")});
    case "thirteen":
      return t("calcory.log.thirteen", {name, cards: group(event)});
    case "mark":
      return t("calcory.log.mark", {name, cards: group(event), cells: event.cells.join(", ")});
    case "beat":
      return t("calcory.log.beat", {name, cards: group(event), old: event.beaten.sum, other: who(ctx, event.beaten.seat)});
    case "fail":
      return t("calcory.log.fail", {name, cards: group(event), old: event.marked.sum, other: who(ctx, event.marked.seat)});
    case "pass":
      return event.cells.length
        ? t("calcory.log.stuck", {name, cells: event.cells.join(", ")})
        : t("calcory.log.pass", {name});
    case "put_back":
      return t("calcory.log.put_back", {name, value: event.value, cell: event.cell,
        kept: event.kept.length ? event.kept.join(" ") : t("calcory.log.nothing")});
    case "collect":
      return event.count === 1
        ? t("calcory.log.collect_one", {name, value: event.values[0], cell: event.cells[0]})
        : t("calcory.log.collect", {name, cards: group(event)});
    case "end": {
      const won = event.cards_won.map((n, seat) => `${who(ctx, seat)} ${n}`).join(", ");
      return t("calcory.log.end", {won, names: event.winners.map((s) => who(ctx, s)).join(", ")});
    }
    default:
      return null;
  }
}

// The sixty cards of the deal make one line, on the latest card of the run: each card alone would fill the log.
function dealt(event, ctx) {
  const events = ctx.events || [];
  const at = events.indexOf(event);
  if (at < 0) return ctx.t("calcory.log.deal", {cell: event.cell});
  if (events[at + 1] && events[at + 1].type === "deal") return "";
  let first = at;
  while (first > 0 && events[first - 1].type === "deal") first--;
  if (first === at) return ctx.t("calcory.log.deal", {cell: event.cell});
  return ctx.t("calcory.log.dealt", {n: at - first + 1, first: events[first].cell, last: event.cell});
}

// -- styles, injected once ---------------------------------------------------------------------------------------

function injectStyle() {
  if (document.getElementById("calcory-style")) return;
  const style = document.createElement("style");
  style.id = "calcory-style";
  style.textContent = CSS;
  document.head.append(style);
}

const CSS = `
.game-calcory { overflow: visible; padding: .6rem; }
.game-calcory .seat-0 { --seat: var(--mu-blue); }
.game-calcory .seat-1 { --seat: var(--mu-red); }
.game-calcory .seat-2 { --seat: var(--mu-yellow); }
.game-calcory .seat-3 { --seat: var(--mu-green); }
.game-calcory .v-red { --v: var(--mu-red); }
.game-calcory .v-yellow { --v: #e3a900; }
.game-calcory .v-green { --v: var(--mu-green); }
.game-calcory .v-blue { --v: var(--mu-blue); }
.game-calcory .v-black { --v: var(--mu-black); }
.game-calcory .cal-marker { display: inline-block; width: .95rem; height: .95rem; border-radius: 50%; flex: 0 0 auto;
  background: radial-gradient(circle at 35% 30%, rgba(255,255,255,.55), transparent 55%), var(--seat);
  border: 2px solid #fff; box-shadow: 0 1px 2px rgba(0,0,0,.5); vertical-align: -.15rem; }
.game-calcory .cal-players { list-style: none; margin: 0 0 .5rem; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
.game-calcory .cal-player { flex: 1 1 9rem; min-width: 0; display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .45rem;
  background: rgba(0,0,0,.2); border: 2px solid transparent; border-radius: .6rem; padding: .25rem .45rem; font-size: .9rem; }
.game-calcory .cal-player.to-act { border-color: var(--gold); background: rgba(0,0,0,.32); }
.game-calcory .cal-player.me .name { text-decoration: underline; }
.game-calcory .cal-player .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; flex: 1 1 auto; }
.game-calcory .cal-home { display: inline-flex; gap: 2px; }
.game-calcory .cal-dot { width: .55rem; height: .55rem; border-radius: 50%; border: 1.5px solid rgba(255,255,255,.75); }
.game-calcory .cal-dot.home { background: var(--seat); border-color: #fff; }
.game-calcory .cal-dot.out { opacity: .45; }
.game-calcory .cal-won { display: inline-flex; align-items: center; gap: .25rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.game-calcory .cal-stack { width: .8rem; height: 1.05rem; border-radius: 2px; border: 1.5px solid #f4e7c5;
  background: repeating-linear-gradient(45deg, #8b2d24 0 3px, #a8392f 3px 6px); box-shadow: 2px 2px 0 #f4e7c5, 3px 3px 0 rgba(0,0,0,.3); }
.game-calcory .cal-out { font-size: .75rem; color: #e6f0ea; }
.game-calcory .cal-dealing { margin: .3rem 0; font-style: italic; }
.game-calcory .cal-news { background: rgba(0,0,0,.18); border-radius: .6rem; padding: .3rem .5rem; margin-bottom: .5rem; }
.game-calcory .cal-news h3 { margin: 0 0 .2rem; font-size: .85rem; color: #e6f0ea; font-weight: 600; }
.game-calcory .cal-news ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .25rem; }
.game-calcory .cal-news li { font-size: .85rem; color: #e6f0ea; }
.game-calcory .cal-news li + li { border-top: 1px solid rgba(255,255,255,.12); padding-top: .25rem; }
.game-calcory .cal-news li.newest { opacity: 1; font-size: .92rem; }
.game-calcory .cal-turn { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .45rem; }
.game-calcory .cal-turn-text { flex: 1 1 12rem; min-width: 0; }
.game-calcory .kind-bust .cal-turn-text, .game-calcory .kind-fail .cal-turn-text { color: #ffd8d2; }
.game-calcory .kind-thirteen .cal-turn-text, .game-calcory .kind-collect .cal-turn-text { color: #fff3c4; font-weight: 600; }
.game-calcory .cal-grid-wrap { container: calgrid / inline-size; }
.game-calcory .cal-grid { --gap: .25rem; display: grid; gap: var(--gap); align-items: center; justify-items: stretch;
  grid-template-columns: .9rem repeat(6, minmax(0, 1fr)); max-width: 23rem; margin: 0 auto; }
.game-calcory .cal-grid > * { grid-column: var(--r); grid-row: var(--c); }
.game-calcory .cal-label { font-size: .7rem; text-align: center; color: #cfe3d7; font-weight: 600; line-height: 1; }
.game-calcory .cal-cell { width: 100%; height: auto; aspect-ratio: 3 / 4; min-height: 0; min-width: 0; padding: 0; margin: 0;
  border-radius: .35rem; border-width: 2px; }
.game-calcory .cal-cell.back { border-color: #f4e7c5; }
.game-calcory button.cal-cell.flippable { cursor: pointer; transition: transform .08s; }
.game-calcory .cal-grid.flipping button.cal-cell.flippable { border-color: #ffe9a8; }
.game-calcory button.cal-cell.flippable:focus-visible { transform: translateY(-2px); outline: 3px solid var(--gold); outline-offset: 0; }
@media (hover: hover) {
  /* lit where it lies: lifted, the card would leave the pointer and flicker */
  .game-calcory button.cal-cell.flippable:hover:not(:disabled) { outline: 3px solid var(--gold); outline-offset: 0; }
}
.game-calcory .cal-empty { border: 2px dashed rgba(255,255,255,.3); background: rgba(0,0,0,.12); display: block; }
.game-calcory .cal-empty.waiting { border-color: rgba(255,255,255,.45); }
.game-calcory button.cal-empty.target { border: 2px dashed var(--gold); background: rgba(217,162,27,.25); cursor: pointer; }
.game-calcory button.cal-empty.target:hover:not(:disabled) { background: rgba(217,162,27,.5); }
.game-calcory .cal-face { background: #fffdf6; box-shadow: inset 0 0 0 3px #fffdf6, inset 0 0 0 5px var(--v), 0 1px 3px rgba(0,0,0,.4); border-color: #fffdf6; }
.game-calcory .cal-face .num { color: var(--v); font-weight: 800; line-height: 1; font-size: clamp(.95rem, 7cqw, 2.1rem); }
.game-calcory .cal-face.v-yellow .num { -webkit-text-stroke: 1px #6b4f00; }
.game-calcory .cal-cell.flipped { outline: 3px solid #fff; outline-offset: 1px; box-shadow: inset 0 0 0 3px #fffdf6, inset 0 0 0 5px var(--v), 0 0 12px 4px rgba(255, 236, 160, .85); }
.game-calcory .cal-cell.latest { transform: translateY(-2px); }
.game-calcory .cal-cell.marked { outline: 3px solid var(--seat); outline-offset: 1px; }
.game-calcory .cal-marker.on-card { position: absolute; top: -.35rem; right: -.35rem; width: 1.05rem; height: 1.05rem; }
.game-calcory .cal-bar { position: sticky; bottom: .3rem; z-index: 3; margin-top: .6rem; background: var(--felt-dark);
  border: 1px solid rgba(255,255,255,.18); border-radius: .6rem; padding: .45rem .55rem; display: grid; gap: .35rem;
  box-shadow: 0 -2px 10px rgba(0,0,0,.3); }
.game-calcory .cal-bar.mine { border-color: var(--gold); }
.game-calcory .cal-bar p { margin: 0; }
.game-calcory .cal-bar .moves { margin: 0; }
.game-calcory .cal-bar .move.go { background: var(--gold); color: var(--ink); border-color: #a87a0c; font-weight: 700; }
.game-calcory .cal-bar .move small { font-weight: 400; opacity: .85; margin-left: .2rem; }
.game-calcory .cal-line.strong { font-weight: 700; }
.game-calcory .cal-sumline { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .6rem; }
.game-calcory .cal-sum { display: inline-flex; align-items: baseline; gap: .25rem; background: #fffdf6; color: var(--ink);
  border-radius: .5rem; padding: .1rem .5rem; }
.game-calcory .cal-sum strong { font-size: 1.5rem; font-variant-numeric: tabular-nums; }
.game-calcory .cal-sum small { font-size: .75rem; color: var(--muted); }
.game-calcory .cal-flipped { display: inline-flex; flex-wrap: wrap; gap: .3rem; align-items: flex-end; }
.game-calcory .cal-mini-wrap { display: inline-flex; flex-direction: column; align-items: center; gap: 1px; }
.game-calcory .cal-mini { --card-w: 1.6rem; --card-h: 2.2rem; border-radius: .25rem; }
.game-calcory .cal-mini .num { font-size: 1rem; }
.game-calcory .cal-mini-cell { font-size: .65rem; line-height: 1; color: #cfe3d7; }
.game-calcory .cal-mini-wrap.latest .cal-mini { outline: 2px solid #fff; }
.game-calcory .cal-mini-wrap.broke .cal-mini { outline: 3px solid #ff6b5a; }
.game-calcory .cal-mini-wrap.broke .cal-mini-cell { color: #ffb3a8; font-weight: 700; }
.game-calcory .cal-zero { font-size: .8rem; color: #ffd8d2; }
.game-calcory .cal-muted { color: #cfe3d7; font-size: .85rem; }
.game-calcory .cal-target { display: flex; align-items: center; gap: .4rem; font-size: .9rem; }
.game-calcory .cal-hint { font-size: .85rem; color: #e6f0ea; }
.game-calcory .cal-held { display: flex; flex-wrap: wrap; gap: .35rem; }
.game-calcory button.cal-pick { --card-w: 2.2rem; --card-h: 3rem; min-height: 0; cursor: pointer; outline: 3px solid transparent; }
.game-calcory button.cal-pick .num { font-size: 1.3rem; }
.game-calcory button.cal-pick:hover:not(:disabled) { outline-color: rgba(217,162,27,.7); }
.game-calcory button.cal-pick.selected { outline: 3px solid var(--gold); transform: translateY(-3px); }
.game-calcory .cal-final { margin-top: .6rem; background: rgba(0,0,0,.2); border-radius: .6rem; padding: .4rem .6rem; }
.game-calcory .cal-final h3 { margin: .1rem 0 .3rem; }
.game-calcory .cal-final p { margin: .2rem 0; }
.game-calcory .cal-final table { border-collapse: collapse; width: 100%; }
.game-calcory .cal-final th { font-size: .8rem; font-weight: 600; color: #cfe3d7; text-align: left; padding: .1rem .3rem; }
.game-calcory .cal-final th.num { text-align: right; }
.game-calcory .cal-final td { padding: .2rem .3rem; border-bottom: 1px solid rgba(255,255,255,.15); }
.game-calcory .cal-final tr.winner { font-weight: 700; color: #fff3c4; }
@container calgrid (min-width: 30rem) {
  .game-calcory .cal-grid { grid-template-columns: 1rem repeat(10, minmax(0, 1fr)); max-width: 44rem; }
  .game-calcory .cal-grid > * { grid-column: var(--c); grid-row: var(--r); }
  .game-calcory .cal-face .num { font-size: clamp(.95rem, 4.4cqw, 2.1rem); }
}
`;
