// What the table page (table.js) and the replay page (replay.js) both draw around the board: the bar at the top, the
// seats and the event log, with the names they say.  One module, so that a game reads the same on both pages: the
// same seat names, the same lines in the log, the same classes and accessible names.  Each page adds its own parts
// through the arguments (the table its presence dots, clocks and life notices; the replay nothing).

import {h} from "./dom.js";
import {currentLang, languageButtons, t} from "./i18n.js";

// The game `gameId` among GET /api/games's `games` (null while unknown): its catalog entry, with `catalogName` (the
// server's name) and `name` (the page's language's, from the game's messages when they name it)
export function gameTitle(games, gameId) {
  const game = (games || []).find((g) => g.id === gameId) || {name: gameId};
  const key = `${gameId}.game.name`;
  return {...game, catalogName: game.name, name: t(key) === key ? game.name : t(key)};
}

// A bot's seat by its level and place ("Bot moyen 2"): a level the catalog does not name is said as the server has it
function botName(spec, index) {
  const level = t(`level.${spec}`);
  return t("seat.bot_at", {level: level === `level.${spec}` ? spec : level, n: index + 1});
}

// The seats' names, in seat order, from a frame's or a summary's `seats` ({kind, name}): a bot by its level, an open
// seat said as one
export function seatNames(seats) {
  return seats.map((s, i) => (s.kind === "bot" ? botName(s.name, i) : s.name || t("seat.open")));
}

// The bar at the top of the page: the way home, the page's `title` (its parts), the page's own `controls`, and the
// language buttons (a choice draws the page again with `redraw`)
export function bar({title, controls = [], redraw}) {
  return h("header", {class: "bar"},
    h("a", {href: "/", class: "home"}, "ludotheque"),
    h("span", {class: "title"}, ...title),
    h("span", {class: "spacer"}),
    ...controls,
    languageButtons(h, redraw));
}

// The seats, in order: each named (a link to the account's page when `accounts[index]` names one: guests and bots
// have none), marked "to-act" when it is among `toAct`, and "me" when it is `me` (the reader's seat, or the seat
// whose view is shown).  `before(index)` and `after(index)` are the page's own parts of a seat, around its name.
export function seatList({names, toAct = [], me = null, accounts = [], before = () => null, after = () => null}) {
  return h("ol", {class: "seats", "aria-label": t("table.seats")},
    names.map((name, index) => h("li", {class: ["seat", toAct.includes(index) && "to-act", index === me && "me"]},
      before(index),
      accounts[index] ? h("a", {class: "name", href: `/players/${encodeURIComponent(accounts[index])}`,
        "data-player": accounts[index]}, name) : h("span", {class: "name"}, name),
      after(index))));
}

// An event of the log in the game's words (its renderer's describe()): "" or null for an event not worth a line
// (each card dealt, say); a renderer that cannot say it, or fails to, names its type
export function describeEvent(renderer, event, ctx) {
  if (!renderer.describe) return `${event.type}`;
  try { return renderer.describe(event, ctx); } catch { return `${event.type}`; }
}

const LOG_LINES = 40;

// The event log, newest first: "what happened".  `live`: a polite live region (aria-live) that stays one element
// for the page's life, its lines added as frames bring them, so that a screen reader says each new line once (the
// table's); otherwise a plain list (the replay's, drawn again at each step).  `show()` brings it up to date and
// returns its element: a line's words are asked of the renderer each time (a line may say what later events changed,
// as Calcory's one line for its deal), and only a line whose words changed is touched; the list is written again
// whole when the language or a seat's name changes.
export function createEventLog({live = false} = {}) {
  // tabindex: the list scrolls, and the keyboard scrolls it too
  const list = live ? h("ol", {"aria-live": "polite", "aria-relevant": "additions", "data-test": "log", tabindex: "0"})
    : h("ol", {tabindex: "0"});
  const element = h("details", {class: live ? "log log-area" : "log", open: true},
    h("summary", {}, t("table.what_happened")), list);
  const lines = new Map();  // each line shown, by its key
  let words = null;

  // `events` seen so far in order, those of the latest frame or step among them (`recent`, marked "new"), each said
  // with `describe(event)`; `notices` (the table's life at the table: {at, kind, text}), each before the events of
  // the frame that brought it (`at`: the number of events then); `names`: the seats' names the lines use
  function show({events, recent, describe, names, notices = []}) {
    const now = JSON.stringify([currentLang(), names]);
    if (now !== words) {
      words = now;
      element.querySelector("summary").textContent = t("table.what_happened");
      list.replaceChildren();
      lines.clear();
    }
    // the newest lines, newest first; each known by its place among the events (`e3`) or among the notices (`n1`)
    const wanted = [];
    for (let index = events.length; index >= 0 && wanted.length < LOG_LINES; index--) {
      const event = events[index];
      const text = event && describe(event);
      if (text) wanted.push({key: `e${index}`, text, recent: recent.includes(event)});
      for (let at = notices.length - 1; at >= 0; at--) {
        const notice = notices[at];
        if (notice.at === index) wanted.push({key: `n${at}`, text: notice.text, notice});
      }
    }
    const items = wanted.map((line) => {
      let item = lines.get(line.key);
      if (!item) {
        item = line.notice
          ? h("li", {class: ["log-notice", line.notice.kind], "data-test": "log-notice"}, line.text)
          : h("li", {}, line.text);
        lines.set(line.key, item);
      } else if (item.textContent !== line.text) {
        item.textContent = line.text;
      }
      if (!line.notice) item.classList.toggle("new", Boolean(line.recent));
      return item;
    });
    // the lines no longer shown go; the others are put in order, which moves none as long as frames only add lines
    const keep = new Set(items);
    for (const [key, item] of lines) {
      if (!keep.has(item)) { item.remove(); lines.delete(key); }
    }
    let cursor = list.firstChild;
    for (const item of items) {
      if (item === cursor) cursor = cursor.nextSibling;
      else list.insertBefore(item, cursor);
    }
    return element;
  }

  return {element, show};
}
