// A player's public page (/players/NAME, GET /api/players/NAME): their rating per game with its history, their
// recent games with results and replay links, and since when they play.  Guests have none: the page says so.

import {api} from "./api.js";
import {clear, h} from "./dom.js";
import {currentLang, gameName, loadGameCatalog, loadShellCatalog, setLang, t} from "./i18n.js";
import {ratingsSection, resultText} from "./profile.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const root = document.getElementById("app");
const page = {player: null, error: null, missing: false};

async function main() {
  await loadShellCatalog();
  try {
    page.player = await api(`/api/players/${encodeURIComponent(name)}`);
    const games = new Set([...Object.keys(page.player.ratings), ...page.player.recent.map((g) => g.game)]);
    for (const game of games) await loadGameCatalog(game);
  } catch (error) {
    page.missing = error.status === 404;
    page.error = error.message;
  }
  draw();
}

function date(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(currentLang() === "fr" ? "fr-FR" : "en-GB",
    {day: "numeric", month: "short", year: "numeric"});
}

function draw() {
  const other = currentLang() === "fr" ? "en" : "fr";
  const player = page.player;
  document.title = `${player ? player.name : t("profile.title")} · ludotheque`;
  clear(root).append(
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "ludotheque"), h("span", {class: "spacer"}),
      h("a", {href: "/ratings", class: "nav"}, t("ratings.title")),
      h("button", {class: "link", "data-test": "lang", onclick: () => { setLang(other); draw(); }}, other.toUpperCase())),
    h("main", {class: "page player"}, player ? profile(player) : [
      h("h1", {}, t("profile.title")),
      h("p", {class: "notice error", role: "alert"}, page.missing ? t("profile.missing", {name}) : page.error),
      h("p", {}, h("a", {href: "/"}, t("nav.lobby")))]));
}

function profile(player) {
  return [
    h("h1", {"data-test": "player-name"}, player.name),
    h("p", {class: "lead", "data-test": "since"}, t("profile.since", {date: date(player.since)})),
    h("h2", {}, t("profile.ratings")),
    ratingsSection(player.ratings, player.history),
    h("h2", {}, t("profile.recent")),
    player.recent.length ? h("div", {"data-test": "recent"}, player.recent.map((game) =>
      h("div", {class: "table-row", "data-table": game.table_id},
        h("strong", {}, gameName(game.game)),
        h("span", {class: "seats-inline"}, [game.finished_at ? date(game.finished_at) : null,
          game.rated ? t("me.rated") : null].filter(Boolean).join(" · ")),
        h("span", {class: "result", "data-test": "result"}, resultText(game, null)),
        h("a", {class: "button", href: `/tables/${encodeURIComponent(game.table_id)}/replay`}, t("me.replay")))))
      : h("p", {}, t("me.no_games"))];
}

main();
