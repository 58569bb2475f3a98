// Cheese Rescue at the table: the grid of cards (cropped to the cards and the cells where one may go now), the
// seat's own hand, the other seats' hands as card backs, the draw pile, and at the end the scoring of cheese-5
// drawn on the grid.  A move is two clicks: a card of the hand (data-step), then a golden cell (data-notation).
//
// The view's cells are numbered row * F + col from the frame's top left (docs/games/cheese.md); the kinds are
// 0..5 = dog, cat, mouse, cheese 1, 2, 3, written D, C, M, 1, 2, 3 as in the moves.

const KINDS = ["D", "C", "M", "1", "2", "3"];
const COLUMNS = "abcdefghijklm";
const SEAT_COLOURS = ["#d0342c", "#2f6fc0", "#8e44ad", "#138a72"];
const SHAPES = ["round", "wedge", "square", "hexagon"];  // each seat's cheeses have their own shape
const STEPS = ["cats", "mice", "cheeses"];  // cheese-5, in this order

// The selection survives the frames: the kind chosen in the hand, and how many cards lay on the table then.
let selected = null;
let selectedAt = -1;
let focusAfter = null;  // a selector to focus once the table is drawn again (keyboard play)

// -- pictures ---------------------------------------------------------------------------------------------

const ANIMAL_SVG = {
  D: `<ellipse cx="9.5" cy="19" rx="4.6" ry="9.5" fill="#6b4423" transform="rotate(18 9.5 19)"/>
<ellipse cx="30.5" cy="19" rx="4.6" ry="9.5" fill="#6b4423" transform="rotate(-18 30.5 19)"/>
<ellipse cx="20" cy="20.5" rx="10.5" ry="12" fill="#b9834d"/>
<path d="M20 9.5c-2.5 2-2.5 6 0 8c2.5-2 2.5-6 0-8z" fill="#e8c9a0"/>
<ellipse cx="20" cy="27" rx="6.6" ry="5.2" fill="#e8c9a0"/>
<ellipse cx="20" cy="24.4" rx="2.8" ry="2" fill="#1f1a17"/>
<circle cx="15.4" cy="18.5" r="1.9" fill="#1f1a17"/><circle cx="24.6" cy="18.5" r="1.9" fill="#1f1a17"/>
<path d="M20 26.2v2.4M16.8 29.4q3.2 2.4 6.4 0" stroke="#1f1a17" stroke-width="1.1" fill="none" stroke-linecap="round"/>`,
  C: `<path d="M8.5 16L10.5 4.5L18.5 11.5Z" fill="#e67e22"/><path d="M31.5 16L29.5 4.5L21.5 11.5Z" fill="#e67e22"/>
<path d="M10.6 13L11.6 7.6L15.4 11Z" fill="#f6b0bd"/><path d="M29.4 13L28.4 7.6L24.6 11Z" fill="#f6b0bd"/>
<ellipse cx="20" cy="21.5" rx="12.2" ry="10.8" fill="#e67e22"/>
<path d="M20 11.2v4M16.6 11.8l1.2 3.4M23.4 11.8l-1.2 3.4" stroke="#a8520f" stroke-width="1.4" stroke-linecap="round"/>
<ellipse cx="15" cy="20" rx="2.5" ry="3" fill="#b8e04a"/><ellipse cx="25" cy="20" rx="2.5" ry="3" fill="#b8e04a"/>
<ellipse cx="15" cy="20" rx=".8" ry="2.5" fill="#1f1a17"/><ellipse cx="25" cy="20" rx=".8" ry="2.5" fill="#1f1a17"/>
<path d="M18.4 24.6h3.2L20 26.6Z" fill="#f27e98"/>
<path d="M20 26.6q-1.6 2-3.4 1.2M20 26.6q1.6 2 3.4 1.2" stroke="#1f1a17" stroke-width="1" fill="none"/>
<path d="M13.5 25.5l-8-1.4M13.5 27l-7.6 1.6M26.5 25.5l8-1.4M26.5 27l7.6 1.6" stroke="#fff" stroke-width=".9"/>`,
  M: `<circle cx="10" cy="12.5" r="7.8" fill="#8d949b"/><circle cx="10" cy="12.5" r="4.8" fill="#f4b4c1"/>
<circle cx="30" cy="12.5" r="7.8" fill="#8d949b"/><circle cx="30" cy="12.5" r="4.8" fill="#f4b4c1"/>
<path d="M9.5 20c0-6 4.7-9 10.5-9s10.5 3 10.5 9c0 5.5-6 12.5-10.5 14.5C15.5 32.5 9.5 25.5 9.5 20z" fill="#b3b9bf"/>
<circle cx="16" cy="20" r="1.8" fill="#1f1a17"/><circle cx="24" cy="20" r="1.8" fill="#1f1a17"/>
<circle cx="20" cy="32" r="2" fill="#f27e98"/>
<path d="M16 28.5l-9-1M16 30l-8.4 2.2M24 28.5l9-1M24 30l8.4 2.2" stroke="#4a4f54" stroke-width=".8"/>`,
  S: `<circle cx="20" cy="20" r="14" fill="none" stroke="#c9a45a" stroke-width="2"/>
<path d="M20 5l3.6 11.4L35 20l-11.4 3.6L20 35l-3.6-11.4L5 20l11.4-3.6z" fill="#d9a21b"/>
<circle cx="20" cy="20" r="3" fill="#fff8e6"/>`,
};

const CHEESE_BODY = {
  round: `<circle cx="20" cy="20" r="15" fill="#f5c542" stroke="#c9981a" stroke-width="1.5"/>
<circle cx="12" cy="14" r="2.6" fill="#dfa82a"/><circle cx="28.5" cy="26.5" r="2.2" fill="#dfa82a"/><circle cx="27" cy="12.5" r="1.6" fill="#dfa82a"/>`,
  wedge: `<path d="M4 32L36 32L36 9Z" fill="#f5c542" stroke="#c9981a" stroke-width="1.5" stroke-linejoin="round"/>
<circle cx="31" cy="17" r="2" fill="#dfa82a"/><circle cx="14" cy="29" r="1.8" fill="#dfa82a"/>`,
  square: `<rect x="5.5" y="5.5" width="29" height="29" rx="4" fill="#f5c542" stroke="#c9981a" stroke-width="1.5"/>
<circle cx="11.5" cy="11.5" r="2.4" fill="#dfa82a"/><circle cx="29" cy="29" r="2.2" fill="#dfa82a"/><circle cx="29" cy="11" r="1.5" fill="#dfa82a"/>`,
  hexagon: `<path d="M20 4L34 12V28L20 36L6 28V12Z" fill="#f5c542" stroke="#c9981a" stroke-width="1.5" stroke-linejoin="round"/>
<circle cx="13" cy="14.5" r="2.3" fill="#dfa82a"/><circle cx="27" cy="28" r="2" fill="#dfa82a"/>`,
};

// where the value sits on each shape
const VALUE_AT = {round: [20, 25.5], wedge: [27, 29], square: [20, 26], hexagon: [20, 26]};

function svg(inner, className) {
  const span = document.createElement("span");
  span.className = className || "art";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 40 40" xmlns="http://www.w3.org/2000/svg">${inner}</svg>`;
  return span;
}

function cheeseSvg(seat, value) {
  const shape = SHAPES[seat % SHAPES.length];
  const [x, y] = VALUE_AT[shape];
  const number = value
    ? `<text x="${x}" y="${y}" text-anchor="middle" font-size="15" font-weight="800" fill="#5a3b00" stroke="#fff6d0" stroke-width="3" paint-order="stroke" font-family="system-ui, sans-serif">${value}</text>`
    : "";
  return CHEESE_BODY[shape] + number;
}

function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// A card's face: an animal, the start card, or a seat's cheese with its value.
function face(h, code, seat, extraClass, {number = true} = {}) {
  const cheese = /^[123]$/.test(code);
  const art = cheese ? svg(cheeseSvg(seat, number ? Number(code) : 0)) : svg(ANIMAL_SVG[code]);
  return h("div", {class: ["face", `kind-${cheese ? "cheese" : code}`, extraClass],
    style: cheese ? {"--seat": seatColour(seat)} : null}, art);
}

// A small chip of a seat's cheese shape in its colour (who is who).
function shapeChip(h, seat, value) {
  return h("span", {class: "chip", style: {"--seat": seatColour(seat)}}, svg(cheeseSvg(seat, value || 0), "chip-art"));
}

// -- the table ------------------------------------------------------------------------------------------

export function render(root, ctx) {
  const table = ctx.view.table;
  if (selected !== null) {
    const still = ctx.myTurn && selectedAt === table.placed.length
      && ctx.find((m) => m.type === "place" && m.card === selected);
    if (!still) selected = null;
  }
  const redraw = () => {
    root.replaceChildren();
    render(root, ctx);
  };
  const zones = [othersZone(ctx), gridZone(ctx), handZone(ctx, redraw),
    ctx.view.terminal && table.removed ? scoringZone(ctx) : null];
  root.append(...zones.filter(Boolean));
  if (focusAfter) {
    const target = root.querySelector(focusAfter);
    focusAfter = null;
    if (target) target.focus({preventScroll: true});
  }
}

function cardName(ctx, code, article) {
  return ctx.t(`cheese.${article}.${code}`);
}

function othersZone(ctx) {
  const {h, t, view} = ctx;
  const table = view.table;
  const seats = [];
  for (let seat = 0; seat < view.players; seat++) {
    if (seat === ctx.seat) continue;
    const hand = table.hands[seat];
    const size = hand.cheeses.length + hand.animals;
    const backs = [];
    for (let i = 0; i < size; i++) backs.push(h("div", {class: "card back mini"}));
    seats.push(h("div", {class: ["other", table.turn === seat && "to-act"], "data-seat": seat,
      style: {"--seat": seatColour(seat)}},
      h("div", {class: "who"}, shapeChip(h, seat), h("span", {class: "name"}, ctx.names[seat] || "?"),
        table.turn === seat ? h("span", {class: "turn"}, t("cheese.to_play")) : null),
      h("div", {class: "backs", "data-test": "backs", role: "img", "aria-label": t("cheese.hand_size", {n: size})},
        backs, h("span", {class: "count"}, `${size}`)),
      h("div", {class: "small-line"},
        t("cheese.placed_of", {n: table.placed_count[seat], total: 12}),
        hand.cheeses.length ? h("span", {class: "in-hand", title: t("cheese.cheeses_in_hand")}, " · ",
          hand.cheeses.map((v) => shapeChip(h, seat, v))) : null)));
  }
  const total = 12 * view.players;
  const pile = h("div", {class: "pile", "data-test": "pile"},
    table.pile ? h("div", {class: "card back pile-card"}, h("span", {}, `${table.pile}`)) : h("div", {class: "pile-empty"}),
    h("div", {class: "pile-text"},
      h("strong", {}, t("cheese.pile", {n: table.pile})),
      h("span", {}, t("cheese.progress", {n: table.placed.length, total})),
      h("span", {}, t("cheese.surface", {n: table.side}))));
  return h("div", {class: "top"}, seats, pile);
}

function gridZone(ctx) {
  const {h, t, view} = ctx;
  const table = view.table;
  const F = table.frame;
  const cards = new Map();
  if (table.start !== null) cards.set(table.start, {code: "S", seat: -1, index: -1});
  table.placed.forEach(([cell, kind, seat], index) => cards.set(cell, {code: KINDS[kind], seat, index}));
  const legal = new Set(table.legal_cells);
  const removed = new Map();
  if (table.removed) STEPS.forEach((step, i) => table.removed[step].forEach((cell) => removed.set(cell, i + 1)));
  const cells = [...cards.keys(), ...legal];
  if (!cells.length) return null;
  const rows = cells.map((c) => Math.floor(c / F));
  const cols = cells.map((c) => c % F);
  const [r0, r1, c0, c1] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
  const width = c1 - c0 + 1;

  // the cards placed since the seat last played (or the last round, for a spectator): what just happened
  let since = table.placed.length - (view.players - 1);
  if (ctx.seat !== null) {
    const mine = table.placed.map((p) => p[2]).lastIndexOf(ctx.seat);
    since = mine + 1;
  }
  const choosing = selected !== null && ctx.myTurn;
  const grid = h("div", {class: ["grid", choosing && "choosing"], "data-test": "grid",
    style: {gridTemplateColumns: `1rem repeat(${width}, minmax(0, 1fr))`, maxWidth: `calc(1rem + ${width} * 4.6rem)`}});
  grid.append(h("span", {class: "label"}));
  for (let c = c0; c <= c1; c++) grid.append(h("span", {class: "label col"}, COLUMNS[c]));
  for (let r = r0; r <= r1; r++) {
    grid.append(h("span", {class: "label row"}, `${F - r}`));
    for (let c = c0; c <= c1; c++) {
      const cell = r * F + c;
      const name = `${COLUMNS[c]}${F - r}`;
      const card = cards.get(cell);
      if (card) {
        const step = removed.get(cell);
        const label = card.code === "S" ? t("cheese.start_card")
          : /^[123]$/.test(card.code) ? t("cheese.cheese_of", {value: card.code, name: ctx.names[card.seat] || "?"})
            : cardName(ctx, card.code, "name");
        grid.append(h("div", {class: ["cell", "card-cell", !view.terminal && card.index >= since && "new",
          step && `removed step-${step}`], "data-cell": name, title: `${name} · ${label}`},
        face(h, card.code, card.seat),
        step ? h("span", {class: "cross", "aria-hidden": "true"}) : null,
        step ? h("span", {class: "badge", title: t(`cheese.step.${step}`)}, `${step}`) : null));
        continue;
      }
      if (!legal.has(cell)) {
        grid.append(h("div", {class: "cell empty"}));
        continue;
      }
      const entry = choosing
        ? ctx.find((m) => m.type === "place" && m.card === selected && m.row === r && m.col === c)
        : undefined;
      if (entry) {
        grid.append(h("button", {class: "cell target", "data-notation": entry.notation, "data-cell": name,
          disabled: ctx.pending, "aria-label": t("cheese.put_on", {card: cardName(ctx, selected, "the"), cell: name}),
          onclick: () => {
            selected = null;
            ctx.play(entry);
          }}, face(h, selected, ctx.seat, "ghost"), h("span", {class: "plus", "aria-hidden": "true"})));
      } else {
        grid.append(h("div", {class: "cell free", "data-cell": name, title: name}));
      }
    }
  }
  return h("div", {class: "zone grid-zone"}, grid, legend(ctx));
}

function legend(ctx) {
  const {h, t} = ctx;
  const mine = ctx.seat === null ? 0 : ctx.seat;
  return h("p", {class: "legend"},
    svg(ANIMAL_SVG.D, "icon"), h("span", {}, t("cheese.legend.scares")),
    svg(ANIMAL_SVG.C, "icon"), h("span", {}, t("cheese.legend.catches")),
    svg(ANIMAL_SVG.M, "icon"), h("span", {}, t("cheese.legend.eats")),
    svg(cheeseSvg(mine, 0), "icon"));
}

function handZone(ctx, redraw) {
  const {h, t, view} = ctx;
  const table = view.table;
  if (ctx.seat === null || !table.hand) return null;
  const hand = table.hand;
  const groups = [];
  hand.forEach((count, kind) => {
    if (!count) return;
    const code = KINDS[kind];
    const playable = ctx.myTurn && ctx.find((m) => m.type === "place" && m.card === code);
    const faces = [];
    // a cheese's value is written once, under its cards ("1 point ×3"), and the button's name says those words
    for (let i = 0; i < count; i++) faces.push(h("div", {class: "card hand-card"}, face(h, code, ctx.seat, null, {number: false})));
    const written = `${cardName(ctx, code, /^[123]$/.test(code) ? "value" : "name")}${count > 1 ? ` ×${count}` : ""}`;
    const label = h("span", {class: "card-label"}, written);
    const isSelected = selected === code;
    if (playable) {
      groups.push(h("button", {class: ["hand-group", "playable", isSelected && "selected"], "data-step": `card ${code}`,
        "data-card": code, "aria-pressed": isSelected ? "true" : "false", disabled: ctx.pending,
        "aria-label": /^[123]$/.test(code) ? `${cardName(ctx, code, "name")}, ${written}` : written,
        onclick: () => {
          selected = isSelected ? null : code;
          selectedAt = table.placed.length;
          focusAfter = selected ? "button.cell.target" : `[data-card="${code}"]`;
          redraw();
        }}, h("span", {class: "fan"}, faces), label));
    } else {
      groups.push(h("div", {class: "hand-group", "data-card": code}, h("span", {class: "fan"}, faces), label));
    }
  });
  let prompt = null;
  if (ctx.myTurn && selected) {
    prompt = h("div", {class: "prompt"},
      h("span", {}, t("cheese.prompt.cell", {card: cardName(ctx, selected, "the")})),
      h("button", {class: "cancel", "data-test": "cancel", onclick: () => {
        const was = selected;
        selected = null;
        focusAfter = `[data-card="${was}"]`;
        redraw();
      }}, t("cheese.cancel")));
  } else if (ctx.myTurn) {
    prompt = h("div", {class: "prompt"}, h("span", {}, t("cheese.prompt.card")));
  }
  const placed = table.placed_count[ctx.seat];
  return h("div", {class: "zone hand-zone", "data-test": "hand", style: {"--seat": seatColour(ctx.seat)}},
    h("h3", {}, shapeChip(h, ctx.seat), t(view.terminal ? "cheese.discarded" : "cheese.your_hand"),
      view.terminal ? null : h("span", {class: "small-line"}, ` · ${t("cheese.placed_of", {n: placed, total: 12})}`)),
    prompt,
    groups.length ? h("div", {class: "hand"}, groups) : h("p", {class: "small-line"}, t("cheese.empty_hand")));
}

function scoringZone(ctx) {
  const {h, t, view} = ctx;
  const table = view.table;
  const F = table.frame;
  const owner = new Map(table.placed.map(([cell, kind, seat]) => [cell, {kind, seat}]));
  const cellName = (cell) => `${COLUMNS[cell % F]}${F - Math.floor(cell / F)}`;
  const steps = STEPS.map((step, i) => {
    const cells = table.removed[step];
    const items = cells.map((cell) => {
      const card = owner.get(cell);
      return h("span", {class: "removed-item"}, face(h, KINDS[card.kind], card.seat, "tiny"), cellName(cell));
    });
    return h("li", {"data-step-result": step},
      h("span", {class: `badge inline step-${i + 1}`}, `${i + 1}`),
      h("span", {class: "step-text"}, h("strong", {}, t(`cheese.step.${i + 1}`)), " ",
        items.length ? h("span", {class: "removed-list"}, items) : h("em", {}, t(`cheese.step.none.${i + 1}`))));
  });
  const gone = new Set(table.removed.cheeses);
  const winners = view.winners || [];
  const rows = [];
  for (let seat = 0; seat < view.players; seat++) {
    const kept = table.placed
      .filter(([cell, kind, s]) => s === seat && kind >= 3 && !gone.has(cell))
      .map(([, kind]) => kind - 2)
      .sort((a, b) => b - a);
    rows.push(h("tr", {class: winners.includes(seat) ? "winner" : null, "data-seat": seat},
      h("td", {class: "who"}, shapeChip(h, seat), ctx.names[seat] || "?",
        winners.includes(seat) ? h("span", {class: "crown"}, ` ${t("cheese.wins")}`) : null),
      h("td", {class: "kept"}, kept.length ? kept.map((v) => shapeChip(h, seat, v)) : "–"),
      h("td", {class: "num points"}, `${table.points[seat]}`)));
  }
  return h("div", {class: "zone scoring", "data-test": "scoring"},
    h("h3", {}, t("cheese.scoring")),
    h("ol", {class: "steps"}, steps),
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {}, h("th", {}, t("cheese.player")), h("th", {}, t("cheese.remaining")),
        h("th", {class: "num"}, t("cheese.points_head")))),
      h("tbody", {}, rows)),
    h("p", {class: "small-line"}, t("cheese.tie_rule")));
}

// -- the log ------------------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const {t, names} = ctx;
  const who = names[event.seat] || "?";
  if (event.type === "draw") {
    return event.card
      ? t("cheese.log.draw_seen", {who, card: t(`cheese.a.${event.card}`), pile: event.pile})
      : t("cheese.log.draw", {who, pile: event.pile});
  }
  if (event.type === "place") {
    return t("cheese.log.place", {who, card: t(`cheese.a.${event.card}`), cell: event.cell});
  }
  if (event.type === "end") {
    const scores = event.points.map((p, seat) => `${names[seat] || "?"} ${p}`).join(", ");
    const won = (event.winners || []).map((seat) => names[seat] || "?").join(", ");
    return t("cheese.log.end", {cats: event.removed.cats.length, mice: event.removed.mice.length,
      cheeses: event.removed.cheeses.length, scores, winners: won || "–"});
  }
  return null;
}

// A move in words, as the game's buttons name it (the coach's hints and reviews); the cell as the grid labels it,
// which the notation writes too ("C e6")
export function moveName(move, ctx, notation = "") {
  if (move.type !== "place") return null;
  return ctx.t("cheese.put_on", {card: cardName(ctx, move.card, "the"), cell: notation.split(" ").pop()});
}
