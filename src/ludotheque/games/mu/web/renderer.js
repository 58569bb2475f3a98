// Mü (Mü & Mehr): the auction with its cards laid face up, the chief and vice with their trumps, the partner,
// the tricks, and each hand's scoring.  Drawn from scratch on every frame from ctx.view.table (view.TABLE_SCHEMA);
// every move is a button carrying its legal entry's notation.

const COLOURS = ["R", "Y", "G", "B", "K"];
const TRIANGLES = [1, 0, 1, 1, 1, 1, 2, 2, 1, 0];  // mu-1: points of a card by its number
const SHAPES = {R: "●", Y: "★", G: "▲", B: "■", K: "◆"};  // each colour's shape, as on Rummü's cards

// -- words ---------------------------------------------------------------------------------------------------

function plural(ctx, key, n, params = {}) {
  const one = ctx.lang === "fr" ? Math.abs(n) <= 1 : n === 1;
  return ctx.t(`${key}.${one ? "one" : "other"}`, {n, ...params});
}

function seatName(ctx, seat) {
  const name = ctx.names[seat] ?? ctx.t("mu.seat_n", {n: seat + 1});
  const twins = ctx.names.filter((other) => other === name).length > 1;
  return twins ? `${name} · ${seat + 1}` : name;
}

// A short label for a narrow column: the name cut to a few letters, or "bot 2" when cut names would look alike.
function shortName(ctx, seat) {
  if (seat === ctx.seat) return ctx.t("mu.you");
  const cut = (i) => {
    const name = ctx.names[i] ?? ctx.t("mu.seat_n", {n: i + 1});
    return name.length > 8 ? `${name.slice(0, 7)}…` : name;
  };
  const mine = cut(seat);
  if (ctx.names.every((_, i) => i === seat || cut(i) !== mine)) return mine;
  const name = ctx.names[seat] ?? "";
  return `${(name.split(/[\s(]/)[0] || "").slice(0, 6)} ${seat + 1}`.trim();
}

function colourWord(ctx, letter) { return ctx.t(`mu.colour.${letter}`); }

function cardWords(ctx, name) {
  return ctx.t("mu.card", {colour: colourWord(ctx, name[0]), number: name[1]});
}

// a trump as the view names it ("G", "7", "none") or as an event does ({colour} / {number} / neither)
function trumpWords(ctx, trump) {
  if (trump === null || trump === undefined || trump === "none") return ctx.t("mu.no_trump");
  if (COLOURS.includes(trump)) return colourWord(ctx, trump);
  return ctx.t("mu.number_trump", {number: trump});
}

function list(ctx, names) {
  try { return new Intl.ListFormat(ctx.lang, {type: "conjunction"}).format(names); } catch { return names.join(", "); }
}

function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }

// -- pieces --------------------------------------------------------------------------------------------------

function triangle(h, cls = null) {
  return h("svg", {viewBox: "0 0 10 9", class: cls, "aria-hidden": "true"}, h("svg:polygon", {points: "5,0 10,9 0,9"}));
}

function isTrump(table, name) {
  return [table.chief_trump, table.vice_trump].some((trump) =>
    trump !== null && trump !== undefined && trump !== "none" && (trump === name[0] || trump === name[1]));
}

// A Mü card: its colour, its number, its triangles (mu-1).  A button when it plays a legal move.
function card(ctx, name, {entry = null, small = false, fresh = false, trump = false, dim = false} = {}) {
  const {h, t} = ctx;
  const number = Number(name[1]);
  const tris = TRIANGLES[number];
  const label = `${cardWords(ctx, name)}, ${plural(ctx, "mu.triangles", tris)}${trump ? `, ${t("mu.trump_mark")}` : ""}`;
  const attrs = {
    class: ["card", "mu-card", `mu-${name[0]}`, small && "small", entry && "playable", fresh && "mu-fresh", dim && "mu-dim"],
    "aria-label": label, title: label, "data-card": name,
  };
  const body = [
    // the corner (the number and the colour's shape: the colour is never told by the colour alone) and the trump's
    // star are drawn by the stylesheet: the card's text is its number once, which its name (`label`) says
    h("span", {class: "mu-corner", "data-n": number, "data-shape": SHAPES[name[0]], "aria-hidden": "true"}),
    h("span", {class: "mu-num", "aria-hidden": "true"}, String(number)),
    h("span", {class: "mu-tris", "aria-hidden": "true"}, Array.from({length: tris}, () => triangle(h))),
    trump ? h("span", {class: "mu-star", "aria-hidden": "true"}) : null,
  ];
  if (!entry) return h("div", {...attrs, role: "img"}, body);
  return h("button", {...attrs, type: "button", "data-notation": entry.notation, disabled: ctx.pending,
    onclick: () => ctx.play(entry)}, body);
}

function cardBack(ctx, count) {
  const {h} = ctx;
  return h("div", {class: "card back small mu-back", "data-test": "mu-back", role: "img",
    "aria-label": plural(ctx, "mu.cards_in_hand", count), title: plural(ctx, "mu.cards_in_hand", count)}, `${count}`);
}

function trumpChip(ctx, trump) {
  const {h} = ctx;
  let mark = null;
  if (COLOURS.includes(trump)) mark = h("span", {class: ["mu-swatch", `mu-${trump}`]});
  else if (trump !== "none") mark = h("span", {class: "mu-digit"}, trump);
  return h("span", {class: "mu-chip"}, mark, trumpWords(ctx, trump));
}

function sortCards(names) {
  return [...names].sort((a, b) => COLOURS.indexOf(a[0]) - COLOURS.indexOf(b[0]) || Number(a[1]) - Number(b[1]));
}

// -- the board -----------------------------------------------------------------------------------------------

export function render(root, ctx) {
  const {h} = ctx;
  const table = ctx.view.table;
  const n = ctx.view.players;
  const me = ctx.seat;
  const order = me === null || me === undefined
    ? Array.from({length: n}, (_, i) => i)
    : Array.from({length: n - 1}, (_, i) => (me + 1 + i) % n);
  const parts = [
    infoBar(ctx, table),
    h("div", {class: "mu-seats", "data-test": "mu-seats"}, order.map((seat) => seatBox(ctx, table, seat))),
    centre(ctx, table),
    me === null || me === undefined ? null : myZone(ctx, table, me),
    result(ctx, table),
    scoreSheet(ctx, table),
  ];
  root.append(...parts.filter(Boolean));  // the DOM's own append would write "null"
  followTurn(ctx, root);
}

// When the person's turn comes and it is played from the hand (a bid, a card to the trick), the hand is brought on
// screen: on a phone it lies below the other seats and the centre, out of sight.  Only when the turn begins, so that
// a person who scrolls away while it is their turn is left where they are.
let handWasOffered = false;
function followTurn(ctx, root) {
  const offered = Boolean(ctx.myTurn) && Boolean(root.querySelector("[data-test=mu-hand] [data-notation]"));
  if (offered && !handWasOffered) {
    requestAnimationFrame(() => {
      const hand = document.querySelector(".game-mu [data-test=mu-hand]");
      if (!hand) return;
      const box = hand.getBoundingClientRect();
      if (box.top >= 0 && box.bottom <= window.innerHeight) return;
      hand.scrollIntoView({block: box.height < window.innerHeight ? "end" : "start"});
    });
  }
  handWasOffered = offered;
}

function infoBar(ctx, table) {
  const {h, t} = ctx;
  return h("div", {class: "mu-info"},
    h("span", {class: "mu-phase", "data-test": "mu-phase"}, t(`mu.phase.${table.phase}`)),
    table.phase === "over" ? null : h("span", {}, t("mu.hand_number", {n: table.hand_number})),
    h("span", {}, t("mu.dealer", {name: seatName(ctx, table.dealer)})),
    h("span", {}, t("mu.match_target", {n: table.target})),
    table.removed.length
      ? h("span", {class: "mu-removed"}, t("mu.removed"), " ",
        table.removed.map((c) => h("span", {class: "mu-chip"}, h("span", {class: ["mu-swatch", `mu-${c}`]}), colourWord(ctx, c))))
      : null);
}

function lastAuctionMove(table, seat) {
  for (let i = table.auction.length - 1; i >= 0; i--) if (table.auction[i][0] === seat) return table.auction[i][1];
  return null;
}

function freshLaid(ctx) {
  const fresh = {};
  for (const event of ctx.recent) {
    if (event.type === "lay") (fresh[event.seat] = fresh[event.seat] || []).push(event.card);
  }
  return fresh;
}

function roleBadges(ctx, table, seat) {
  const {h, t} = ctx;
  return [
    table.chief === seat ? h("span", {class: "mu-badge mu-chief"}, t("mu.role.chief")) : null,
    table.vice === seat ? h("span", {class: "mu-badge mu-vice"}, t("mu.role.vice")) : null,
    table.partner === seat ? h("span", {class: "mu-badge mu-partner"}, t("mu.role.partner")) : null,
    table.dealer === seat ? h("span", {class: "mu-badge mu-dealer"}, t("mu.role.dealer")) : null,
    table.phase === "auction" && lastAuctionMove(table, seat) === "pass"
      ? h("span", {class: "mu-badge mu-passed"}, t("mu.passed")) : null,
  ];
}

// One seat at the table: its name and roles, its total, its bid, the cards it laid face up, its hand's size.
function seatBox(ctx, table, seat, {mine = false} = {}) {
  const {h, t} = ctx;
  const toAct = ctx.view.to_act.includes(seat);
  const freshCards = [...(freshLaid(ctx)[seat] || [])];
  const showWon = ["play", "over"].includes(table.phase) && table.chief !== null;
  const laid = sortCards(table.laid[seat]).map((name) => {
    const at = freshCards.indexOf(name);
    if (at >= 0) freshCards.splice(at, 1);
    const entry = mine ? ctx.find((m) => m.type === "play" && m.from === "table" && m.card === name) : null;
    const dim = mine && ctx.myTurn && table.phase === "play" && !entry;
    return card(ctx, name, {small: !mine, fresh: at >= 0, trump: isTrump(table, name), entry, dim});
  });
  return h("div", {class: ["mu-seat", toAct && "mu-to-act", mine && "mu-me"], "data-seat": seat, "data-test": "mu-seat"},
    h("div", {class: "mu-seat-head"},
      h("span", {class: "mu-name"}, mine ? t("mu.you") : seatName(ctx, seat)), roleBadges(ctx, table, seat)),
    h("div", {class: "mu-stats"},
      mine ? null : h("span", {class: "mu-hand-count", "data-test": "mu-hand-count"}, cardBack(ctx, table.hand_sizes[seat])),
      h("span", {title: t("mu.total_title")}, t("mu.total"), " ", h("b", {}, String(table.scores[seat]))),
      table.phase !== "over" ? h("span", {}, t("mu.bid"), " ", h("b", {}, String(table.bids[seat]))) : null,
      showWon ? h("span", {title: t("mu.won_title")}, triangle(h, "mu-tri-icon"), " ", h("b", {}, String(table.won[seat]))) : null),
    laid.length
      ? h("div", {class: "mu-laid", role: "group", "aria-label": t("mu.laid")},
        mine ? h("h3", {}, t("mu.your_laid")) : null, h("div", {class: "cards"}, laid))
      : null);
}

function centre(ctx, table) {
  const {h} = ctx;
  return h("div", {class: "mu-centre", "data-test": "mu-centre"},
    table.phase === "auction" ? auctionLine(ctx, table) : null,
    table.chief !== null ? contractLine(ctx, table) : null,
    table.phase === "play" ? currentTrick(ctx, table) : null,
    lastTrick(ctx, table));
}

function auctionLine(ctx, table) {
  const {h, t} = ctx;
  const top = Math.max(...table.bids);
  const holders = table.bids.map((b, s) => (b === top ? s : null)).filter((s) => s !== null);
  if (top === 0) return h("p", {class: "mu-muted"}, t("mu.auction_none"));
  return h("p", {}, t("mu.auction_top", {n: top, names: list(ctx, holders.map((s) => seatName(ctx, s)))}),
    holders.length > 1 ? ` ${t("mu.auction_tied")}` : "");
}

function contractLine(ctx, table) {
  const {h, t} = ctx;
  const chief = table.chief;
  const team = table.won[chief] + (table.partner !== null ? table.won[table.partner] : 0);
  const bid = table.bids[chief];
  return h("div", {class: "mu-contract", "data-test": "mu-contract"},
    h("span", {}, t("mu.contract_line", {name: seatName(ctx, chief), bid: plural(ctx, "mu.cards", bid), contract: table.contract})),
    table.vice !== null
      ? h("span", {}, t("mu.vice_trump"), " ", table.vice_trump !== null ? trumpChip(ctx, table.vice_trump) : t("mu.not_named"))
      : h("span", {class: "mu-muted"}, t("mu.no_vice")),
    h("span", {}, t("mu.chief_trump"), " ", table.chief_trump !== null ? trumpChip(ctx, table.chief_trump) : t("mu.not_named")),
    ctx.view.players > 3
      ? h("span", {}, t("mu.partner"), " ", h("b", {}, table.partner !== null ? seatName(ctx, table.partner) : t("mu.not_named")))
      : null,
    table.phase === "play"
      ? h("span", {class: ["mu-progress", team >= table.contract && "mu-ok"], "data-test": "mu-progress"},
        t("mu.team_progress", {won: team, contract: table.contract}))
      : null);
}

function played(ctx, table, [seat, name, fromTable], {small = false, winner = false, fresh = false} = {}) {
  const {h, t} = ctx;
  return h("div", {class: ["mu-played", winner && "mu-winner"]},
    card(ctx, name, {small, trump: isTrump(table, name), fresh}),
    h("span", {}, seatName(ctx, seat), fromTable ? ` (${t("mu.from_table")})` : ""));
}

function currentTrick(ctx, table) {
  const {h, t} = ctx;
  const n = ctx.view.players;
  const recentPlays = ctx.recent.filter((e) => e.type === "play").length;
  const cards = table.trick.map((p, i) => played(ctx, table, p, {fresh: i >= table.trick.length - recentPlays}));
  const slots = Array.from({length: n - table.trick.length}, () => h("div", {class: "mu-slot", "aria-hidden": "true"}));
  const next = ctx.view.to_act.length ? seatName(ctx, ctx.view.to_act[0]) : null;
  return h("div", {class: "mu-current", "data-test": "mu-trick"},
    h("h3", {}, t("mu.trick", {n: table.tricks.length + 1}),
      table.leader !== null && table.trick.length === 0 && next ? ` · ${t("mu.leads", {name: next})}` : ""),
    h("div", {class: "mu-trick"}, cards, slots));
}

// The last trick: this hand's, or when a new hand has no trick yet, the previous hand's last (from the log).
function lastTrick(ctx, table) {
  const {h, t} = ctx;
  let cards = null;
  let winner = null;
  let previous = false;
  let triangles = 0;
  if (table.tricks.length) {
    const last = table.tricks[table.tricks.length - 1];
    cards = last.cards;
    winner = last.winner;
    triangles = cards.reduce((sum, [, name]) => sum + TRIANGLES[Number(name[1])], 0);
  } else {
    const event = [...ctx.events].reverse().find((e) => e.type === "trick");
    if (!event) return null;
    cards = event.cards.map((c) => [c.seat, c.card, c.from === "table"]);
    winner = event.winner;
    triangles = event.triangles;
    previous = true;
  }
  const fresh = ctx.recent.some((e) => e.type === "trick");
  const snapshot = previous ? {chief_trump: null, vice_trump: null} : table;
  return h("div", {class: ["mu-last", fresh && "mu-fresh"], "data-test": "mu-last-trick"},
    h("h3", {}, previous ? t("mu.last_trick_previous") : t("mu.last_trick", {n: table.tricks.length}), " · ",
      t("mu.trick_winner", {name: seatName(ctx, winner)}), " ", plural(ctx, "mu.triangles_won", triangles)),
    h("div", {class: "mu-trick"}, cards.map((p) => played(ctx, snapshot, p, {small: true, winner: p[0] === winner}))));
}

// -- the seat's own corner: what to do, the moves, the laid cards, the hand -----------------------------------

function myZone(ctx, table, me) {
  const {h, t} = ctx;
  const hand = sortCards(table.hand || []);
  const phase = table.phase;
  const handEntry = (name) => (phase === "auction"
    ? ctx.find((m) => m.type === "lay" && m.card === name)
    : ctx.find((m) => m.type === "play" && m.from === "hand" && m.card === name));
  const cards = hand.map((name) => {
    const entry = handEntry(name);
    return card(ctx, name, {entry, trump: isTrump(table, name), dim: ctx.myTurn && phase === "play" && !entry});
  });
  return h("section", {class: "mu-mine", "data-test": "mu-mine"},
    seatBox(ctx, table, me, {mine: true}),
    actions(ctx, table, me),
    h("div", {class: "mu-hand", "data-test": "mu-hand"},
      h("h3", {}, t("mu.your_hand"), " ", h("span", {class: "mu-muted"}, `(${hand.length})`)),
      h("div", {class: "cards"}, cards.length ? cards : h("span", {class: "mu-muted"}, t("mu.empty_hand")))));
}

function moveButton(ctx, entry, label, {main = false, extra = null} = {}) {
  const {h} = ctx;
  return h("button", {type: "button", class: ["move", main && "mu-main"], "data-notation": entry.notation,
    disabled: ctx.pending, onclick: () => ctx.play(entry)}, extra, label);
}

function actions(ctx, table, me) {
  const {h, t} = ctx;
  if (!ctx.legal.length) return null;
  const phase = table.phase;
  const buttons = [];
  let prompt = "";
  if (phase === "auction") {
    const left = (table.turn_limit ?? 0) - table.bids[me];
    prompt = table.turn_laid ? plural(ctx, "mu.prompt.more", left) : plural(ctx, "mu.prompt.auction", left);
    const done = ctx.find((m) => m.type === "done");
    const pass = ctx.find((m) => m.type === "pass");
    if (done) buttons.push(moveButton(ctx, done, t("mu.done"), {main: true}));
    if (pass) buttons.push(moveButton(ctx, pass, t("mu.pass")));
  } else if (phase === "vice_trump" || phase === "chief_trump") {
    prompt = t(phase === "vice_trump" ? "mu.prompt.vice_trump" : "mu.prompt.chief_trump");
    for (const entry of ctx.findAll((m) => m.type === "trump" || m.type === "no_trump")) {
      const m = entry.move;
      if (m.type === "no_trump") buttons.push(moveButton(ctx, entry, t("mu.no_trump")));
      else if (m.colour) buttons.push(moveButton(ctx, entry, colourWord(ctx, m.colour), {extra: h("span", {class: ["mu-swatch", `mu-${m.colour}`]})}));
      else buttons.push(moveButton(ctx, entry, t("mu.number_trump", {number: m.number}), {extra: h("span", {class: "mu-digit"}, String(m.number))}));
    }
  } else if (phase === "partner") {
    prompt = t("mu.prompt.partner");
    for (const entry of ctx.findAll((m) => m.type === "partner")) {
      buttons.push(moveButton(ctx, entry, seatName(ctx, entry.move.seat)));
    }
  } else if (phase === "play") {
    prompt = table.trick.length ? t("mu.prompt.follow") : t("mu.prompt.lead");
  }
  return h("div", {class: "mu-turn", "data-test": "mu-actions"},
    h("p", {class: "mu-prompt"}, prompt),
    buttons.length ? h("div", {class: "mu-actions", role: "group", "aria-label": t("table.your_moves")}, buttons) : null);
}

// -- scoring -------------------------------------------------------------------------------------------------

function num(ctx, value) {
  const {h} = ctx;
  return h("span", {class: value > 0 ? "mu-pos" : value < 0 ? "mu-neg" : null}, signed(value));
}

// The last finished hand's scoring, as the hand_scored event (and view.table.hands) gives it: mu-3 or mu-8.
function result(ctx, table) {
  const {h, t} = ctx;
  if (!table.hands.length) return null;
  const s = table.hands[table.hands.length - 1];
  const n = ctx.view.players;
  const seats = Array.from({length: n}, (_, i) => i);
  const head = h("h3", {}, t("mu.result_title", {n: s.hand}));
  if (s.result === "redeal") {
    return h("div", {class: "mu-result", "data-test": "mu-result"}, head, h("p", {}, t("mu.result.redeal")));
  }
  if (s.result === "egalite") {
    const rows = seats.map((seat) => h("tr", {},
      h("td", {}, seatName(ctx, seat), seat === s.tie_maker ? ` (${t("mu.tie_maker")})` : ""),
      h("td", {}, String(s.bids[seat])),
      h("td", {}, num(ctx, s.deltas[seat])),
      h("td", {}, String(s.scores[seat]))));
    return h("div", {class: "mu-result", "data-test": "mu-result"}, head,
      h("p", {class: "mu-verdict mu-egalite"}, t("mu.result.egalite")),
      h("p", {}, t("mu.egalite_rule", {names: list(ctx, s.tied.map((x) => seatName(ctx, x))), maker: seatName(ctx, s.tie_maker)})),
      h("div", {class: "mu-scroll"}, h("table", {class: "mu-sheet"},
        h("thead", {}, h("tr", {}, h("th", {}, t("mu.col.player")), h("th", {}, t("mu.col.laid")),
          h("th", {}, t("mu.col.points")), h("th", {}, t("mu.col.total")))),
        h("tbody", {}, rows))));
  }
  const made = s.result === "made";
  const team = seatName(ctx, s.chief) + (s.partner !== null ? ` + ${seatName(ctx, s.partner)}` : "");
  const lines = [
    h("p", {}, t("mu.result.contract", {team, won: s.team_triangles, contract: s.contract,
      bid: plural(ctx, "mu.cards", s.bid), trump: trumpWords(ctx, s.chief_trump)})),
  ];
  if (made) {
    const extra = s.bonus - 10 * s.bid;
    lines.push(h("p", {}, t(s.partner !== null ? "mu.result.bonus_team" : "mu.result.bonus_alone",
      {formula: extra ? `10 × ${s.bid} + ${extra}` : `10 × ${s.bid}`, bonus: s.bonus})));
  } else {
    lines.push(h("p", {}, t("mu.result.k", {k: s.k})));
    lines.push(h("p", {}, t("mu.result.penalty", {n: s.bid, k: s.k, loss: s.chief_loss, gain: s.opponent_gain}),
      s.partner !== null ? ` ${t("mu.result.partner_nothing")}` : ""));
  }
  const role = (seat) => (seat === s.chief ? t("mu.role.chief") : seat === s.vice ? t("mu.role.vice")
    : seat === s.partner ? t("mu.role.partner") : "");
  const rows = seats.map((seat) => h("tr", {},
    h("td", {}, seatName(ctx, seat), role(seat) ? h("span", {class: "mu-muted-dark"}, ` (${role(seat)})`) : null),
    h("td", {}, String(s.triangles[seat])),
    h("td", {}, num(ctx, s.deltas[seat] - s.triangles[seat])),
    h("td", {}, num(ctx, s.deltas[seat])),
    h("td", {}, String(s.scores[seat]))));
  return h("div", {class: "mu-result", "data-test": "mu-result"}, head,
    h("p", {class: ["mu-verdict", made ? "mu-made" : "mu-missed"]}, t(made ? "mu.result.made" : "mu.result.missed")),
    lines,
    h("div", {class: "mu-scroll"}, h("table", {class: "mu-sheet"},
      h("thead", {}, h("tr", {}, h("th", {}, t("mu.col.player")), h("th", {title: t("mu.col.triangles")}, triangle(h, "mu-tri-icon mu-tri-dark")),
        h("th", {}, t("mu.col.bonus")), h("th", {}, t("mu.col.hand")), h("th", {}, t("mu.col.total")))),
      h("tbody", {}, rows))));
}

// Every finished hand's points and the match totals, against the target.
function scoreSheet(ctx, table) {
  const {h, t} = ctx;
  const n = ctx.view.players;
  const seats = Array.from({length: n}, (_, i) => i);
  // a hand nobody bid on was dealt again: it keeps its row, so that the numbers run on without a gap
  const rows = table.hands.map((s) => (s.result === "redeal"
    ? h("tr", {class: "mu-redealt", "data-test": "mu-redealt"}, h("td", {}, String(s.hand)),
      h("td", {colspan: n}, t("mu.sheet.redeal")))
    : h("tr", {}, h("td", {}, String(s.hand)), seats.map((seat) => h("td", {}, num(ctx, s.deltas[seat]))))));
  const sheet = h("div", {class: "mu-scroll"}, h("table", {class: "mu-sheet", "data-test": "mu-totals"},
    h("thead", {}, h("tr", {}, h("th", {}, t("mu.col.hand_no")),
      seats.map((seat) => h("th", {class: "mu-col", title: seatName(ctx, seat)}, shortName(ctx, seat))))),
    h("tbody", {}, rows,
      h("tr", {class: "mu-total"}, h("td", {}, t("mu.col.total")), seats.map((seat) => h("td", {}, String(table.scores[seat])))))));
  return h("div", {class: "mu-result"},
    h("details", {class: "mu-history", open: table.phase === "over" || undefined},
      h("summary", {}, t("mu.sheet", {n: table.target})), sheet));
}

// -- the event log -------------------------------------------------------------------------------------------

// A deal makes one line, on the latest card of the run (each card alone would fill the log with 60 lines): how
// many cards each seat got.  The cards of one's own hand are in the hand itself.
function dealt(event, ctx) {
  const {t} = ctx;
  const events = ctx.events || [];
  const at = events.indexOf(event);
  if (at < 0) {
    return event.card ? t("mu.ev.deal_you", {card: cardWords(ctx, event.card)}) : t("mu.ev.deal", {name: seatName(ctx, event.seat)});
  }
  if (events[at + 1] && events[at + 1].type === "deal") return "";
  let first = at;
  while (first > 0 && events[first - 1].type === "deal") first--;
  const seats = new Set(events.slice(first, at + 1).map((e) => e.seat)).size;
  const each = Math.floor((at - first + 1) / seats);
  return plural(ctx, "mu.ev.dealt", each);
}

export function describe(event, ctx) {
  const {t} = ctx;
  const who = (seat) => seatName(ctx, seat);
  const name = who(event.seat);
  switch (event.type) {
    case "new_hand": return t("mu.ev.new_hand", {n: event.hand, name: who(event.dealer)});
    case "remove": return t("mu.ev.remove", {colour: colourWord(ctx, event.colour)});
    case "deal": return dealt(event, ctx);
    case "lay": return t("mu.ev.lay", {name, card: cardWords(ctx, event.card), bid: event.bid});
    case "done": return plural(ctx, "mu.ev.done", event.bid, {name});
    case "pass": return t("mu.ev.pass", {name});
    case "auction_end":
      if (event.result === "redeal") return t("mu.ev.redeal");
      if (event.result === "egalite") return t("mu.ev.egalite", {bids: event.bids.join(" · ")});
      return t(event.vice === null ? "mu.ev.auction_end_alone" : "mu.ev.auction_end",
        {chief: who(event.chief), vice: event.vice === null ? "" : who(event.vice), contract: event.contract});
    case "trump": {
      const trump = event.colour ?? String(event.number);
      return t("mu.ev.trump", {name, role: t(`mu.role.${event.role}`), trump: trumpWords(ctx, trump)});
    }
    case "no_trump": return t("mu.ev.no_trump", {name, role: t(`mu.role.${event.role}`)});
    case "partner": return t("mu.ev.partner", {name, partner: who(event.partner)});
    case "play":
      return t(event.from === "table" ? "mu.ev.play_table" : "mu.ev.play", {name, card: cardWords(ctx, event.card)});
    case "trick": return plural(ctx, "mu.ev.trick", event.triangles, {number: event.number, name: who(event.winner)});
    case "hand_scored": {
      if (event.result === "egalite") return t("mu.ev.scored_egalite", {n: event.hand, name: who(event.tie_maker)});
      const params = {n: event.hand, won: event.team_triangles, contract: event.contract, bonus: event.bonus,
        loss: event.chief_loss, gain: event.opponent_gain};
      return t(event.result === "made" ? "mu.ev.scored_made" : "mu.ev.scored_missed", params);
    }
    case "match_end": return t("mu.ev.match_end", {names: list(ctx, event.winners.map(who))});
    default: return null;
  }
}

// A move in words, as the game's buttons name it (the coach's hints and reviews): a card by its colour and
// number, a trump, a partner by the seat's name
export function moveName(move, ctx) {
  const {t} = ctx;
  switch (move.type) {
    case "lay": return cardWords(ctx, move.card);
    case "play": return move.from === "table" ? `${cardWords(ctx, move.card)} (${t("mu.laid")})` : cardWords(ctx, move.card);
    case "done": return t("mu.done");
    case "pass": return t("mu.pass");
    case "trump": return move.colour ? colourWord(ctx, move.colour) : t("mu.number_trump", {number: move.number});
    case "no_trump": return t("mu.no_trump");
    case "partner": return seatName(ctx, move.seat);
    default: return null;
  }
}
