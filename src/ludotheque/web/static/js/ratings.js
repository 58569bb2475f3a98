// The leaderboards: /ratings lists the games, /ratings/{game} shows one game's ratings (GET /api/ratings/{game}),
// people and bot levels together, best first, provisional entries marked.  Names are text nodes (dom.js), so a
// name that looks like HTML shows as what it is.

import {api} from "./api.js";
import {clear, h} from "./dom.js";
import {languageButtons, loadGameCatalog, loadShellCatalog, t} from "./i18n.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const root = document.getElementById("app");
const page = {games: [], board: null, error: null};

async function main() {
  await loadShellCatalog();
  page.games = await api("/api/games");
  for (const game of page.games) await loadGameCatalog(game.id);  // the games' names in both languages
  if (gameId) {
    try {
      page.board = await api(`/api/ratings/${encodeURIComponent(gameId)}`);
    } catch (error) {
      page.error = error.message;
    }
  }
  draw();
}

function gameName(id) {
  const translated = t(`${id}.game.name`);
  if (translated !== `${id}.game.name`) return translated;
  const game = page.games.find((g) => g.id === id);
  return game ? game.name : id;
}

// A bot is shown by its level's name in the reader's language ("bot difficile"), its spec when it has none.
function entryName(entry) {
  if (entry.kind !== "bot") return entry.name;
  const level = t(`level.${entry.name}`);
  return t("ratings.bot", {level: level === `level.${entry.name}` ? entry.name : level});
}

function draw() {
  document.title = `${gameId && page.board ? t("ratings.game_title", {game: gameName(gameId)}) : t("ratings.title")} · ludotheque`;
  clear(root).append(
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "ludotheque"), h("span", {class: "spacer"}),
      languageButtons(h, draw)),
    h("main", {class: "page ratings"}, gameId ? gamePage() : indexPage()));
}

function gameLinks(except) {
  return h("ul", {class: "game-links"}, page.games.filter((g) => g.id !== except).map((game) =>
    h("li", {}, h("a", {href: `/ratings/${game.id}`, "data-game": game.id}, gameName(game.id)))));
}

function indexPage() {
  return [
    h("h1", {}, t("ratings.title")),
    h("p", {class: "lead"}, t("ratings.lead")),
    gameLinks(null),
    h("p", {}, h("a", {href: "/"}, t("nav.lobby")))];
}

function gamePage() {
  if (page.error !== null) {
    const known = page.games.some((g) => g.id === gameId);
    return [
      h("h1", {}, t("ratings.title")),
      h("p", {class: "notice error", role: "alert"}, known ? t("ratings.error", {message: page.error})
        : t("ratings.unknown_game", {game: gameId})),
      h("p", {}, h("a", {href: "/ratings"}, t("ratings.all")))];
  }
  const players = page.board.players;
  return [
    h("h1", {}, t("ratings.game_title", {game: gameName(gameId)})),
    players.length ? leaderboard(players) : h("p", {"data-test": "empty"}, t("ratings.none")),
    h("p", {class: "fine"}, t("ratings.explain")),
    players.some((p) => p.provisional) ? h("p", {class: "fine"}, t("ratings.provisional_help")) : null,
    h("h2", {}, t("ratings.other_games")),
    gameLinks(gameId),
    h("p", {}, h("a", {href: "/ratings"}, t("ratings.all")), " · ", h("a", {href: "/"}, t("nav.lobby")))];
}

function leaderboard(players) {
  return h("table", {class: "leaderboard", "data-test": "leaderboard"},
    h("thead", {}, h("tr", {},
      h("th", {class: "num"}, t("ratings.rank")), h("th", {}, t("ratings.player")),
      h("th", {class: "num"}, t("ratings.rating")), h("th", {class: "num"}, t("ratings.games")))),
    h("tbody", {}, players.map((entry, index) =>
      h("tr", {class: [entry.kind, entry.provisional && "provisional"], "data-rater": entry.rater},
        h("td", {class: "num"}, index + 1),
        // a person with an account links to their page
        h("td", {class: "name"}, entry.account
          ? h("a", {href: `/players/${encodeURIComponent(entry.account)}`, "data-player": entry.account}, entryName(entry))
          : entryName(entry)),
        h("td", {class: "num rating"}, entry.rating,
          entry.provisional ? h("span", {class: "mark", title: t("ratings.provisional_help")}, t("ratings.provisional")) : null),
        h("td", {class: "num"}, entry.games)))));
}

main();
