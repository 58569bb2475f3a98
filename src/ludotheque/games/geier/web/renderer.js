// Hol's der Geier / Stupides Vautours at the table: the point card turned this round and the pot in the middle,
// each seat's face-down card and open pile in front of it, the person's 15 cards as buttons (one click plays a card
// face down), the last round's reveal, and at the end the ranking with the tie rule (DECISIONS geier-1..5).
//
// Everything drawn comes from ctx.view.table (view.py TABLE_SCHEMA) and ctx.legal; the page computes no rule: the
// taker of a pot is the view's, the cancelled (tied) cards are only marked for the eye.

const SEAT_COLOURS = ["#2f6fc0", "#d0342c", "#2e9e57", "#d9821b", "#7d4cab"];

const MOUSE = `<svg viewBox="0 0 40 28" aria-hidden="true"><path d="M7 20 C2 19 1 13 5 10" fill="none" stroke="#8a6f63"
 stroke-width="1.6" stroke-linecap="round"/><ellipse cx="18" cy="18" rx="12" ry="7.5" fill="#9b8a82"/><circle cx="30"
 cy="14" r="6" fill="#9b8a82"/><circle cx="28" cy="8" r="4" fill="#e2b3ad" stroke="#9b8a82" stroke-width="1.5"/><circle
 cx="32.5" cy="13" r="1.1" fill="#222"/><circle cx="36" cy="16" r="1.2" fill="#d46a7e"/><path d="M12 25 l-1 2 M22 25
 l1 2" stroke="#8a6f63" stroke-width="1.4" stroke-linecap="round"/></svg>`;

const VULTURE = `<svg viewBox="0 0 40 28" aria-hidden="true"><path d="M20 13 L2 5 L6 12 L1 13 L8 16 L3 18 L13 18 L20
 25 L27 18 L37 18 L32 16 L39 13 L34 12 L38 5 Z" fill="#1f1a24"/><ellipse cx="20" cy="12" rx="4.5" ry="2.6"
 fill="#f1ece2"/><circle cx="20" cy="7.5" r="3" fill="#e79a93"/><path d="M20 9.5 l-1.2 2.6 l2.4 0 Z" fill="#e8c15a"/>
 <circle cx="19" cy="7" r=".7" fill="#222"/><circle cx="21" cy="7" r=".7" fill="#222"/></svg>`;

let historyOpen = false;  // "every round" stays open across frames once opened

// -- small helpers ---------------------------------------------------------------------------------------------

/** 7, −3 (a true minus sign): a score. */
function plain(value) {
  return value < 0 ? `\u2212${-value}` : String(value);
}

/** +7, −3 (a true minus sign), 0: a point card or a sum of them. */
function signed(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `\u2212${-value}`;
  return "0";
}

function colour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** A seat's name; bots often share one ("bot (medium)"), so a shared name gets its place number. */
function seatName(ctx, seat) {
  const name = ctx.names[seat] ?? String(seat + 1);
  const shared = ctx.names.filter((other) => other === name).length > 1;
  return shared ? ctx.t("geier.seat_numbered", {name, n: seat + 1}) : name;
}

function listOf(ctx, items) {
  if (items.length <= 1) return items.join("");
  return ctx.t("geier.list_and", {rest: items.slice(0, -1).join(", "), last: items[items.length - 1]});
}

function potText(pot) {
  return pot.map(signed).join(" ");
}

/** "+7", or "+3 +5 (= +8)" for a pot of several cards. */
function potWithSum(pot) {
  if (pot.length < 2) return potText(pot);
  return `${potText(pot)} (= ${signed(pot.reduce((a, b) => a + b, 0))})`;
}

function svgSpan(h, markup) {
  const span = h("span", {class: "gz-art"});
  span.innerHTML = markup;  // the module's own constant drawing, never data
  return span.firstElementChild;
}

/** A point card: a mouse (+1..+10) or a vulture (−1..−5). */
function pointCard(ctx, value, size = "") {
  const {h, t} = ctx;
  const kind = value > 0 ? "mouse" : "vulture";
  return h("div", {class: ["card", "gz-point", kind, size], "data-point": value, role: "img",
    title: t(`geier.${kind}`) + ` ${signed(value)}`, "aria-label": t(`geier.${kind}`) + ` ${signed(value)}`},
  h("span", {class: "gz-name"}, t(`geier.${kind}`)),
  svgSpan(h, value > 0 ? MOUSE : VULTURE),
  h("span", {class: "gz-v"}, signed(value)));
}

/** A playing card (1..15) in a seat's colour; a button when it plays a move. */
function playCard(ctx, seat, value, {size = "", extra = [], entry = null, label = null} = {}) {
  const {h, t} = ctx;
  const style = `--seat: ${colour(seat)}`;
  const body = [
    // the corners' numbers are drawn by the stylesheet: the card's text is its number once, as its name says it
    h("span", {class: "gz-corner", "data-n": value, "aria-hidden": "true"}),
    h("span", {class: "gz-n"}, String(value)),
    h("span", {class: ["gz-corner", "gz-end"], "data-n": value, "aria-hidden": "true"}),
    label ? h("span", {class: "gz-mine"}, label) : null,
  ];
  if (entry) {
    return h("button", {class: ["card", "gz-play", "playable", size, ...extra], style,
      "data-notation": entry.notation, "data-card": value, disabled: ctx.pending,
      "aria-label": t("geier.play_card", {card: value}), onclick: () => ctx.play(entry)}, ...body);
  }
  return h("div", {class: ["card", "gz-play", size, ...extra], style, "data-card": value}, ...body);
}

function cardBack(ctx, seat, size = "") {
  return ctx.h("div", {class: ["card", "back", "gz-seatback", size], style: `--seat: ${colour(seat)}`,
    "data-back": "", role: "img", "aria-label": ctx.t("geier.face_down")});
}

// -- the table -------------------------------------------------------------------------------------------------

export function render(root, ctx) {
  const {h} = ctx;
  const table = ctx.view.table;
  const terminal = ctx.view.terminal;
  const last = table.rounds.length ? table.rounds[table.rounds.length - 1] : null;
  // root is a plain element: its append() would write null as text, so the zones left out are filtered first
  // at the end the ranking is the end panel's (summary below), shown once, not also on the board
  root.append(...[
    terminal ? null : middleZone(ctx, table),
    ctx.seat !== null && ctx.seat !== undefined && !terminal ? handZone(ctx, table) : null,
    last ? lastRoundZone(ctx, table, last) : null,
    h("div", {class: ["zone", "gz-seats"], "data-test": "geier-seats"},
      table.points.map((_, seat) => seatZone(ctx, table, seat, last))),
    table.rounds.length ? historyZone(ctx, table) : null,
  ].filter(Boolean));
}

function middleZone(ctx, table) {
  const {h, t} = ctx;
  const toCome = table.points_to_come;
  const sum = table.pot_sum;
  const single = ctx.view.options.tie_rule === "single";  // geier-3's option: only the tied best value is set aside
  const pot = table.pot.length
    ? h("div", {class: "cards"}, table.pot.map((value) => pointCard(ctx, value)))
    : h("div", {class: "gz-slot"}, t("geier.pot_empty"));
  return h("div", {class: ["zone", "gz-center"], "data-test": "geier-middle"},
    h("p", {class: "gz-round"}, t("geier.round", {n: Math.max(table.round, 1), total: 15})),
    h("div", {class: "gz-middle"},
      h("div", {class: "gz-pile"},
        h("span", {class: "gz-label"}, t("geier.deck")),
        toCome.length ? h("div", {class: "card back", role: "img", "aria-label": t("geier.to_come", {n: toCome.length})},
          h("span", {class: "gz-count"}, String(toCome.length))) : h("div", {class: "gz-slot"}, "0")),
      h("div", {class: "gz-pot", "data-test": "geier-pot"},
        h("span", {class: "gz-label"}, table.pot.length > 1 ? t("geier.pot_carried", {n: table.pot.length}) : t("geier.pot")),
        pot),
      table.pot.length ? h("p", {class: "gz-sum", "data-test": "geier-sum"},
        t("geier.pot_worth"), " ", h("strong", {}, signed(sum)),
        h("span", {class: "gz-hint"}, t(`geier.hint_${sum >= 0 ? "high" : "low"}${single ? "_single" : ""}`))) : null),
    toCome.length ? h("div", {},
      h("span", {class: "gz-label"}, t("geier.to_come_list", {n: toCome.length})),
      h("div", {class: "gz-tocome"}, toCome.map((value) =>
        h("span", {class: ["gz-chip", value > 0 ? "mouse" : "vulture"]}, signed(value))))) : null);
}

/** The values played by two or more seats: they never count (geier-3). Only marked for the eye. */
function tiedValues(played) {
  return new Set(played.filter((value, index) => played.indexOf(value) !== index));
}

function lastRoundZone(ctx, table, last) {
  const {h, t} = ctx;
  const number = table.rounds.length;
  const tied = [...tiedValues(last.played)].sort((a, b) => a - b);
  const finalRound = number === 15;
  let what;
  if (last.taker !== null) {
    const sum = last.pot.reduce((a, b) => a + b, 0);
    what = t(sum >= 0 ? "geier.last_took" : "geier.last_stuck", {name: seatName(ctx, last.taker),
      card: last.played[last.taker], pot: potWithSum(last.pot)});
  } else {
    what = t(finalRound ? "geier.last_lost" : "geier.last_stays", {pot: potWithSum(last.pot)});
  }
  const played = last.played.map((card, seat) => `${seatName(ctx, seat)} ${card}`).join(" · ");
  return h("div", {class: ["zone", "gz-last"], "data-test": "geier-last"},
    h("h3", {}, t("geier.last_round", {n: number})),
    h("p", {}, t("geier.last_played", {cards: played})),
    tied.length ? h("p", {}, t("geier.last_tied", {values: listOf(ctx, tied.map(String))})) : null,
    h("p", {class: "gz-what"}, what));
}

function handZone(ctx, table) {
  const {h, t} = ctx;
  const seat = ctx.seat;
  const hand = table.hand || [];
  const chosen = table.my_choice;
  const offered = ctx.legal.length > 0;
  let prompt;
  if (offered) prompt = t("geier.choose_prompt");
  else if (chosen) prompt = t("geier.chosen_wait", {card: chosen});
  else prompt = t("geier.wait_card");
  return h("div", {class: ["zone", "gz-hand"], "data-test": "geier-hand"},
    h("h3", {}, t("geier.your_hand", {n: hand.length})),
    h("p", {class: ["gz-prompt", offered && "mine"]}, prompt),
    h("div", {class: "cards", role: "group", "aria-label": t("geier.your_hand", {n: hand.length})},
      hand.map((card) => {
        const entry = offered ? ctx.find((m) => m.type === "play" && m.card === card) : null;
        return playCard(ctx, seat, card, {entry});
      })));
}

function seatZone(ctx, table, seat, last) {
  const {h, t} = ctx;
  const me = seat === ctx.seat;
  const terminal = ctx.view.terminal;
  const chose = table.chosen[seat];
  const took = last && last.taker === seat;
  // this round's card, face down in front of the seat (its owner sees its face)
  let slot = null;
  if (!terminal) {
    if (me && table.my_choice) slot = playCard(ctx, seat, table.my_choice, {size: "small", label: t("geier.hidden")});
    else if (chose) slot = cardBack(ctx, seat, "small");
    else slot = h("div", {class: ["gz-slot", "small", "gz-wait"], title: t(me ? "geier.your_pick" : "geier.thinking")},
      me ? "?" : "…");
  }
  // the open pile: the card played last round on top
  let pile;
  if (last) {
    const card = last.played[seat];
    const tied = tiedValues(last.played).has(card);
    pile = playCard(ctx, seat, card, {size: "small", extra: [took && "gz-took", tied && "gz-tied"]});
  } else {
    pile = h("div", {class: ["gz-slot", "small"]}, "–");
  }
  const won = table.won[seat];
  const left = table.unrevealed[seat];
  const leftSet = new Set(left);
  return h("section", {class: ["gz-seat", me && "me", took && "took"], style: `--seat: ${colour(seat)}`,
    "data-seat": seat, "data-chosen": chose ? "yes" : "no"},
  h("div", {class: "gz-head"},
    h("span", {class: "gz-dot"}),
    h("span", {class: "gz-who"}, seatName(ctx, seat), me ? ` (${t("geier.you")})` : ""),
    h("span", {class: "gz-points", "data-test": "points"}, t("geier.points", {n: plain(table.points[seat])}))),
  h("div", {class: "gz-row"},
    terminal ? null : h("div", {}, h("span", {class: "gz-label"}, t("geier.this_round")), slot),
    h("div", {}, h("span", {class: "gz-label"}, t("geier.open_pile")), pile),
    h("div", {class: "gz-won"}, h("span", {class: "gz-label"}, t("geier.won", {n: won.length})),
      won.length ? h("div", {class: "cards"}, won.map((value) => pointCard(ctx, value, "tiny")))
        : h("span", {class: "gz-none"}, t("geier.nothing_won")))),
  me || terminal ? null : h("div", {class: "gz-left", "data-test": "left"},
    h("span", {class: "gz-label"}, t("geier.left", {n: left.length})),
    h("div", {class: "gz-chips"}, Array.from({length: 15}, (_, i) => i + 1).map((card) =>
      h("span", {class: ["gz-chip", "num", !leftSet.has(card) && "gone"],
        title: leftSet.has(card) ? t("geier.still_held", {card}) : t("geier.already_played", {card})}, String(card))))));
}

function historyZone(ctx, table) {
  const {h, t} = ctx;
  const n = table.points.length;
  return h("details", {class: ["zone", "gz-history"], open: historyOpen || ctx.view.terminal,
    ontoggle: (event) => { historyOpen = event.target.open; }},
    h("summary", {}, t("geier.history", {n: table.rounds.length})),
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", {}, "#"), h("th", {}, t("geier.pot")),
        // each column named, not only coloured: a dot tells nobody who a colour is
        Array.from({length: n}, (_, seat) => h("th", {title: seatName(ctx, seat), "data-test": "geier-history-seat"},
          h("span", {class: "gz-dot", style: `--seat: ${colour(seat)}`}),
          h("span", {class: "gz-hname"}, seatName(ctx, seat)))))),
      h("tbody", {}, table.rounds.map((round, index) => {
        const tied = tiedValues(round.played);
        return h("tr", {},
          h("td", {}, String(index + 1)),
          h("td", {class: "gz-potcell"}, round.pot.map((value) =>
            h("span", {class: ["gz-chip", value > 0 ? "mouse" : "vulture"]}, signed(value))),
          round.taker === null ? h("span", {title: t("geier.nobody")}, " =") : null),
          round.played.map((card, seat) => h("td", {class: [seat === round.taker && "gz-taker", tied.has(card) && "gz-cancel"]},
            String(card))));
      }))));
}

// -- the end ---------------------------------------------------------------------------------------------------

// The end panel's result (table.js and replay.js put it in place of their plain ranking): who won, then the
// final ranking with mice, vultures and the tie rule.
export function summary(ctx) {
  const winners = ctx.view.winners || [];
  return ctx.h("div", {class: "game-geier"},
    ctx.h("h2", {}, winners.length
      ? ctx.t("end.winners", {names: listOf(ctx, winners.map((seat) => seatName(ctx, seat)))})
      : ctx.t("end.no_winner")),
    finalZone(ctx, ctx.view.table));
}

function finalZone(ctx, table) {
  const {h, t} = ctx;
  const points = table.points;
  const winners = ctx.view.winners || [];
  const order = points.map((_, seat) => seat).sort((a, b) => points[b] - points[a] || a - b);
  const rank = (seat) => 1 + points.filter((p) => p > points[seat]).length;
  const rows = order.map((seat) => {
    const won = table.won[seat];
    const mice = won.filter((v) => v > 0).reduce((a, b) => a + b, 0);
    const vultures = won.filter((v) => v < 0).reduce((a, b) => a + b, 0);
    return h("tr", {class: winners.includes(seat) ? "win" : null, "data-seat": seat},
      h("td", {class: "gz-rank"}, t("geier.rank", {n: rank(seat)})),
      h("td", {}, h("span", {class: "gz-name-cell"}, h("span", {class: "gz-dot", style: `--seat: ${colour(seat)}`}),
        h("span", {}, seatName(ctx, seat)), winners.includes(seat) ? h("span", {class: "gz-badge"}, t("geier.winner")) : null)),
      h("td", {class: "num"}, signed(mice)),
      h("td", {class: "num"}, signed(vultures)),
      h("td", {class: "num"}, h("strong", {}, plain(points[seat]))));
  });
  const finalTie = ctx.view.options.final_tie || "next-best";
  return h("div", {class: ["zone", "gz-final"], "data-test": "geier-final"},
    h("h3", {}, t("geier.final_title")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, ""), h("th", {class: "num"}, t("geier.col_mice")),
        h("th", {class: "num"}, t("geier.col_vultures")), h("th", {class: "num"}, t("geier.col_total")))),
      h("tbody", {}, rows)),
    tieOutcome(ctx, table, winners, finalTie),
    h("p", {class: ["gz-tie", "rule"], "data-test": "tie-rule"}, t(`geier.tie_rule.${finalTie}`)),
  );
}

/** What the tie rule did this game, when the best score was shared (geier-5); nothing otherwise. */
function tieOutcome(ctx, table, winners, finalTie) {
  const {h, t} = ctx;
  const points = table.points;
  const top = Math.max(...points);
  const leaders = points.map((_, s) => s).filter((s) => points[s] === top);
  if (leaders.length < 2) return null;
  const tiedNames = listOf(ctx, leaders.map((s) => seatName(ctx, s)));
  let outcome;
  if (!winners.length) {
    outcome = t(finalTie === "next-best" ? "geier.tie_none_unique" : "geier.tie_no_mouse");
  } else if (finalTie === "next-best") {
    outcome = t("geier.tie_next_best", {name: seatName(ctx, winners[0]), points: plain(points[winners[0]])});
  } else {
    const best = Math.max(...table.won[winners[0]].filter((v) => v > 0));
    outcome = t("geier.tie_mouse", {names: listOf(ctx, winners.map((s) => seatName(ctx, s))), mouse: signed(best)});
  }
  return h("p", {class: "gz-tie", "data-test": "tie-outcome"},
    t("geier.tie_happened", {names: tiedNames, points: plain(top)}), " ", outcome);
}

// -- the log ---------------------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const {t} = ctx;
  if (event.type === "turn") {
    const kind = event.points > 0 ? "mouse" : "vulture";
    const sum = event.pot.reduce((a, b) => a + b, 0);
    if (event.pot.length > 1) {
      return t("geier.log.turn_carried", {card: `${t(`geier.${kind}`).toLowerCase()} ${signed(event.points)}`,
        pot: potText(event.pot), sum: signed(sum)});
    }
    return t("geier.log.turn", {card: `${t(`geier.${kind}`).toLowerCase()} ${signed(event.points)}`});
  }
  if (event.type === "choose") {
    if (event.card !== undefined && event.seat === ctx.seat) return t("geier.log.choose_mine", {card: event.card});
    return t("geier.log.choose", {name: seatName(ctx, event.seat)});
  }
  if (event.type === "reveal") {
    const played = event.played.map((card, seat) => `${seatName(ctx, seat)} ${card}`).join(", ");
    let text;
    if (event.taker !== null && event.taker !== undefined) {
      const sum = event.pot.reduce((a, b) => a + b, 0);
      text = t(sum >= 0 ? "geier.log.reveal_took" : "geier.log.reveal_stuck", {cards: played,
        name: seatName(ctx, event.taker), pot: potWithSum(event.pot)});
    } else if (event.lost && event.lost.length) {
      text = t("geier.log.reveal_lost", {cards: played, pot: potWithSum(event.lost)});
    } else {
      text = t("geier.log.reveal_stays", {cards: played});
    }
    return text;
  }
  return null;
}

// A move in words, as its button names it (the coach's hints and reviews)
export function moveName(move, ctx) {
  return move.type === "play" ? ctx.t("geier.play_card", {card: move.card}) : null;
}
