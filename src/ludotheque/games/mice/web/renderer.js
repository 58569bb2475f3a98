// MICE to meet you at the table: the dice in the middle (red = bacon, yellow = cheese), every seat's mouse cards
// (all public, mice-1), cages (open piles, top card shown), the four dice cards 6/9/12/15 face up or down, nuts.
//
// Moves are made on the things themselves: toggle yellow dice then confirm (use), ± buttons on a die in use
// (a nut each), the mouse card of the sum (cage), a dice card (flip / unflip), the cage's top card (take back),
// and buttons for fail, pay and pass.  The view and the legal moves are the only sources: no rule is computed here
// beyond hints (which cards a sum could reach).

const DICE_CARDS = [6, 9, 12, 15];
// mice-2: the dice each dice card gives while face up
const CARD_DICE = {6: ["R", "Y"], 9: ["Y"], 12: ["Y"], 15: ["R"]};
// mice-8: the seed's table, best first, as the engine names it
const RATINGS = ["Génial !", "Formidable.", "Très bien.", "Bien joué.", "Pas mal.", "Peut mieux faire !",
  "Dommage, essaye encore !"];
// pips of a die face on a 3 × 3 grid, cells 0..8 row by row
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

// selection of yellow dice at the "select" step, kept across frames of the same decision
let selection = {key: null, yellow: new Set()};

export function render(root, ctx) {
  const {h} = ctx;
  const table = ctx.view.table;
  const tr = (key, params) => ctx.t(`mice.${key}`, params);
  const r = {ctx, h, tr, table, covered: new Set(), selectShown: false};

  const key = `${table.turn}:${table.phase}:${table.actor}`;
  if (selection.key !== key) selection = {key, yellow: new Set()};

  const n = table.seats.length;
  const me = ctx.seat;
  const order = me === null || me === undefined
    ? table.seats.map((_, i) => i)
    : Array.from({length: n - 1}, (_, k) => (me + 1 + k) % n);

  append(root, [
    phaseLine(r),
    table.solo || order.length === 0 ? null : h("div", {class: "others"}, order.map((seat) => seatPanel(r, seat, false))),
    middle(r),
    me === null || me === undefined ? null : seatPanel(r, me, true),
    turnLog(r),
  ]);
  fallbackMoves(r, root);
}

// -- the parts of the table ----------------------------------------------------------------------------------

function phaseLine(r) {
  const {h, tr, table, ctx} = r;
  const name = (seat) => ctx.names[seat] || `#${seat}`;
  let text;
  const mine = ctx.legal.length > 0;
  if (ctx.view.terminal) {
    text = tr("phase.over");
  } else if (table.phase === "roll") {
    text = tr("phase.roll", {name: name(table.active)});
  } else if (mine) {
    const solo = table.solo ? ".solo" : "";
    if (table.phase === "adjust") {
      const ready = ctx.find((m) => m.type === "cage" || m.type === "flip");
      const nudges = ctx.find((m) => m.type === "adjust");
      text = !ready ? tr(`phase.mine.adjust${solo}`)
        : nudges ? tr("phase.mine.adjust_ready") : tr("phase.mine.adjust_take");
    } else {
      text = tr(`phase.mine.${table.phase}${table.phase === "select" ? "" : solo}`);
    }
  } else {
    const actorName = name(table.actor);
    const passive = table.actor !== table.active;
    text = tr(`phase.other.${table.phase}${passive && !table.solo ? ".passive" : ""}`, {name: actorName});
  }
  const turn = tr(table.solo ? "turn.solo" : "turn", {turn: table.turn, name: name(table.active)});
  return h("div", {class: ["mice-phase", mine && !ctx.view.terminal && "mine"], "data-test": "mice-phase"},
    h("span", {class: "turn-no"}, turn), h("span", {class: "task"}, text));
}

function seatPanel(r, seat, mine) {
  const {h, tr, table, ctx} = r;
  const info = table.seats[seat];
  const active = seat === table.active && !ctx.view.terminal;
  const deciding = seat === table.actor && !ctx.view.terminal;
  const winner = ctx.view.terminal && (ctx.view.winners || []).includes(seat) && !table.solo;
  const badges = [
    mine ? h("span", {class: "badge me"}, ctx.t("seat.you")) : null,
    active && !table.solo ? h("span", {class: "badge active"}, tr("badge.active")) : null,
    deciding && seat !== table.active ? h("span", {class: "badge passive"}, tr("badge.passive")) : null,
    winner ? h("span", {class: "badge winner"}, tr("badge.winner")) : null,
  ];
  return h("section", {class: ["seat-panel", mine && "mine", active && "active", deciding && "deciding"],
    "data-seat": seat, "aria-label": ctx.names[seat]},
  h("header", {},
    h("span", {class: "who", style: `--seat: ${seatColour(seat)}`}, ctx.names[seat]), badges,
    h("span", {class: "spacer"}),
    nuts(r, info.nuts, tr("nuts.of", {n: info.nuts})),
    table.solo
      ? h("span", {class: "total"}, tr("total.solo", {n: info.hand.length}))
      : h("span", {class: "total", title: tr("total.title")}, tr("total", {total: info.hand_total}))),
  hand(r, seat, info, mine),
  h("div", {class: "row"},
    cage(r, seat, info, mine),
    diceCards(r, seat, info, mine),
    mine ? h("div", {class: "rolls", title: tr("rolls.title")},
      h("span", {class: "label"}, tr("rolls")),
      info.red_dice + info.yellow_dice
        ? h("span", {class: "minis"}, miniDice(h, info.red_dice, info.yellow_dice))
        : h("span", {class: "none"}, tr("rolls.none"))) : null));
}

function hand(r, seat, info, mine) {
  const {h, tr, ctx} = r;
  const held = new Set(info.hand);
  const recent = recentCards(ctx, seat, "take_back");
  const slots = [];
  for (let card = 1; card <= 18; card++) {
    if (!held.has(card)) {
      slots.push(h("div", {class: "slot", "aria-hidden": "true"}, String(card)));
      continue;
    }
    const entry = mine ? ctx.find((m) => m.type === "cage" && m.card === card) : undefined;
    const classes = ["card", "mouse", entry && "playable", recent.has(card) && "fresh"];
    const label = tr("card.mouse", {card});
    slots.push(entry
      ? h("button", {class: classes, style: `--seat: ${seatColour(seat)}`, "data-notation": entry.notation,
        disabled: ctx.pending, title: tr("card.cage_it", {card}), "aria-label": tr("card.cage_it", {card}),
        onclick: () => ctx.play(entry)}, h("span", {class: "v"}, String(card)))
      : h("div", {class: classes, style: `--seat: ${seatColour(seat)}`, title: label, role: "img", "aria-label": label},
        h("span", {class: "v"}, String(card))));
  }
  return h("div", {class: ["hand", !mine && "compact"], role: "group", "aria-label": tr("hand.label", {n: info.hand.length})}, slots);
}

function cage(r, seat, info, mine) {
  const {h, tr, ctx} = r;
  const pile = info.cage;
  const entry = mine ? ctx.find((m) => m.type === "take_back") : undefined;
  const fresh = recentCards(ctx, seat, "cage");
  let top;
  if (!pile.length) {
    top = h("div", {class: "pile empty"}, tr("cage.empty"));
  } else {
    const card = pile[pile.length - 1];
    const under = pile.slice(-3, -1).map((c, i) => h("div", {class: "under", style: `--i: ${2 - i - (pile.length >= 3 ? 0 : 1)}`}));
    const face = [h("span", {class: "v"}, String(card))];
    const classes = ["card", "mouse", "top", entry && "playable", fresh.has(card) && "fresh"];
    top = h("div", {class: "pile"}, under, entry
      ? h("button", {class: classes, style: `--seat: ${seatColour(seat)}`, "data-notation": entry.notation,
        disabled: ctx.pending, title: tr("cage.take_back", {card}), "aria-label": tr("cage.take_back", {card}),
        onclick: () => ctx.play(entry)}, face)
      : h("div", {class: classes, style: `--seat: ${seatColour(seat)}`, title: tr("cage.top", {card})}, face));
  }
  return h("div", {class: "cage", role: "group", "aria-label": tr("cage.label", {n: pile.length})},
    h("span", {class: "label"}, tr("cage"), pile.length ? h("span", {class: "count"}, ` ×${pile.length}`) : null), top);
}

function diceCards(r, seat, info, mine) {
  const {h, tr, ctx} = r;
  const fresh = new Set([...recentCards(ctx, seat, "flip"), ...recentCards(ctx, seat, "unflip")]);
  const cards = DICE_CARDS.map((value) => {
    const up = info.face_up.includes(value);
    const entry = mine
      ? ctx.find((m) => (up ? m.type === "flip" : m.type === "unflip") && m.card === value)
      : undefined;
    const label = tr(up ? "dicecard.up" : "dicecard.down", {card: value});
    const action = entry ? tr(up ? "dicecard.flip" : "dicecard.unflip", {card: value}) : label;
    const body = up
      ? [h("span", {class: "v"}, String(value)), h("span", {class: "minis"}, CARD_DICE[value].map((c) => miniDie(h, c)))]
      : [h("span", {class: "v"}, String(value))];
    const classes = ["card", "small", "dicecard", !up && "back", entry && "playable", fresh.has(value) && "fresh"];
    return entry
      ? h("button", {class: classes, "data-notation": entry.notation, disabled: ctx.pending, title: action,
        "aria-label": action, onclick: () => ctx.play(entry)}, body)
      : h("div", {class: classes, title: label, role: "img", "aria-label": label}, body);
  });
  return h("div", {class: "dicecards"}, h("span", {class: "label"}, tr("dicecards")), h("div", {class: "cards"}, cards));
}

function middle(r) {
  const {h, tr, table, ctx} = r;
  const mine = ctx.legal.length > 0;
  const selecting = mine && table.phase === "select";
  const adjusting = mine && table.phase === "adjust";
  const dice = table.dice.map((die) => dieView(r, die, selecting, adjusting));
  const place = table.solo ? tr("middle.solo") : tr("middle.supply");
  return h("section", {class: "middle", "aria-label": tr("middle.label")},
    h("div", {class: "middle-head"},
      h("span", {class: "label"}, tr("middle.label")), h("span", {class: "spacer"}),
      h("span", {class: "supply", title: place}, h("span", {class: "label"}, place), nuts(r, table.supply, place))),
    h("div", {class: "tray", "data-test": "mice-dice"}, dice.length ? dice : h("span", {class: "nodice"}, tr("dice.none"))),
    sumLine(r, selecting),
    actions(r, selecting));
}

function dieView(r, die, selecting, adjusting) {
  const {h, tr, ctx} = r;
  const red = die.die.startsWith("R");
  const name = dieName(tr, die.die);
  const chosen = selecting && (red || selection.yellow.has(die.die));
  const classes = ["die", red ? "red" : "yellow", die.value === null && "unrolled", die.using && "using",
    die.active_used && !die.using && "taken", die.pool && !die.using && "pool", chosen && "chosen"];
  const face = pips(h, die.value);
  let body;
  if (selecting && !red) {
    r.selectShown = true;
    const on = selection.yellow.has(die.die);
    body = h("button", {class: classes, "data-step": `toggle ${die.die}`, "aria-pressed": on ? "true" : "false",
      disabled: ctx.pending, title: tr(on ? "die.unpick" : "die.pick", {die: name}),
      "aria-label": tr("die.label", {die: name, value: die.value}),
      onclick: () => {
        if (selection.yellow.has(die.die)) selection.yellow.delete(die.die); else selection.yellow.add(die.die);
        redraw(ctx);
      }}, face);
  } else {
    body = h("div", {class: classes, role: "img",
      "aria-label": die.value === null ? name : tr("die.label", {die: name, value: die.value}),
      title: red && selecting ? tr("die.red_always") : name}, face);
  }
  const tag = ctx.view.terminal ? "" : selecting
    ? (red ? tr("die.tag.always") : selection.yellow.has(die.die) ? tr("die.tag.picked") : "")
    : die.using ? tr("die.tag.using") : die.active_used ? tr("die.tag.taken") : die.pool ? tr("die.tag.pool") : "";
  let plus = null;
  let minus = null;
  if (adjusting && die.using) {
    const up = ctx.find((m) => m.type === "adjust" && m.die === die.die && m.change === 1);
    const down = ctx.find((m) => m.type === "adjust" && m.die === die.die && m.change === -1);
    plus = nudge(r, up, "+1", tr("die.plus", {die: name}));
    minus = nudge(r, down, "−1", tr("die.minus", {die: name}));
  }
  return h("div", {class: "die-box"}, plus, body, minus, h("span", {class: "tag"}, tag));
}

function nudge(r, entry, text, title) {
  const {h, ctx} = r;
  if (!entry) return h("span", {class: "nudge none", "aria-hidden": "true"});
  return h("button", {class: "nudge", "data-notation": entry.notation, disabled: ctx.pending, title, "aria-label": title,
    onclick: () => ctx.play(entry)}, text, h("span", {class: "nut tiny", "aria-hidden": "true"}));
}

function sumLine(r, selecting) {
  const {h, tr, table, ctx} = r;
  const values = (names) => table.dice.filter((d) => names.includes(d.die)).map((d) => d.value);
  if (selecting) {
    const names = table.dice.filter((d) => d.die.startsWith("R") || selection.yellow.has(d.die)).map((d) => d.die);
    const chosen = values(names);
    const info = table.seats[ctx.seat];
    const reach = reachableCards(chosen, info.nuts, targetsOf(info, table.solo));
    const total = chosen.reduce((a, b) => a + b, 0);
    const hint = !reach.length ? tr("sum.none")
      : reach.includes(total) ? tr("sum.direct", {card: total})
        : tr("sum.with_nuts", {cards: reach.join(", ")});
    return h("p", {class: "sum", "data-test": "mice-sum"}, tr("sum.chosen", {values: chosen.join(" + "), sum: total}),
      h("span", {class: "hint"}, hint));
  }
  if (table.sum !== null) {
    return h("p", {class: "sum", "data-test": "mice-sum"},
      tr("sum.using", {name: ctx.names[table.actor], values: values(table.using).join(" + "), sum: table.sum}));
  }
  if (table.pool.length && table.phase === "pay") {
    const key = table.solo ? "sum.pool.solo" : table.failed ? "sum.pool.all" : "sum.pool";
    return h("p", {class: "sum", "data-test": "mice-sum"}, tr(key, {values: values(table.pool).join(" + "), sum: table.pool_sum}));
  }
  if (table.failed && !ctx.view.terminal) {
    return h("p", {class: "sum failed"}, tr("sum.failed", {name: ctx.names[table.active]}));
  }
  return null;
}

function actions(r, selecting) {
  const {h, tr, table, ctx} = r;
  const buttons = [];
  if (selecting) {
    const want = [...selection.yellow].sort().join("+");
    const entry = ctx.find((m) => m.type === "use" && [...m.yellow].sort().join("+") === want);
    const values = table.dice.filter((d) => d.die.startsWith("R") || selection.yellow.has(d.die)).map((d) => d.value);
    const total = values.reduce((a, b) => a + b, 0);
    buttons.push(entry
      ? h("button", {class: "primary", "data-notation": entry.notation, disabled: ctx.pending,
        onclick: () => ctx.play(entry)}, tr("btn.use", {sum: total}))
      : h("button", {class: "primary", disabled: true}, tr("btn.use_none")));
    if (selection.yellow.size) {
      buttons.push(h("button", {"data-step": "clear", disabled: ctx.pending,
        onclick: () => { selection.yellow.clear(); redraw(ctx); }}, tr("btn.clear")));
    }
  }
  const pay = ctx.find((m) => m.type === "pay");
  if (pay) {
    let text;
    if (table.solo) text = tr("btn.pay.solo", {sum: table.pool_sum});
    else if (table.supply > 0) text = tr("btn.pay.supply", {sum: table.pool_sum, name: ctx.names[table.active]});
    else text = tr("btn.pay.own", {sum: table.pool_sum, name: ctx.names[table.active]});
    buttons.push(h("button", {class: "primary", "data-notation": pay.notation, disabled: ctx.pending,
      onclick: () => ctx.play(pay)}, h("span", {class: "nut", "aria-hidden": "true"}), text));
  }
  const pass = ctx.find((m) => m.type === "pass");
  if (pass) {
    buttons.push(h("button", {"data-notation": pass.notation, disabled: ctx.pending, onclick: () => ctx.play(pass)},
      tr("btn.pass")));
  }
  const fail = ctx.find((m) => m.type === "fail");
  if (fail) {
    buttons.push(h("button", {class: "danger", "data-notation": fail.notation, disabled: ctx.pending,
      title: tr(table.solo ? "btn.fail.title.solo" : "btn.fail.title"), onclick: () => ctx.play(fail)}, tr("btn.fail")));
  }
  return buttons.length ? h("div", {class: "moves", role: "group", "aria-label": ctx.t("table.your_moves")}, buttons) : null;
}

// The end panel's result (table.js and replay.js put it in place of their plain ranking): the final count with its
// column headers and the rule that the fewest points win, or the solo game's rating.
export function summary(ctx) {
  const tr = (key, params) => ctx.t(`mice.${key}`, params);
  const r = {ctx, h: ctx.h, tr, table: ctx.view.table};
  const winners = ctx.view.winners || [];
  const title = r.table.solo ? null : ctx.h("h2", {}, winners.length
    ? ctx.t("end.winners", {names: winners.map((seat) => ctx.names[seat] || `#${seat}`).join(", ")})
    : ctx.t("end.no_winner"));
  return ctx.h("div", {class: "game-mice"}, title, finalCount(r));
}

function finalCount(r) {
  const {h, tr, table, ctx} = r;
  if (table.solo) {
    const rank = Math.max(0, RATINGS.indexOf(table.rating));
    const info = table.seats[0];
    return h("section", {class: "final", "data-test": "mice-final"},
      h("h3", {}, tr("final.solo.title")),
      h("p", {class: "rating", "data-test": "mice-rating"}, tr(`rating.${rank}`)),
      h("p", {}, tr("final.solo.line", {cards: info.hand.length, up: info.face_up.length})),
      h("table", {}, h("tbody", {}, RATINGS.map((_, i) => h("tr", {class: i === rank ? "reached" : null},
        h("td", {}, tr(`rating.cond.${i}`)), h("td", {}, tr(`rating.${i}`)))))));
  }
  const seats = table.seats.map((info, seat) => ({seat, total: info.hand_total, down: info.face_down.length, nuts: info.nuts}));
  seats.sort((a, b) => a.total - b.total || b.down - a.down || b.nuts - a.nuts || a.seat - b.seat);
  const winners = ctx.view.winners || [];
  const best = seats[0];
  const rivals = seats.filter((s) => s.seat !== best.seat && s.total === best.total);
  let why = null;
  if (rivals.length) {
    if (winners.length > 1) why = tr("final.shared");
    else if (rivals.every((s) => s.down !== best.down)) why = tr("final.by_down");
    else why = tr("final.by_nuts");
  }
  return h("section", {class: "final", "data-test": "mice-final"},
    h("h3", {}, tr("final.title")),
    h("p", {class: "note", "data-test": "mice-rule"}, tr("final.rule")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, tr("final.player")),
      h("th", {class: "num"}, tr("final.total")), h("th", {class: "num"}, tr("final.down")),
      h("th", {class: "num"}, tr("final.nuts")))),
    h("tbody", {}, seats.map((s, i) => h("tr", {class: winners.includes(s.seat) ? "win" : null},
      h("td", {}, winners.includes(s.seat) ? "★" : String(i + 1)), h("td", {}, ctx.names[s.seat]),
      h("td", {class: "num"}, String(s.total)), h("td", {class: "num"}, String(s.down)),
      h("td", {class: "num"}, String(s.nuts)))))),
    why ? h("p", {class: "note why"}, why) : null);
}

function turnLog(r) {
  const {h, tr, ctx} = r;
  const events = ctx.events;
  const starts = [];
  events.forEach((e, i) => { if (e.type === "turn") starts.push(i); });
  if (!starts.length) return null;
  const current = starts[starts.length - 1];
  const parts = [];
  const line = (label, list, withDice) => {
    const text = turnSummary(list, ctx);
    const rolls = withDice ? list.filter((e) => e.type === "roll") : [];
    if (!text && !rolls.length) return null;
    return h("p", {}, h("strong", {}, label), " ",
      rolls.length ? h("span", {class: "minis rolled"}, rolls.map((e) => miniDie(h, e.die[0], e.value))) : null,
      rolls.length ? " " : null, text);
  };
  const first = events[current];
  parts.push(line(tr("log.this_turn", {turn: first.turn}), events.slice(current), false));
  if (starts.length > 1) {
    const prev = starts[starts.length - 2];
    parts.push(line(tr("log.last_turn", {turn: events[prev].turn, name: ctx.names[events[prev].seat]}),
      events.slice(prev, current), true));
  }
  const shown = parts.filter(Boolean);
  if (!shown.length) return null;
  return h("div", {class: "turn-log", "aria-live": "polite"}, shown);
}

// A turn in a few words: "Bo: 5 + 3 + 3 = 11 → mouse 11 · Ana pays: 6 + 2 = 8, yellow 1 6→5 → mouse 7".
function turnSummary(list, ctx) {
  const tr = (key, params) => ctx.t(`mice.${key}`, params);
  const name = (seat) => ctx.names[seat] || `#${seat}`;
  const values = (e) => `${e.values.join(" + ")} = ${e.sum}`;
  const out = [];
  const add = (text) => out.push(text);
  const attach = (text) => { if (out.length) out[out.length - 1] += ` ${text}`; else out.push(text); };
  for (const e of list) {
    switch (e.type) {
      case "use": add(tr("short.use", {name: name(e.seat), values: values(e)})); break;
      case "pay": add(tr(e.nut.to === "middle" ? "short.pay.solo" : "short.pay", {name: name(e.seat), values: values(e)})); break;
      case "adjust": attach(tr("short.adjust", {die: dieName(tr, e.die), from: e.from, to: e.to})); break;
      case "cage": attach(tr("short.cage", {card: e.card})); break;
      case "flip": attach(tr("short.flip", {card: e.card})); break;
      case "fail": add(tr(e.forced ? "short.fail.forced" : "short.fail", {name: name(e.seat)})); break;
      case "take_back": add(tr("short.take_back", {name: name(e.seat), card: e.card})); break;
      case "unflip": add(tr("short.unflip", {name: name(e.seat), card: e.card})); break;
      case "pass": add(tr("short.pass", {name: name(e.seat)})); break;
      case "bonus_nut": add(tr("short.bonus", {name: name(e.seat)})); break;
      default: break;
    }
  }
  return out.join(" · ");
}

// Every legal move must be reachable: any the drawing above did not offer gets a plain button here.
function fallbackMoves(r, root) {
  const {h, ctx} = r;
  const shown = new Set([...root.querySelectorAll("[data-notation]")].map((e) => e.dataset.notation));
  const missing = ctx.legal.filter((entry) => !shown.has(entry.notation) && !(r.selectShown && entry.move.type === "use"));
  if (!missing.length) return;
  root.append(h("div", {class: "moves"}, missing.map((entry) => h("button", {class: "move", "data-notation": entry.notation,
    disabled: ctx.pending, onclick: () => ctx.play(entry)}, entry.notation))));
}

// -- small pieces --------------------------------------------------------------------------------------------

function append(parent, children) {
  for (const child of children) if (child) parent.append(child);
}

function redraw(ctx) {
  // a selection step changes only this page: draw the board again with the same frame
  const board = document.querySelector("section.board.game-mice");
  if (!board) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.step : null;
  while (board.firstChild) board.removeChild(board.firstChild);
  render(board, ctx);
  if (focused) {
    const again = board.querySelector(`[data-step="${focused}"]`);
    if (again) again.focus();
  }
}

function pips(h, value) {
  const on = new Set(PIPS[value] || []);
  return h("span", {class: "pips", "aria-hidden": "true"},
    Array.from({length: 9}, (_, i) => h("i", {class: on.has(i) ? "p" : null})),
    value === null ? h("span", {class: "q"}, "?") : null);
}

function miniDie(h, colour, value) {
  return h("span", {class: ["mini", colour === "R" ? "red" : "yellow"]}, value ? String(value) : "");
}

function miniDice(h, red, yellow) {
  return [...Array(red).fill("R"), ...Array(yellow).fill("Y")].map((c) => miniDie(h, c));
}

function nuts(r, count, title) {
  const {h} = r;
  return h("span", {class: ["nuts", count === 0 && "zero"], title, role: "img", "aria-label": title},
    h("span", {class: "nut", "aria-hidden": "true"}), h("span", {class: "n"}, String(count)));
}

function dieName(tr, name) {
  return tr(name[0] === "R" ? "die.red" : "die.yellow", {n: name.slice(1)});
}

function seatColour(seat) {
  return ["#2f6fc0", "#8e44ad", "#d35400", "#c2185b", "#00897b"][seat % 5];
}

function targetsOf(info, solo) {
  const set = new Set(info.hand);
  if (!solo) for (const v of info.face_up) if (v !== 6 || info.face_up.length === 1) set.add(v);
  return set;
}

function reachableCards(values, nutCount, targets) {
  if (!values.length) return [];
  const total = values.reduce((a, b) => a + b, 0);
  const count = values.length;
  const low = total - Math.min(nutCount, total - count);
  const high = total + Math.min(nutCount, 6 * count - total);
  return [...targets].filter((v) => v >= low && v <= high).sort((a, b) => a - b);
}

function recentCards(ctx, seat, type) {
  return new Set(ctx.recent.filter((e) => e.type === type && e.seat === seat).map((e) => e.card));
}

// -- the event log -------------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const tr = (key, params) => ctx.t(`mice.${key}`, params);
  const name = (seat) => (ctx.names && ctx.names[seat]) || `#${seat}`;
  const place = (where) => (typeof where === "number" ? name(where) : tr(`place.${where}`));
  const values = (e) => `${e.values.join(" + ")} = ${e.sum}`;
  const who = "seat" in event ? name(event.seat) : "";
  switch (event.type) {
    case "turn":
      return tr("ev.turn", {turn: event.turn, name: who, dice: diceCount(tr, event.red_dice, event.yellow_dice)});
    case "roll":
      return tr("ev.roll", {name: who, die: dieName(tr, event.die), value: event.value});
    case "use":
      return tr("ev.use", {name: who, values: values(event)});
    case "fail":
      return tr(event.forced ? "ev.fail.forced" : "ev.fail", {name: who});
    case "nothing_to_undo":
      return tr("ev.nothing_to_undo", {name: who});
    case "adjust":
      return tr("ev.adjust", {name: who, place: place(event.nut.to), die: dieName(tr, event.die), from: event.from,
        to: event.to, sum: event.sum});
    case "cage":
      return tr("ev.cage", {name: who, card: event.card});
    case "flip":
      return tr("ev.flip", {name: who, card: event.card});
    case "take_back":
      return tr("ev.take_back", {name: who, card: event.card});
    case "unflip":
      return tr("ev.unflip", {name: who, card: event.card});
    case "pool": {
      const solo = ctx.view && ctx.view.table && ctx.view.table.solo;
      return tr(solo ? "ev.pool.solo" : event.failed ? "ev.pool.all" : "ev.pool", {name: who, values: values(event)});
    }
    case "cannot_use":
      return tr(`ev.cannot_use.${event.reason}`, {name: who});
    case "pass":
      return tr("ev.pass", {name: who});
    case "pay": {
      const nut = event.nut;
      if (nut.to === "middle") return tr("ev.pay.solo", {name: who, values: values(event)});
      if (nut.from === "supply") return tr("ev.pay.supply", {name: who, values: values(event), active: name(nut.to)});
      return tr("ev.pay.own", {name: who, values: values(event), active: name(nut.to)});
    }
    case "bonus_nut":
      return tr("ev.bonus_nut", {name: who, sum: event.sum});
    case "game_over": {
      if ("rating" in event) {
        const rank = Math.max(0, RATINGS.indexOf(event.rating));
        return tr("ev.over.solo", {cards: event.cards_left, up: event.face_up, rating: tr(`rating.${rank}`)});
      }
      const totals = event.totals.map((total, seat) => `${name(seat)} ${total}`).join(", ");
      return tr("ev.over", {totals, names: event.winners.map(name).join(", ")});
    }
    default:
      return null;
  }
}

function diceCount(tr, red, yellow) {
  return [
    red ? tr(red === 1 ? "count.red.one" : "count.red", {n: red}) : null,
    yellow ? tr(yellow === 1 ? "count.yellow.one" : "count.yellow", {n: yellow}) : null,
  ].filter(Boolean).join(tr("count.and"));
}

// A move in words, as the game's buttons name it (the coach's hints and reviews)
export function moveName(move, ctx) {
  const tr = (key, params) => ctx.t(`mice.${key}`, params);
  const die = (name) => tr(name[0] === "R" ? "die.red" : "die.yellow", {n: name.slice(1)});
  switch (move.type) {
    case "use": return tr("btn.use_dice", {dice: [tr("die.reds"), ...move.yellow.map(die)].join(", ")});
    case "cage": return tr("card.cage_it", {card: move.card});
    case "flip": return tr("dicecard.flip", {card: move.card});
    case "unflip": return tr("dicecard.unflip", {card: move.card});
    case "take_back": return tr("cage.take_back", {card: move.card});
    case "adjust": return tr(move.change > 0 ? "die.plus" : "die.minus", {die: die(move.die)});
    case "pay": return tr("btn.pay.short");
    case "pass": return tr("btn.pass");
    case "fail": return tr("btn.fail");
    default: return null;
  }
}
