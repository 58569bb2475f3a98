// Safarü and Safarü renversé in the browser: the table's face-up cards, the pile, the hands (one's own faces,
// the others' backs), the turn being played (card, catches, the catch being built), the last turns, each side's
// caught cards summarized, and the scoring of each game from its `game_end` event.
//
// Every step of a turn is a legal move of the engine (play, begin, take, close, pair, done, pick): a card of the
// hand or of the table, or a button.  The page computes no rule; it only counts what the view shows (unicorns,
// hedgehogs, babies, triangles printed on the cards, mu-1).

const COLOURS = {R: "red", Y: "yellow", G: "green", B: "blue", K: "black"};
const TRIANGLES = [1, 0, 1, 1, 1, 1, 2, 2, 1, 0];  // printed on the cards by number (mu-1)
const METHODS = ["add", "17", "pair"];

// Small marks drawn on the cards and in the summaries (safaru-1): a unicorn, a hedgehog, a baby.
const ICONS = {
  unicorn: `<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M19.5 22.5 18.6 13C18 9.3 16.3 6.6 14 5.3L14.6 2.2 12.3 4.6C11.3 4.7 10.4 5.1 9.8 5.7L4.2 1.2 8.3 7.3 3.4 12.7C2.6 13.6 3 15.2 4.4 15.3 5.6 15.4 7.4 14.3 9.2 13.4 9.6 16.5 8.4 19.6 7 22.5Z"/><circle cx="10.6" cy="8.6" r="1" fill="var(--sf-eye, #fff)"/></svg>`,
  hedgehog: `<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M2 18 3.2 13.4 1.6 12.6 4.4 11 3.8 8.6 6.6 8.8 7 6 9.2 7.4 10.6 4.8 12.2 7.2 14.4 5.2 15 8 17.6 7.4 17.2 10C19.6 10.8 21.4 13 22.6 15.4 23 16.4 22.3 17 21.5 16.9L19 17.4 18.6 19.6H16.6L16.4 18H8.6L8.2 19.6H6.2L6 18Z"/><circle cx="19" cy="13.6" r=".9" fill="var(--sf-eye, #fff)"/></svg>`,
  baby: `<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="13.5" r="8"/><path d="M12 5.5C10.5 4.5 11 2.5 13 2.6"/><circle cx="9" cy="12" r=".6" fill="currentColor"/><circle cx="15" cy="12" r=".6" fill="currentColor"/><circle cx="12" cy="17" r="1.8"/></svg>`,
};

// state kept across frames: which folded sections the player opened
const opened = new Set();

// -- small helpers -------------------------------------------------------------------------------------------

function icon(ctx, name, extra) {
  const span = ctx.h("span", {class: ["sf-icon", `sf-icon-${name}`, extra]});
  span.innerHTML = ICONS[name];
  return span;
}

function kinds(name) {
  const colour = name[0];
  const number = Number(name[1]);
  return {unicorn: colour === "B", hedgehog: colour === "Y", baby: number === 0, triangles: TRIANGLES[number]};
}

function cardLabel(ctx, name) {
  const {t} = ctx;
  const base = t("safaru.card", {colour: t(`safaru.colour.${COLOURS[name[0]]}`), number: name[1]});
  const k = kinds(name);
  const marks = [k.unicorn && t("safaru.unicorn"), k.hedgehog && t("safaru.hedgehog"), k.baby && t("safaru.baby")]
    .filter(Boolean);
  return marks.length ? `${base} (${marks.join(", ")})` : base;
}

function cardList(ctx, cards) {
  return cards.map((c) => cardLabel(ctx, c)).join(", ");
}

function number(value) {
  const rounded = Math.round(value * 100) / 100;
  return String(rounded).replace("-", "\u2212");
}

function signed(value) {
  if (value > 0) return `+${number(value)}`;
  return number(value);
}

function names(ctx, seats) {
  return seats.map((s) => ctx.names[s]).join(" & ");
}

function counts(cards) {
  const out = {cards: cards.length, unicorns: 0, hedgehogs: 0, babies: 0, triangles: 0};
  for (const name of cards) {
    const k = kinds(name);
    out.unicorns += k.unicorn ? 1 : 0;
    out.hedgehogs += k.hedgehog ? 1 : 0;
    out.babies += k.baby ? 1 : 0;
    out.triangles += k.triangles;
  }
  return out;
}

/** The sides of the game: opposite partners at 4 (unless individual), else one seat each. */
function sidesOf(ctx) {
  const table = ctx.view.table;
  if (table.partners.length) return table.partners;
  return table.hand_sizes.map((_, seat) => [seat]);
}

function isReverse(ctx) {
  return Boolean(ctx.view.options && ctx.view.options.renverse);
}

function folded(ctx, id, summary, content, openByDefault = false) {
  const {h} = ctx;
  const isOpen = opened.has(id) || (openByDefault && !opened.has(`closed:${id}`));
  return h("details", {class: "sf-fold", open: isOpen, ontoggle: (event) => {
    if (event.target.open) { opened.add(id); opened.delete(`closed:${id}`); } else { opened.delete(id); opened.add(`closed:${id}`); }
  }}, h("summary", {}, summary), content);
}

// -- cards ---------------------------------------------------------------------------------------------------

/** A card face; a button sending `entry` when given (a legal move), else a plain element. */
function card(ctx, name, options = {}) {
  const {h, t} = ctx;
  const k = kinds(name);
  const num = Number(name[1]);
  const label = cardLabel(ctx, name);
  const marks = h("span", {class: "sf-marks"},
    k.unicorn ? icon(ctx, "unicorn") : null, k.hedgehog ? icon(ctx, "hedgehog") : null,
    k.baby ? icon(ctx, "baby") : null);
  const content = [
    marks,
    h("span", {class: ["sf-num", (num === 6 || num === 9) && "sf-under"]}, String(num)),
    h("span", {class: "sf-tri", "aria-hidden": "true"}, "\u25b2".repeat(k.triangles)),
  ];
  const classes = ["card", "sf-card", `sf-${COLOURS[name[0]]}`, options.small && "small", options.extra];
  if (options.entry) {
    const action = t(options.action || "safaru.do.play", {card: label});
    return h("button", {class: [...classes, "playable"], "data-notation": options.entry.notation, "data-card": name,
      disabled: ctx.pending, title: action, "aria-label": action, onclick: () => ctx.play(options.entry)}, content);
  }
  return h("div", {class: classes, "data-card": name, title: label, role: "img", "aria-label": label}, content);
}

function backs(ctx, count, label) {
  const {h} = ctx;
  return h("span", {class: "sf-backs", role: "img", "aria-label": label, title: label},
    Array.from({length: count}, () => h("span", {class: "card back"})));
}

function cardsRow(ctx, cards, small = true) {
  return ctx.h("span", {class: "sf-row"}, cards.map((c) => card(ctx, c, {small})));
}

// -- the board -----------------------------------------------------------------------------------------------

/** The seats' names, told apart when two are the same (two bots of one level): "bot (medium) #3". */
function distinct(ctx) {
  const seen = {};
  for (const name of ctx.names) seen[name] = (seen[name] || 0) + 1;
  const names = ctx.names.map((name, seat) => (seen[name] > 1 ? `${name} #${seat + 1}` : name));
  return {...ctx, names};
}

function orList(ctx, words) {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")}${ctx.t("safaru.or")}${words[words.length - 1]}`;
}

export function render(root, plain) {
  const ctx = distinct(plain);
  const {h} = ctx;
  const table = ctx.view.table;
  const shown = new Set();  // the notations the page offers somewhere
  const over = ctx.view.terminal;
  const parts = [
    header(ctx),
    over ? scoringZone(ctx) : null,  // at the end, the scoring first
    seatsStrip(ctx),
    h("div", {class: "sf-middle"}, tableZone(ctx, shown), turnZone(ctx)),
    ctx.seat !== null && ctx.seat !== undefined && table.hand && !ctx.view.terminal ? handZone(ctx, shown) : null,
    actionsZone(ctx, shown),
    lastTurns(ctx),
    catchesZone(ctx),
    over ? null : scoringZone(ctx),
  ];
  root.append(...parts.filter(Boolean));  // the native append would write "null"
}

function header(ctx) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const options = ctx.view.options || {};
  const games = Number(options.games || 1);
  const target = Number(options.target || 0);
  const gameText = target
    ? t("safaru.game_target", {n: table.game_number, target})
    : games > 1 ? t("safaru.game_of", {n: table.game_number, games}) : null;
  const dealt = table.log.filter((e) => "deal" in e).length + (table.phase === "deal" ? 1 : 0);
  return h("div", {class: "sf-head"},
    h("div", {class: "sf-title"},
      h("strong", {}, t(isReverse(ctx) ? "safaru.title.reverse" : "safaru.title.main")),
      gameText ? h("span", {}, gameText) : null,
      !ctx.view.terminal && dealt ? h("span", {}, t("safaru.deal_n", {n: dealt})) : null),
    h("div", {class: "sf-goal"}, t(isReverse(ctx) ? "safaru.goal.reverse" : "safaru.goal.main")),
    table.partners.length
      ? h("div", {class: "sf-teams", "data-test": "teams"}, t("safaru.teams", {
        a: names(ctx, table.partners[0]), b: names(ctx, table.partners[1])}))
      : null);
}

function sideIndex(ctx, seat) {
  return sidesOf(ctx).findIndex((side) => side.includes(seat));
}

function seatsStrip(ctx) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const n = table.hand_sizes.length;
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  const first = me === null ? 0 : me;
  const order = Array.from({length: n}, (_, i) => (first + i) % n);
  const partnered = table.partners.length > 0;
  return h("div", {class: "sf-seats"}, order.map((seat) => {
    const count = table.hand_sizes[seat];
    const acting = ctx.view.to_act.includes(seat);
    const left = me !== null && seat === (me + 1) % n && n > 1;
    const tags = [];
    if (seat === me) tags.push(t("safaru.you"));
    else if (left && isReverse(ctx)) tags.push(t("safaru.your_left"));
    if (partnered && me !== null && seat !== me && sideIndex(ctx, seat) === sideIndex(ctx, me)) tags.push(t("safaru.partner"));
    if (seat === table.starter && !ctx.view.terminal) tags.push(t("safaru.starter"));
    return h("div", {class: ["sf-seat", acting && "acting", partnered && `sf-team-${sideIndex(ctx, seat)}`],
      "data-seat": seat, "data-test": seat === me ? "my-seat" : "other-seat"},
      h("div", {class: "sf-seat-name"}, h("span", {}, ctx.names[seat]),
        acting ? h("span", {class: "sf-dot", title: t("safaru.acting")}, "\u25cf") : null),
      tags.length ? h("div", {class: "sf-tags"}, tags.join(" \u00b7 ")) : null,
      ctx.view.terminal ? null : h("div", {class: "sf-seat-hand"},
        backs(ctx, count, t("safaru.hand_count", {n: count})),
        h("span", {class: "sf-count"}, t("safaru.in_hand", {n: count}))));
  }));
}

function tableZone(ctx, shown) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const onTable = table.table.map((name) => {
    const entry = ctx.find((m) => (m.type === "take" || m.type === "pair") && m.card === name);
    if (entry) {
      shown.add(entry.notation);
      return card(ctx, name, {entry, action: entry.move.type === "take" ? "safaru.do.take" : "safaru.do.pair"});
    }
    return card(ctx, name);
  });
  const pileLabel = t("safaru.pile_count", {n: table.pile});
  return h("div", {class: "zone sf-table", "data-test": "table"},
    h("h3", {}, t("safaru.table"), " ", h("span", {class: "sf-muted"}, t("safaru.n_cards", {n: table.table.length}))),
    h("div", {class: "sf-table-row"},
      h("div", {class: "cards sf-wild"}, onTable.length ? onTable : h("p", {class: "sf-empty"}, t("safaru.table_empty"))),
      h("div", {class: "sf-pile", "data-test": "pile", title: pileLabel, "aria-label": pileLabel, role: "img"},
        table.pile ? h("span", {class: "card back"}) : h("span", {class: "card sf-gone"}),
        h("span", {class: "sf-pile-count"}, String(table.pile)),
        h("span", {class: "sf-pile-label"}, t("safaru.pile")))));
}

function playEvent(ctx, turn) {
  for (let i = ctx.events.length - 1; i >= 0; i--) {
    const e = ctx.events[i];
    if (e.type === "play" && e.seat === turn.seat && e.card === turn.card) return e;
    if (e.type === "turn_end") return null;
  }
  return null;
}

function catchChips(ctx, catches) {
  const {h, t} = ctx;
  return catches.map((c) => h("span", {class: "sf-catch"},
    h("span", {class: "sf-method"}, t(`safaru.method.${c.method}`)), cardsRow(ctx, c.cards)));
}

function turnZone(ctx) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const turn = table.turn;
  if (!turn) return null;
  const who = ctx.names[turn.seat];
  const lines = [];
  if (table.phase === "pick") {
    const picker = ctx.view.to_act[0];
    const played = playEvent(ctx, turn);
    const can = played ? orList(ctx, played.can_catch.map((m) => t(`safaru.methodname.${m}`))) : "";
    lines.push(h("p", {class: "sf-pick", "data-test": "picker"},
      t(picker === ctx.seat ? "safaru.you_pick" : "safaru.picks", {name: ctx.names[picker], player: who}),
      can ? h("span", {class: "sf-muted"}, ` (${can})`) : null));
  }
  if (turn.picked_by !== null) {
    lines.push(h("p", {class: "sf-muted", "data-test": "picked-by"}, t("safaru.picked_by", {name: ctx.names[turn.picked_by]})));
  }
  if (turn.catches.length) lines.push(h("div", {class: "sf-catches"}, catchChips(ctx, turn.catches)));
  if (turn.building) {
    const b = turn.building;
    const sum = b.cards.reduce((s, c) => s + Number(c[1]), 0);
    const goal = b.method === "add" ? Number(turn.card[1]) : 17 - Number(turn.card[1]);
    lines.push(h("div", {class: "sf-building", "data-test": "building"},
      h("span", {class: "sf-method"}, t(`safaru.building.${b.method}`)),
      b.cards.length ? cardsRow(ctx, b.cards) : h("span", {class: "sf-muted"}, t("safaru.nothing_yet")),
      h("span", {class: "sf-sum"}, t("safaru.sum", {sum, goal}))));
  }
  if (turn.zero_required && (table.phase === "catch" || table.phase === "build")) {
    lines.push(h("p", {class: "sf-zero"}, icon(ctx, "baby"), t("safaru.zero_rule")));
  }
  return h("div", {class: "zone sf-turn", "data-test": "turn"},
    h("h3", {}, t("safaru.in_play", {name: who})),
    h("div", {class: "sf-turn-body"}, card(ctx, turn.card, {extra: "sf-played"}), h("div", {class: "sf-turn-lines"}, lines)));
}

function handZone(ctx, shown) {
  const {h, t} = ctx;
  const hand = ctx.view.table.hand;
  return h("div", {class: "zone sf-hand", "data-test": "hand"},
    h("h3", {}, t("safaru.your_hand")),
    h("div", {class: "cards"}, hand.length ? hand.map((name) => {
      const entry = ctx.find((m) => m.type === "play" && m.card === name);
      if (entry) shown.add(entry.notation);
      return card(ctx, name, {entry});
    }) : h("p", {class: "sf-empty"}, t("safaru.hand_empty"))));
}

function prompt(ctx) {
  const {t} = ctx;
  const table = ctx.view.table;
  const turn = table.turn;
  if (ctx.view.terminal) return null;
  if (!ctx.legal.length) {
    if (!ctx.view.to_act.length) return null;
    const acting = ctx.view.to_act[0];
    if (table.phase === "pick") return null;  // said in the turn zone
    return t("safaru.turn_of", {name: ctx.names[acting]});
  }
  const types = new Set(ctx.legal.map((e) => e.move.type));
  if (types.has("play")) return t(isReverse(ctx) ? "safaru.prompt.play_reverse" : "safaru.prompt.play");
  if (types.has("pick")) return t("safaru.prompt.pick", {player: ctx.names[turn.seat], card: cardLabel(ctx, turn.card)});
  if (table.phase === "build") return t(turn.building.method === "add" ? "safaru.prompt.add" : "safaru.prompt.17");
  if (table.phase === "pair") return t("safaru.prompt.pair");
  const parts = [t(turn.catches.length ? "safaru.prompt.catch_more" : "safaru.prompt.catch")];
  if (types.has("pair")) parts.push(t("safaru.prompt.pair_hint"));
  return parts.join(" ");
}

function moveButton(ctx, entry, label, primary = false) {
  return ctx.h("button", {class: ["move", primary && "primary"], "data-notation": entry.notation, disabled: ctx.pending,
    onclick: () => ctx.play(entry)}, label);
}

function actionsZone(ctx, shown) {
  const {h, t} = ctx;
  const buttons = [];
  for (const entry of ctx.legal) {
    const move = entry.move;
    let label = null;
    let primary = false;
    if (move.type === "begin") label = t(`safaru.begin.${move.method}`);
    else if (move.type === "pick") label = t(`safaru.pick.${move.method}`);
    else if (move.type === "close") { label = t("safaru.close"); primary = true; }
    else if (move.type === "done") label = t("safaru.done");
    else if (!shown.has(entry.notation)) label = entry.notation;  // never unreachable, even if unforeseen
    if (label !== null) {
      shown.add(entry.notation);
      buttons.push(moveButton(ctx, entry, label, primary));
    }
  }
  const text = prompt(ctx);
  if (!text && !buttons.length) return null;
  return h("div", {class: ["sf-actions", ctx.legal.length && "mine"], "data-test": "actions"},
    text ? h("p", {class: "sf-prompt"}, text) : null,
    buttons.length ? h("div", {class: "moves", role: "group", "aria-label": t("safaru.moves")}, buttons) : null);
}

function turnLine(ctx, entry) {
  const {h, t} = ctx;
  const who = ctx.names[entry.seat];
  const paired = entry.catches.some((c) => c.method === "pair");
  const tail = entry.released ? t("safaru.released") : t(paired ? "safaru.card_caught" : "safaru.card_stays");
  return h("li", {class: "sf-last"},
    h("span", {class: "sf-last-who"}, who),
    card(ctx, entry.card, {small: true}),
    entry.catches.length ? catchChips(ctx, entry.catches) : null,
    h("span", {class: "sf-muted"}, tail),
    entry.picked_by !== null ? h("span", {class: "sf-muted"}, t("safaru.picked_by", {name: ctx.names[entry.picked_by]})) : null);
}

function lastTurns(ctx) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const turns = table.log.filter((e) => "seat" in e);
  if (!turns.length) return null;
  const keep = Math.min(3, table.hand_sizes.length);
  return h("div", {class: "zone sf-history", "data-test": "last-play"},
    h("h3", {}, t("safaru.last_turns")),
    h("ol", {class: "sf-last-list"}, turns.slice(-keep).reverse().map((e) => turnLine(ctx, e))));
}

function badge(ctx, name, colour) {
  return ctx.h("span", {class: ["sf-badge", colour && `sf-${colour}`]}, icon(ctx, name));
}

function chip(ctx, label, mark, value) {
  const text = ctx.t("safaru.chip", {label, n: value});
  return ctx.h("span", {class: "sf-chip", title: text, role: "img", "aria-label": text}, mark,
    ctx.h("span", {class: "sf-chip-n"}, String(value)));
}

function catchesZone(ctx) {
  const {h, t} = ctx;
  const table = ctx.view.table;
  const multi = (ctx.view.options && (Number(ctx.view.options.games) > 1 || Number(ctx.view.options.target) > 0));
  const sides = sidesOf(ctx);
  const rows = sides.map((seats, index) => {
    const cards = seats.flatMap((s) => table.caught[s]);
    const c = counts(cards);
    const seat = seats[0];
    return h("div", {class: ["sf-side-sum", seats.includes(ctx.seat) && "sf-mine", table.partners.length && `sf-team-${index}`],
      "data-side": index},
    h("div", {class: "sf-side-top"},
      h("span", {class: "sf-side-name"}, seats.map((s) => h("span", {class: "sf-name-line"}, ctx.names[s]))),
      h("span", {class: "sf-side-points"},
        h("span", {class: "sf-points-label"}, t("safaru.col.points")), h("strong", {}, number(table.scores[seat])),
        multi ? h("span", {class: "sf-points-label"}, t("safaru.col.total")) : null,
        multi ? h("strong", {}, number(table.totals[seat])) : null)),
    h("div", {class: "sf-chips"},
      chip(ctx, t("safaru.col.cards"), h("span", {class: "sf-stack"}), c.cards),
      chip(ctx, t("safaru.unicorns"), badge(ctx, "unicorn", "blue"), c.unicorns),
      chip(ctx, t("safaru.hedgehogs"), badge(ctx, "hedgehog", "yellow"), c.hedgehogs),
      chip(ctx, t("safaru.babies"), badge(ctx, "baby", "white"), c.babies),
      chip(ctx, t("safaru.triangles"), h("span", {class: "sf-glyph"}, "\u25b2"), c.triangles)));
  });
  const detail = h("div", {class: "sf-caught-cards"}, sides.map((seats) => {
    const cards = seats.flatMap((s) => table.caught[s]);
    return h("div", {class: "sf-caught-side"}, h("span", {class: "sf-last-who"}, names(ctx, seats)),
      cards.length ? cardsRow(ctx, cards) : h("span", {class: "sf-muted"}, t("safaru.none")));
  }));
  return h("div", {class: "zone sf-summary", "data-test": "caught"},
    h("h3", {}, t(ctx.view.terminal ? "safaru.caught_final" : "safaru.caught")),
    h("div", {class: "sf-sides"}, rows),
    h("p", {class: "sf-muted sf-small"}, t(isReverse(ctx) ? "safaru.points_note.reverse" : "safaru.points_note.main")),
    folded(ctx, "caught-cards", t("safaru.show_caught"), detail));
}

// -- scoring -------------------------------------------------------------------------------------------------

const ITEMS = {
  main: [["most_unicorns", "unicorns", "unicorn", "blue"], ["most_hedgehogs", "hedgehogs", "hedgehog", "yellow"],
    ["babies", "babies", "baby", "white"], ["triangles", "triangles", null, null]],
  reverse: [["most_cards", "cards", null, null], ["most_hedgehogs", "hedgehogs", "hedgehog", "yellow"],
    ["triangles", "triangles", null, null]],
};

function breakdown(ctx, event) {
  const {h, t} = ctx;
  const reverse = isReverse(ctx);
  const items = ITEMS[reverse ? "reverse" : "main"];
  const best = (reverse ? Math.min : Math.max)(...event.sides.map((s) => s.score));
  return h("div", {class: "sf-breakdown"}, event.sides.map((side) => h("table", {
    class: ["sf-side-score", side.score === best && "sf-best"], "data-test": "side-score"},
  h("caption", {}, names(ctx, side.seats)),
  h("tbody", {},
    items.map(([point, count, iconName, colour]) => h("tr", {},
      h("th", {}, iconName ? badge(ctx, iconName, colour) : (count === "cards" ? h("span", {class: "sf-glyph"}, h("span", {class: "sf-stack"})) : h("span", {class: "sf-glyph"}, "\u25b2")),
        t(`safaru.item.${point}`)),
      h("td", {class: "num"}, String(side[count])),
      h("td", {class: "num"}, signed(side.points[point])))),
    reverse ? null : h("tr", {class: "sf-muted"}, h("th", {}, t("safaru.item.cards")), h("td", {class: "num"}, String(side.cards)), h("td", {})),
    h("tr", {class: "sf-total"}, h("th", {}, t("safaru.item.score")), h("td", {}), h("td", {class: "num"}, number(side.score)))))));
}

function totalsTable(ctx, ends) {
  const {h, t} = ctx;
  const last = ends[ends.length - 1];
  const sides = last.sides.map((s) => s.seats);
  return h("div", {class: "sf-scroll"}, h("table", {class: "sf-totals", "data-test": "totals"},
    h("thead", {}, h("tr", {}, h("th", {}, ""), ends.map((e) => h("th", {class: "num"}, t("safaru.game_short", {n: e.game}))),
      h("th", {class: "num"}, t("safaru.col.total")))),
    h("tbody", {}, sides.map((seats) => h("tr", {},
      h("td", {class: "sf-side-name"}, seats.map((s) => h("span", {class: "sf-name-line"}, ctx.names[s]))),
      ends.map((e) => h("td", {class: "num"}, number(e.scores[seats[0]]))),
      h("td", {class: "num sf-strong"}, number(last.totals[seats[0]])))))));
}

function scoringZone(ctx) {
  const {h, t} = ctx;
  const ends = ctx.events.filter((e) => e.type === "game_end");
  if (!ends.length) return null;
  const options = ctx.view.options || {};
  const match = ends.length > 1 || Number(options.games || 1) > 1 || Number(options.target || 0) > 0;
  const blocks = [];
  const latest = ends[ends.length - 1];
  const left = (e) => (e.left.length
    ? h("div", {class: "sf-left"}, h("span", {class: "sf-muted"}, t("safaru.left")), cardsRow(ctx, e.left)) : null);
  if (ctx.view.terminal) {
    blocks.push(h("h3", {}, t("safaru.scoring_of", {n: latest.game})), breakdown(ctx, latest), left(latest));
    for (const e of ends.slice(0, -1).reverse()) {
      blocks.push(folded(ctx, `end-game-${e.game}`, t("safaru.scoring_of", {n: e.game}), h("div", {}, breakdown(ctx, e), left(e))));
    }
  } else {
    blocks.push(folded(ctx, `game-${latest.game}`, t("safaru.scoring_previous", {n: latest.game}),
      h("div", {}, breakdown(ctx, latest), left(latest)), true));
  }
  if (match) blocks.push(h("h3", {}, t("safaru.match_totals")), totalsTable(ctx, ends),
    h("p", {class: "sf-muted sf-small"}, t(isReverse(ctx) ? "safaru.goal.reverse" : "safaru.goal.main")));
  return h("div", {class: "zone sf-scoring", "data-test": "scoring"}, blocks);
}

// -- the event log -------------------------------------------------------------------------------------------

export function describe(event, plain) {
  const ctx = distinct(plain);
  const {t} = ctx;
  const who = (seat) => ctx.names[seat] ?? `#${seat}`;
  const by = (method) => t(`safaru.by.${method}`);
  switch (event.type) {
    case "new_deal": {
      const hands = event.hands.filter((n) => n > 0);
      const same = hands.every((n) => n === hands[0]);
      const each = same ? t("safaru.log.each", {n: hands[0] || 0})
        : event.hands.map((n, s) => t("safaru.log.to", {n, name: who(s)})).join(", ");
      const onTable = event.table ? t("safaru.log.to_table", {n: event.table}) : "";
      return t("safaru.log.new_deal", {game: event.game, deal: event.deal + 1, each, table: onTable, name: who(event.starter)});
    }
    case "deal":
      if (event.card && event.to === ctx.seat) return t("safaru.log.you_get", {card: cardLabel(ctx, event.card)});
      if (event.card) return t("safaru.log.gets_card", {name: who(event.to), card: cardLabel(ctx, event.card)});
      return t("safaru.log.gets", {name: who(event.to)});
    case "table_deal":
      return t("safaru.log.table_deal", {card: cardLabel(ctx, event.card)});
    case "play":
      return event.can_catch.length
        ? t("safaru.log.play", {name: who(event.seat), card: cardLabel(ctx, event.card),
          methods: orList(ctx, event.can_catch.map((m) => t(`safaru.methodname.${m}`)))})
        : t("safaru.log.play_release", {name: who(event.seat), card: cardLabel(ctx, event.card)});
    case "pick":
      return t("safaru.log.pick", {name: who(event.seat), player: who(event.player), method: t(`safaru.methodname.${event.method}`)});
    case "begin":
      return t("safaru.log.begin", {name: who(event.seat), method: by(event.method)});
    case "take":
      return t("safaru.log.take", {name: who(event.seat), card: cardLabel(ctx, event.card)});
    case "catch":
      return t("safaru.log.catch", {name: who(event.seat), cards: cardList(ctx, event.cards), method: by(event.method)});
    case "done":
      return t("safaru.log.done", {name: who(event.seat)});
    case "turn_end": {
      if (event.released) return t("safaru.log.released", {name: who(event.seat), card: cardLabel(ctx, event.card)});
      const caught = event.catches.map((c) => `${t(`safaru.methodname.${c.method}`)} ${cardList(ctx, c.cards)}`).join(" ; ");
      return t(event.card_to === "caught" ? "safaru.log.turn_paired" : "safaru.log.turn_stays",
        {name: who(event.seat), caught, card: cardLabel(ctx, event.card)});
    }
    case "deal_end":
      return t("safaru.log.deal_end", {n: event.pile});
    case "game_end": {
      const sides = event.sides.map((s) => `${s.seats.map(who).join(" & ")} ${number(s.score)}`).join(", ");
      return t("safaru.log.game_end", {n: event.game, sides});
    }
    case "end": {
      const winners = event.winners.map(who).join(", ");
      return winners ? t("safaru.log.end", {names: winners}) : t("safaru.log.end_nobody");
    }
    default:
      return null;
  }
}

// A move in words, as the game's buttons name it (the coach's hints and reviews)
export function moveName(move, ctx) {
  const {t} = ctx;
  switch (move.type) {
    case "play": return t("safaru.do.play", {card: cardLabel(ctx, move.card)});
    case "take": return t("safaru.do.take", {card: cardLabel(ctx, move.card)});
    case "pair": return t("safaru.do.pair", {card: cardLabel(ctx, move.card)});
    case "begin": return t(`safaru.begin.${move.method}`);
    case "pick": return t(`safaru.pick.${move.method}`);
    case "close": return t("safaru.close");
    case "done": return t("safaru.done");
    default: return null;
  }
}
