// Rummü at the table (seed 004, DECISIONS rummu-1..11): the others' hands as card backs, the draw pile and the
// fanned discard pile, the numbered combinations on the table with their owners, the combination being laid, the
// person's hand sorted by colour then number, and at the end of each hand the count of the `score` event.
//
// Everything drawn comes from ctx.view.table (view.py TABLE_SCHEMA) and ctx.legal; the page computes no rule.
// How a move is made:
//   draw ........ the draw pile (one click)
//   take k ...... the k-th card of the discard pile counted from its top (that card and every card above it)
//   start C ..... select C in the hand, then the dashed "new combination" slot on the table (or its button)
//   add C ....... while a combination is being laid, the hand's cards that fit are played with one click
//   close/cancel  the two buttons of the combination being laid
//   discard C ... select C, then the discard pile (or the "discard" button under the hand)
//   put C n ..... select C, then combination n (it shows where C would go)
//   swap C n .... select C, then combination n (its joker is marked); when both fit, the slot and the joker are
//                 two separate buttons

const COLOUR_KEYS = {R: "red", Y: "yellow", G: "green", B: "blue", K: "black"};
const SORT_ORDER = "RGBKY";  // by colour then number, the yellow jokers last
const SHAPES = {R: "●", Y: "★", G: "▲", B: "■", K: "◆"};  // a second cue besides the colour
const FRESH = new Set(["close", "put", "swap"]);
const WORTH_TELLING = new Set(["take", "draw", "close", "put", "swap", "cancel", "discard", "reshuffle", "pile_empty",
  "flip"]);

let selected = null;  // {card, index}: the card chosen in the sorted hand, before its target
const openCounts = new Map();  // hand number -> whether the person left that hand's count open

// -- small helpers ------------------------------------------------------------------------------------------

// A seat's name; seats that share one (bots of one level) get their seat number too.
function seatName(ctx, seat) {
  const names = ctx.names || [];
  const name = names[seat];
  if (!name) return ctx.t("rummu.seat_n", {n: seat + 1});
  return names.filter((other) => other === name).length > 1 ? `${name} ${seat + 1}` : name;
}

function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;  // a true minus sign
  return "0";
}

// A card in the log's words: "7 rouge" / "red 7", "joker 4" (a yellow card is always a joker: rummu-1).
function cardText(t, card) {
  return card[0] === "Y" ? t("rummu.log.joker", {n: card[1]})
    : t("rummu.card", {n: card[1], colour: t(`rummu.colour.${card[0]}`)});
}

// Cards in words, neighbours of one colour said together: "3, 4 et 5 rouges, joker 6" / "red 3, 4 and 5, joker 6".
function cardsText(t, cards) {
  if (!cards.length) return t("rummu.nothing");
  const groups = [];
  for (const card of cards) {
    const last = groups[groups.length - 1];
    if (last && card[0] !== "Y" && last[0][0] === card[0]) last.push(card);
    else groups.push([card]);
  }
  return groups.map((group) => (group.length === 1 ? cardText(t, group[0]) : t("rummu.log.cards",
    {numbers: listText(t, group.map((card) => card[1])), colour: t(`rummu.colour.${group[0][0]}.many`)})))
    .join(", ");
}

function listText(t, items) {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")}${t("rummu.log.and")}${items[items.length - 1]}`;
}

function cardLabel(t, card) {
  const colour = t(`rummu.colour.${card[0]}`);
  return card[0] === "Y" ? t("rummu.card.joker", {n: card[1], colour}) : t("rummu.card", {n: card[1], colour});
}

function sortHand(cards) {
  return [...cards].sort((a, b) => SORT_ORDER.indexOf(a[0]) - SORT_ORDER.indexOf(b[0]) || Number(a[1]) - Number(b[1]));
}

function isSet(cards) {
  return cards.every((c) => c[1] === cards[0][1]);
}

// A Mü card: its colour, its number big in the middle, the number and a shape in the corner; yellow is the joker.
// `tag` "button" makes it clickable; `attrs` adds data-notation, onclick... ; `size` "", "small" or "mini".
function face(ctx, card, {tag = "div", size = "", classes = [], attrs = {}, extra = null} = {}) {
  const {h, t} = ctx;
  const colour = card[0];
  const label = attrs["aria-label"] || cardLabel(t, card);
  return h(tag, {class: ["card", "face", `c-${colour}`, size, colour === "Y" && "joker", ...classes],
    title: label, "data-card": card, ...attrs, "aria-label": label, ...(tag === "button" ? {type: "button"} : {role: "img"})},
  // the corner (number and shape) and the joker's word are drawn by the stylesheet: the card's text is its number
  // once, which its name (`label`) says, so that a voice command can name the card as it reads
  h("span", {class: "rm-idx", "data-n": card[1], "data-shape": SHAPES[colour] || "", "aria-hidden": "true"}),
  h("span", {class: "rm-n", "aria-hidden": "true"}, card[1]),
  colour === "Y" ? h("span", {class: "rm-joker", "data-word": t("rummu.joker"), "aria-hidden": "true"}) : null,
  extra);
}

function minis(ctx, cards) {
  return ctx.h("span", {class: "cards"}, cards.map((c) => face(ctx, c, {size: "mini"})));
}

function moveButton(ctx, entry, attrs, ...children) {
  return ctx.h("button", {type: "button", "data-notation": entry.notation, disabled: ctx.pending,
    onclick: () => send(ctx, entry), ...attrs}, ...children);
}

function send(ctx, entry) {
  selected = null;
  ctx.play(entry);
}

// The moves that use a card of the hand once it is selected (nothing being laid).
function cardMoves(ctx, card) {
  return ctx.findAll((m) => m.card === card && ["start", "discard", "put", "swap"].includes(m.type)
    && (m.type !== "start" || offeredStart(ctx, card)));
}

// A laying step is offered only when the hand can still finish the combination (the server's help, ctx.help,
// from the seat's own hand): the rule allows a step any card of the deck could finish, and a person on a phone
// who takes one their hand cannot finish is left with greyed cards.  Without help (an older frame), every legal
// step is offered.
function offeredStart(ctx, card) {
  const entry = ctx.find((m) => m.type === "start" && m.card === card);
  const help = ctx.help && ctx.help.startable;
  return entry && (!help || help.includes(card)) ? entry : null;
}

function offeredAdd(ctx, card) {
  const entry = ctx.find((m) => m.type === "add" && m.card === card);
  const help = ctx.help && ctx.help.finishable;
  return entry && (!help || help.includes(card)) ? entry : null;
}

// When the hand can no longer finish the combination being laid: what it lacks, and the way back.
function stuckNote(ctx) {
  const {h, t} = ctx;
  const missing = ctx.help && ctx.help.missing;
  const cancel = ctx.find((m) => m.type === "cancel");
  if (!missing || !cancel) return null;
  return h("p", {class: "rm-stuck", role: "status", "data-test": "rummu-stuck"},
    missing.length ? t("rummu.stuck", {cards: cardsText(t, missing)}) : t("rummu.stuck.none"), " ",
    moveButton(ctx, cancel, {class: "quiet"}, t("rummu.cancel.do")));
}

// -- the frame ----------------------------------------------------------------------------------------------

export function render(root, ctx) {
  last = {root, ctx};
  const table = ctx.view.table;
  const hand = table.hand ? sortHand(table.hand) : null;
  const mine = ctx.seat !== null && ctx.seat !== undefined && ctx.legal.length > 0;
  checkSelection(ctx, table, hand, mine);
  const state = {table, hand, mine, drawing: mine && table.phase === "draw",
    playing: mine && table.phase === "play" && table.laying.length === 0,
    laying: mine && table.laying.length > 0};
  const parts = [info(ctx, table), news(ctx), others(ctx, table), middle(ctx, state), tableZone(ctx, state),
    hand ? myArea(ctx, state) : null, counts(ctx, table)];
  root.append(...parts.filter(Boolean));
}

function checkSelection(ctx, table, hand, mine) {
  if (!selected || !mine || !hand || table.phase !== "play" || table.laying.length) {
    selected = null;
    return;
  }
  if (hand[selected.index] !== selected.card) {
    const index = hand.indexOf(selected.card);
    selected = index < 0 ? null : {card: selected.card, index};
  }
  if (selected && !cardMoves(ctx, selected.card).length) selected = null;
}

function info(ctx, table) {
  const {h, t} = ctx;
  const limit = table.hand_limit ? t(table.hand_limit === 1 ? "rummu.info.limit.one" : "rummu.info.limit",
    {n: table.hand_limit}) : null;
  return h("div", {class: "rm-info"},
    h("strong", {}, t("rummu.info.hand", {n: table.hand_number})),
    h("span", {}, t("rummu.info.dealer", {name: seatName(ctx, table.dealer)})),
    h("span", {}, t("rummu.info.target", {n: table.target}), limit ? ` · ${limit}` : ""));
}

// What the others did since the person's last turn (the log below keeps the whole story).
function news(ctx) {
  const {h, t} = ctx;
  const events = ctx.events;
  let start = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "new_hand" || (ctx.seat !== null && e.seat === ctx.seat && e.type === "discard")) {
      start = i + 1;
      break;
    }
  }
  const told = events.slice(start).filter((e) => WORTH_TELLING.has(e.type) && e.seat !== ctx.seat).slice(-6);
  if (!told.length) return null;
  return h("div", {class: "rm-news", "aria-live": "polite"},
    h("span", {class: "rm-label"}, t(ctx.seat === null ? "rummu.news.latest" : "rummu.news.since")),
    told.map((e) => h("p", {}, describe(e, ctx))));
}

function teamLabel(ctx, table, seat) {
  if (!table.teams) return null;
  const partners = table.teams.map((team, s) => (team === table.teams[seat] && s !== seat ? seatName(ctx, s) : null))
    .filter(Boolean);
  return ctx.h("span", {class: "rm-badge team"}, ctx.t("rummu.team_with", {names: partners.join(", ")}));
}

function openingBadge(ctx, table, seat) {
  const {h, t} = ctx;
  return table.opened[seat]
    ? h("span", {class: "rm-badge open"}, t("rummu.opened"))
    : h("span", {class: "rm-badge", title: t("rummu.needs.long", {n: table.needs[seat]})},
      t("rummu.needs", {n: table.needs[seat]}));
}

function others(ctx, table) {
  const {h, t} = ctx;
  const n = table.hand_sizes.length;
  const first = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat + 1;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const seat = (first + i) % n;
    if (seat !== ctx.seat) seats.push(seat);
  }
  return h("div", {class: "rm-seats", role: "group", "aria-label": t("rummu.others")}, seats.map((seat) => {
    const size = table.hand_sizes[seat];
    const known = sortHand(table.known[seat]);
    return h("div", {class: ["rm-seat", table.current === seat && !ctx.view.terminal && "to-act"],
      "data-seat": seat},
    h("div", {class: "rm-who"}, h("strong", {}, seatName(ctx, seat)),
      h("span", {class: "rm-pts", title: t("rummu.total")}, t("rummu.points", {n: num(table.totals[seat])}))),
    h("div", {class: "rm-row"},
      h("span", {class: "rm-backs", role: "img",
        "aria-label": t(size === 1 ? "rummu.cards_in_hand.one" : "rummu.cards_in_hand", {n: size})},
        Array.from({length: size}, () => h("span", {class: "card back"}))),
      h("span", {class: "rm-count", "data-test": "hand-size"}, String(size)),
      openingBadge(ctx, table, seat), teamLabel(ctx, table, seat)),
    known.length ? h("div", {class: "rm-known", title: t("rummu.known.long")}, t("rummu.known"), minis(ctx, known))
      : null);
  }));
}

// The draw pile and the discard pile (bottom to top, the top card on the right, every card visible: all-3).
function middle(ctx, state) {
  const {h, t} = ctx;
  const {table} = state;
  const draw = state.drawing ? ctx.find((m) => m.type === "draw") : null;
  const pileAttrs = {class: ["card", "back", "rm-pile", draw && "playable"],
    "aria-label": draw ? t("rummu.draw.do", {n: table.pile_size}) : t("rummu.draw.count", {n: table.pile_size})};
  const pile = draw
    ? moveButton(ctx, draw, {...pileAttrs, title: pileAttrs["aria-label"]},
      h("span", {class: "rm-pile-n"}, table.pile_size))
    : h("div", {...pileAttrs, role: "img"}, h("span", {class: "rm-pile-n"}, table.pile_size));
  const discard = table.discard;
  const freshTop = ctx.recent.some((e) => e.type === "discard" || e.type === "flip");
  let shown = discard.map((card, i) => ({card, k: discard.length - i}));
  const hidden = !state.drawing && shown.length > 10 ? shown.length - 10 : 0;
  if (hidden) shown = shown.slice(hidden);
  const fan = shown.map(({card, k}) => {
    const take = state.drawing ? ctx.find((m) => m.type === "take" && m.count === k) : null;
    const classes = [k === 1 && freshTop && "fresh", take && "playable"];
    if (!take) return face(ctx, card, {size: "small", classes});
    const label = k === 1 ? t("rummu.take.one", {card: cardLabel(t, card)}) : t("rummu.take.many", {n: k, card: cardLabel(t, card)});
    return face(ctx, card, {tag: "button", size: "small", classes,
      attrs: {"data-notation": take.notation, disabled: ctx.pending, onclick: () => send(ctx, take),
        "aria-label": label}});
  });
  const discardEntry = selected && state.playing
    ? ctx.find((m) => m.type === "discard" && m.card === selected.card) : null;
  if (discardEntry) {
    fan.push(face(ctx, selected.card, {tag: "button", size: "small", classes: ["ghost", "playable"],
      attrs: {"data-notation": discardEntry.notation, disabled: ctx.pending, onclick: () => send(ctx, discardEntry),
        "aria-label": t("rummu.discard.do", {card: cardLabel(t, selected.card)})}}));
  }
  return h("div", {class: "rm-middle"},
    h("div", {class: "rm-drawpile"}, h("span", {class: "rm-label"}, t("rummu.draw.title")), pile),
    h("div", {class: "rm-discard"},
      h("span", {class: "rm-label"}, t("rummu.discard.title", {n: discard.length})),
      h("div", {class: "rm-fan", "data-test": "discard"},
        hidden ? h("span", {class: "rm-more"}, t("rummu.discard.below", {n: hidden})) : null,
        discard.length ? fan : h("span", {class: "rm-empty"}, t("rummu.discard.empty"))),
      state.drawing ? h("p", {class: "rm-hint"}, t("rummu.hint.take")) : null));
}

// The combinations on the table, numbered as the notation numbers them, then the one being laid.
function tableZone(ctx, state) {
  const {h, t} = ctx;
  const {table} = state;
  const fresh = new Set(ctx.recent.filter((e) => FRESH.has(e.type)).map((e) => e.combo));
  const rows = table.combos.map((combo, j) => h("li", {}, meld(ctx, state, combo, j + 1, fresh.has(j + 1))));
  const start = selected && state.playing ? offeredStart(ctx, selected.card) : null;
  return h("section", {class: "zone rm-table", "aria-label": t("rummu.table.title")},
    h("h3", {}, t("rummu.table.title")),
    rows.length ? h("ol", {class: "rm-melds", "data-test": "melds"}, rows)
      : h("p", {class: "rm-empty"}, t("rummu.table.empty")),
    table.laying.length ? laying(ctx, state) : null,
    start ? moveButton(ctx, start, {class: "rm-meld rm-new", "data-test": "new-combo"},
      h("span", {class: "rm-no"}, "+"), t("rummu.start.do"), face(ctx, selected.card, {size: "mini"})) : null);
}

function meld(ctx, state, combo, number, fresh) {
  const {h, t} = ctx;
  const cards = combo.cards;
  const put = selected && state.playing
    ? ctx.find((m) => m.type === "put" && m.card === selected.card && m.combo === number) : null;
  const swap = selected && state.playing
    ? ctx.find((m) => m.type === "swap" && m.card === selected.card && m.combo === number) : null;
  const both = put && swap;
  const head = h("span", {class: "rm-no"}, String(number));
  const tail = h("span", {class: "rm-meld-who"},
    h("span", {class: "rm-owner"}, seatName(ctx, combo.owner)),
    h("span", {class: "rm-pts"}, t("rummu.points.signed", {n: signed(combo.points)})));
  // where the selected card would go: before a run's lowest card, else at the end; or in place of the joker
  const ghostAttrs = {"aria-label": put ? t("rummu.put.do", {card: cardLabel(t, selected.card), n: number}) : null};
  const ghost = put ? face(ctx, selected.card, both
    ? {tag: "button", size: "small", classes: ["ghost", "playable"],
      attrs: {...ghostAttrs, "data-notation": put.notation, disabled: ctx.pending, onclick: () => send(ctx, put)}}
    : {size: "small", classes: ["ghost"]}) : null;
  const before = put && !isSet(cards) && Number(selected.card[1]) < Number(cards[0][1]);
  const row = cards.map((card) => {
    if (swap && card === swap.move.joker) {
      const label = t("rummu.swap.do", {card: cardLabel(t, selected.card), joker: cardLabel(t, card), n: number});
      const tag = h("span", {class: "rm-tag", "aria-hidden": "true"}, "⇄");
      return both
        ? face(ctx, card, {tag: "button", size: "small", classes: ["swap-me", "playable"], extra: tag,
          attrs: {"data-notation": swap.notation, disabled: ctx.pending, onclick: () => send(ctx, swap),
            "aria-label": label}})
        : face(ctx, card, {size: "small", classes: ["swap-me"], extra: tag});
    }
    return face(ctx, card, {size: "small"});
  });
  if (ghost) (before ? row.unshift(ghost) : row.push(ghost));
  const classes = ["rm-meld", combo.owner === ctx.seat && "mine", fresh && "fresh"];
  const body = [head, h("span", {class: "cards"}, row), tail];
  const single = both ? null : put || swap;
  if (single) {
    const label = put
      ? t("rummu.put.do", {card: cardLabel(t, selected.card), n: number})
      : t("rummu.swap.do", {card: cardLabel(t, selected.card), joker: cardLabel(t, swap.move.joker), n: number});
    return moveButton(ctx, single, {class: classes, "aria-label": label, title: label, "data-combo": number}, body);
  }
  return h("div", {class: [...classes, both && "has-targets"], "data-combo": number}, body);
}

function laying(ctx, state) {
  const {h, t} = ctx;
  const {table} = state;
  const who = table.current;
  const need = table.opened[who] ? 3 : table.needs[who];
  const close = state.laying ? ctx.find((m) => m.type === "close") : null;
  const cancel = state.laying ? ctx.find((m) => m.type === "cancel") : null;
  return h("div", {class: "rm-meld rm-laying", "data-test": "laying"},
    h("span", {class: "rm-meld-head"}, h("span", {class: "rm-no"}, "…"),
      h("span", {class: "rm-owner"}, t("rummu.laying.by", {name: seatName(ctx, who)})),
      h("span", {class: "rm-badge"}, t(table.opened[who] ? "rummu.laying.min" : "rummu.laying.opening", {n: need}))),
    h("span", {class: "cards"}, table.laying.map((card) => face(ctx, card, {size: "small"}))),
    state.laying ? h("span", {class: "rm-buttons"},
      close ? moveButton(ctx, close, {class: "primary"}, t("rummu.close.do")) : null,
      cancel ? moveButton(ctx, cancel, {class: "quiet"}, t("rummu.cancel.do")) : null,
      close || (ctx.help && ctx.help.missing) ? null : h("span", {class: "rm-hint"}, t("rummu.hint.add"))) : null);
}

function myArea(ctx, state) {
  const {h, t} = ctx;
  const {table, hand} = state;
  const me = ctx.seat;
  const cards = hand.map((card, index) => {
    if (state.laying) {
      const add = offeredAdd(ctx, card);
      if (add) {
        return face(ctx, card, {tag: "button", classes: ["playable"], attrs: {"data-notation": add.notation,
          disabled: ctx.pending, onclick: () => send(ctx, add),
          "aria-label": t("rummu.add.do", {card: cardLabel(t, card)})}});
      }
      return face(ctx, card, {classes: ["dim"]});
    }
    if (state.playing && cardMoves(ctx, card).length) {
      const chosen = selected && selected.index === index;
      return face(ctx, card, {tag: "button", classes: [chosen ? "selected" : "playable"], attrs: {
        "data-step": "select", disabled: ctx.pending, "aria-pressed": chosen ? "true" : "false",
        onclick: () => { selected = chosen ? null : {card, index}; redraw(); }}});
    }
    return face(ctx, card);
  });
  return h("section", {class: ["zone", "rm-mine", state.mine && "to-act"], "data-test": "my-hand"},
    h("h3", {}, h("span", {}, t("rummu.hand.title", {n: hand.length})), openingBadge(ctx, table, me),
      teamLabel(ctx, table, me),
      h("span", {class: "rm-pts"}, t("rummu.points", {n: num(table.totals[me])}))),
    table.opened[me] || ctx.view.terminal ? null
      : h("p", {class: "rm-hint"}, t("rummu.needs.long", {n: table.needs[me]})),
    h("div", {class: "cards rm-hand"}, cards),
    actionBar(ctx, state));
}

// The page draws the board again on every frame; a selection is local to the page, so it draws the board again
// itself, from the same frame.
let last = null;  // {root, ctx} of the latest render
function redraw() {
  if (!last) return;
  const {root, ctx} = last;
  while (root.firstChild) root.removeChild(root.firstChild);
  render(root, ctx);
  // keep the keyboard where it was: on the card just chosen, else on the first card of the hand
  const focus = root.querySelector("[data-test=my-hand] [aria-pressed=true]") ||
    root.querySelector("[data-test=my-hand] button");
  if (focus) focus.focus({preventScroll: true});
}

function actionBar(ctx, state) {
  const {h, t} = ctx;
  if (state.drawing) return h("p", {class: "rm-hint"}, t("rummu.hint.draw"));
  if (state.laying) return stuckNote(ctx);  // under the hand, where a phone's screen is
  if (!state.playing) return null;
  if (!selected) return h("p", {class: "rm-hint"}, t("rummu.hint.select"));
  const card = selected.card;
  const start = offeredStart(ctx, card);
  const discard = ctx.find((m) => m.type === "discard" && m.card === card);
  const onTable = ctx.findAll((m) => (m.type === "put" || m.type === "swap") && m.card === card).length;
  return h("div", {class: "rm-bar", "data-test": "actions"},
    h("span", {class: "rm-what"}, face(ctx, card, {size: "mini"})),
    start ? moveButton(ctx, start, {}, t("rummu.start.do")) : null,
    discard ? moveButton(ctx, discard, {}, t("rummu.discard.short")) : null,
    h("button", {type: "button", class: "quiet", "data-step": "deselect", disabled: ctx.pending,
      onclick: () => { selected = null; redraw(); }}, t("rummu.deselect")),
    onTable ? h("p", {class: "rm-hint"}, t("rummu.hint.table")) : null);
}

// The count of each finished hand (the `score` event, kept in the view's `results`), the latest first.
function counts(ctx, table) {
  const {h, t} = ctx;
  if (!table.results.length) return null;
  const latest = table.results[table.results.length - 1].hand;
  const blocks = [...table.results].reverse().map((result) => {
    const open = openCounts.has(result.hand) ? openCounts.get(result.hand) : result.hand === latest;
    const out = result.out === null ? t("rummu.score.nobody_out")
      : t("rummu.score.out", {name: seatName(ctx, result.out)});
    return h("details", {class: "rm-score", "data-test": "score", open,
      ontoggle: (e) => openCounts.set(result.hand, e.target.open)},
    h("summary", {}, t("rummu.score.title", {n: result.hand}), " — ", out),
    h("div", {class: "rm-score-seats"}, result.points.map((_, seat) => scoreSeat(ctx, result, seat))),
    result.teams ? h("p", {class: "rm-totals"}, result.teams.map((team) => h("span", {}, t("rummu.score.team", {
      names: team.seats.map((s) => seatName(ctx, s)).join(" + "), points: signed(team.points), total: num(team.total)}),
    h("br")))) : null,
    h("p", {class: "rm-totals"}, h("strong", {}, t("rummu.score.totals")), " ",
      result.totals.map((total, seat) => `${seatName(ctx, seat)} ${num(total)}`).join(" · ")));
  });
  return h("div", {class: "rm-counts"}, blocks);
}

function scoreSeat(ctx, result, seat) {
  const {h, t} = ctx;
  const lines = result.combos.map((combo, j) => ({combo, j})).filter(({combo}) => combo.owner === seat)
    .map(({combo}) => h("li", {},
      h("span", {}, t(`rummu.kind.${combo.kind}.${combo.pure ? "pure" : "mixed"}`, {n: combo.cards.length})),
      minis(ctx, combo.cards), h("span", {class: "rm-v"}, signed(combo.points))));
  if (result.bonus[seat]) {
    lines.push(h("li", {}, h("span", {}, t("rummu.score.bonus")),
      h("span", {class: "rm-v"}, signed(result.bonus[seat]))));
  }
  const left = sortHand(result.left[seat]);
  if (left.length) {
    lines.push(h("li", {}, h("span", {}, t("rummu.score.left")), minis(ctx, left),
      h("span", {class: ["rm-v", result.penalties[seat] < 0 && "rm-neg"]},
        result.waived[seat] ? t("rummu.score.waived") : signed(result.penalties[seat]))));
  }
  if (!lines.length) lines.push(h("li", {class: "rm-muted"}, t("rummu.score.nothing")));
  return h("div", {class: ["rm-score-seat", result.out === seat && "out"], "data-seat": seat},
    h("div", {class: "rm-score-head"}, h("strong", {}, seatName(ctx, seat)),
      h("span", {class: ["rm-pts", result.points[seat] < 0 && "rm-neg"]}, signed(result.points[seat])),
      h("span", {class: "rm-muted"}, t("rummu.score.total", {n: num(result.totals[seat])}))),
    h("ul", {}, lines));
}

// -- the event log ------------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const {t} = ctx;
  const name = event.seat === undefined ? "" : seatName(ctx, event.seat);
  const card = event.card ? cardText(t, event.card) : "";
  switch (event.type) {
    case "new_hand":
      return t("rummu.ev.new_hand", {n: event.hand, name: seatName(ctx, event.dealer)});
    case "deal":
      return event.card ? t("rummu.ev.deal.card", {name, card}) : t("rummu.ev.deal", {name});
    case "flip":
      return t("rummu.ev.flip", {card, name: seatName(ctx, event.first)});
    case "draw":
      return event.card ? t("rummu.ev.draw.card", {name, card}) : t("rummu.ev.draw", {name});
    case "reshuffle":
      return t("rummu.ev.reshuffle", {n: event.cards});
    case "pile_empty":
      return t("rummu.ev.pile_empty");
    case "take":
      return t(event.cards.length === 1 ? "rummu.ev.take.one" : "rummu.ev.take.many",
        {name, n: event.cards.length, cards: cardsText(t, event.cards)});
    case "start":
      return t("rummu.ev.start", {name, card});
    case "add":
      return t("rummu.ev.add", {name, card, cards: cardsText(t, event.laying)});
    case "close":
      return t(event.opening ? "rummu.ev.close.opening" : "rummu.ev.close",
        {name, n: event.combo, cards: cardsText(t, event.cards), points: signed(event.points)});
    case "cancel":
      return t("rummu.ev.cancel", {name, cards: cardsText(t, event.cards)});
    case "discard":
      return t("rummu.ev.discard", {name, card});
    case "put":
      return t("rummu.ev.put", {name, card, n: event.combo, cards: cardsText(t, event.cards)});
    case "swap":
      return t("rummu.ev.swap", {name, card, joker: cardText(t, event.joker), n: event.combo});
    case "score": {
      const out = event.out === null ? t("rummu.score.nobody_out")
        : t("rummu.score.out", {name: seatName(ctx, event.out)});
      const points = event.points.map((p, s) => `${seatName(ctx, s)} ${signed(p)}`).join(", ");
      return t("rummu.ev.score", {n: event.hand, out, points});
    }
    case "match_end": {
      const names = event.winners.map((s) => seatName(ctx, s)).join(", ") || t("rummu.nobody");
      return t(event.hands === 1 ? "rummu.ev.match_end.one" : "rummu.ev.match_end", {n: event.hands, names});
    }
    default:
      return event.type;
  }
}

// A move in words, as the game's buttons name it (the coach's hints and reviews)
export function moveName(move, ctx) {
  const {t} = ctx;
  switch (move.type) {
    case "draw": return t("rummu.draw.short");
    case "take": return move.count === 1 ? t("rummu.take.count.one") : t("rummu.take.count", {n: move.count});
    case "start": return `${t("rummu.start.do")} (${cardLabel(t, move.card)})`;
    case "discard": return t("rummu.discard.do", {card: cardLabel(t, move.card)});
    case "add": return t("rummu.add.do", {card: cardLabel(t, move.card)});
    case "put": return t("rummu.put.do", {card: cardLabel(t, move.card), n: move.combo});
    case "swap": return t("rummu.swap.do", {card: cardLabel(t, move.card), joker: cardLabel(t, move.joker), n: move.combo});
    case "cancel": return t("rummu.cancel.do");
    case "close": return t("rummu.close.do");
    default: return null;
  }
}
