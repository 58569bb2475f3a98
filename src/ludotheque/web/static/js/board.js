// The game's board, as the table and the replay draw it: the game's own renderer (games/<id>/web/renderer.js) with
// its stylesheet (renderer.css beside it), or the plain fallback for a game without one (or with ?renderer=fallback
// in the address); and the context every renderer is given, built in one place for both pages.

import {h} from "./dom.js";
import {currentLang, t} from "./i18n.js";

// How long the page waits for a game's stylesheet before it draws without it: a slow or missing file never
// keeps the table from being played.
const STYLE_TIMEOUT_MS = 5000;

export async function loadRenderer(gameId) {
  if (new URLSearchParams(location.search).get("renderer") === "fallback") return await import("/static/js/fallback.js");
  let renderer;
  try {
    renderer = await import(`/games/${gameId}/web/renderer.js`);
  } catch {
    return await import("/static/js/fallback.js");  // a game without its own renderer stays playable
  }
  await loadStyle(gameId);
  return renderer;
}

// The game's renderer.css, linked once in the page's head; resolved when it has loaded (or failed, or taken too
// long), so that the first board drawn already has its cards' shapes and colours.
function loadStyle(gameId) {
  const href = `/games/${encodeURIComponent(gameId)}/web/renderer.css`;
  if (document.querySelector(`link[data-game-style="${gameId}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", {rel: "stylesheet", href, "data-game-style": gameId});
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    setTimeout(resolve, STYLE_TIMEOUT_MS);
    document.head.append(link);
  });
}

// The context a renderer's render(root, ctx), describe(event, ctx) and summary(ctx) are given: the same keys on the
// table and in the replay (docs/web.md lists them).  The page passes what it knows; what a replay cannot do (play a
// move) it leaves out and gets a harmless default.
//   view      the seat's view of the position (the server's, never the state)
//   legal     the moves offered now, each {id, notation, move}; [] when none is (not one's turn, offline, a replay)
//   help      what the server says of the seat's own moves beyond `legal` (Game.seat_help), or null
//   seat      the seat whose view this is, or null for a spectator
//   names     each seat's name, as the page shows it
//   status    "waiting", "playing" or "finished"
//   events    every event this seat saw up to the position shown, in order
//   recent    the events of the latest frame (of the step shown, in a replay)
//   pending   a move is on its way to the server: no other may be sent
//   play      play(entry or notation): sends a legal move
//   redraw    draws the board again from the same frame (a selection that lives only in the page)
export function makeContext({view, legal = [], help = null, seat = null, names = [], status = "playing", events = [],
  recent = [], pending = false, play = () => {}, redraw = () => {}}) {
  return {
    h, t, lang: currentLang(), view, legal, help: legal.length ? help : null, seat, names, status, events, recent,
    pending, play, redraw,
    myTurn: seat !== null && legal.length > 0 && !pending,
    find: (test) => legal.find((entry) => test(entry.move)),
    findAll: (test) => legal.filter((entry) => test(entry.move)),
  };
}

// the board section drawn by `renderer` for `ctx`; a renderer's error is shown in it, never thrown at the page
export function board(renderer, gameId, ctx) {
  // tabindex -1: the page can put the keyboard back on the board when the control it was on is drawn away
  const section = h("section", {class: ["board", `game-${gameId}`], "aria-label": t("table.board"), tabindex: "-1",
    "data-test": "board"});
  try {
    renderer.render(section, ctx);
  } catch (error) {
    section.append(h("p", {class: "notice error"}, `${error}`));
  }
  return section;
}

// A move in the page's language as the game's buttons name it: the renderer's moveName(move, ctx, notation), or the
// notation where the game has no words for it (the fallback renderer labels its buttons so too)
export function moveWords(renderer, ctx, move, notation) {
  if (move && renderer && renderer.moveName) {
    try {
      const words = renderer.moveName(move, ctx, notation);
      if (words) return words;
    } catch { /* the notation, below */ }
  }
  return notation;
}

// The moment of a decision as the game counts it ("Manche 2 · pli 3"): the parts the coach gives (docs/coach.md),
// each a catalogue key and its values
export function momentWords(parts) {
  return (parts || []).map(({key, ...values}) => t(key, values)).join(" · ");
}
