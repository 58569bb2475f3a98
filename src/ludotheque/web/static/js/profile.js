// What a player's games say, drawn for /me and for the public player pages (/players/NAME): the rating per game
// with its history as a chart, and a finished game's result (place, points, how the person left).
//
// The chart is SVG drawn here, from the points the server gives (GET /api/me/ratings, GET /api/players/NAME):
// no script nor font from anywhere else.

import {h} from "./dom.js";
import {gameName, t} from "./i18n.js";

const WIDTH = 320;
const HEIGHT = 90;
const PAD = 6;

// A game's rating after each of its rated games, as a line; the first and the latest values labelled.
export function ratingChart(game, points) {
  if (!points || points.length < 2) return null;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(1, high - low);
  const x = (i) => PAD + (i * (WIDTH - 2 * PAD)) / (points.length - 1);
  const y = (v) => HEIGHT - PAD - ((v - low) * (HEIGHT - 2 * PAD)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const last = points.length - 1;
  return h("svg", {class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "data-chart": game,
    "aria-label": t("profile.chart", {game: gameName(game), first: values[0], last: values[last]})},
    h("svg:polyline", {points: line, fill: "none", stroke: "currentColor", "stroke-width": 2}),
    h("svg:circle", {cx: x(last).toFixed(1), cy: y(values[last]).toFixed(1), r: 3, fill: "currentColor"}));
}

// The rating per game: its value (marked while provisional), its games, and its chart.
export function ratingsSection(ratings, history) {
  const games = Object.keys(ratings || {});
  if (!games.length) return h("p", {"data-test": "no-ratings"}, t("profile.no_ratings"));
  return h("ul", {class: "ratings-list", "data-test": "ratings"}, games.map((game) => {
    const entry = ratings[game];
    return h("li", {"data-game": game},
      h("strong", {}, gameName(game)), " ",
      h("span", {class: ["rating", entry.provisional && "provisional"], "data-test": "rating"},
        String(entry.rating), entry.provisional ? ` ${t("ratings.provisional")}` : ""),
      " ", h("span", {class: "games"}, t("profile.games", {n: entry.games})),
      ratingChart(game, (history || {})[game]));
  }));
}

// "2e sur 3 · 14 points · abandon": a finished game's result for its player.
export function resultText(game, players) {
  const parts = [];
  if (game.place) parts.push(players ? t("profile.place_of", {place: game.place, players}) : t("profile.place", {place: game.place}));
  if (game.points !== null && game.points !== undefined) parts.push(t("profile.points", {points: game.points}));
  if (game.departure) parts.push(t(`profile.departure.${game.departure}`));
  return parts.join(" · ");
}
