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
        h("span", {class: "cal-home", title: t("calcory.markers_home", {n: home}), role: "img",
          "aria-label": t("calcory.markers_home", {n: home})},
          Array.from({length: 6}, (_, i) => h("span", {class: ["cal-dot", i < home ? "home" : "out"]}))),
        h("span", {class: "cal-won", title: plural(ctx, "calcory.won", won), role: "img", "aria-label": plural(ctx, "calcory.won", won),
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
    h("span", {class: "cal-sum", "data-test": "sum", role: "img", "aria-label": t("calcory.sum_label", {sum: table.sum})},
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

// A move in words, as the game's buttons name it (the coach's hints and reviews)
export function moveName(move, ctx) {
  const {t} = ctx;
  switch (move.type) {
    case "flip": return t("calcory.flip_at", {cell: move.cell});
    case "stop": return t("calcory.stop");
    case "pass": return t("calcory.pass");
    case "put_back": return t("calcory.cell.put_here", {cell: move.cell, value: move.value});
    default: return null;
  }
}
