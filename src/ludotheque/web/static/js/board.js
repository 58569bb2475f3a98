// The game's board, as the table and the replay draw it: the game's own renderer (games/<id>/web/renderer.js),
// or the plain fallback for a game without one (or with ?renderer=fallback in the address).

import {h} from "./dom.js";
import {t} from "./i18n.js";

export async function loadRenderer(gameId) {
  if (new URLSearchParams(location.search).get("renderer") === "fallback") return await import("/static/js/fallback.js");
  try {
    return await import(`/games/${gameId}/web/renderer.js`);
  } catch {
    return await import("/static/js/fallback.js");  // a game without its own renderer stays playable
  }
}

// the board section drawn by `renderer` for `ctx`; a renderer's error is shown in it, never thrown at the page
export function board(renderer, gameId, ctx) {
  const section = h("section", {class: ["board", `game-${gameId}`], "aria-label": t("table.board")});
  try {
    renderer.render(section, ctx);
  } catch (error) {
    section.append(h("p", {class: "notice error"}, `${error}`));
  }
  return section;
}
