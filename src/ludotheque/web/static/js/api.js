// The REST API, the seats this browser holds and the player it is (their tokens stay in localStorage, never in a
// URL).

import {t} from "./i18n.js";

const SEATS_KEY = "ludotheque.seats";
const NAME_KEY = "ludotheque.name";
const PLAYER_KEY = "ludotheque.player";

// A request the server has not answered by then is given up: a page waiting on it would wait for good.
export const REQUEST_TIMEOUT_MS = 10000;

// `token` is a seat's (Authorization: Bearer); the player's own token, when this browser holds one, goes with
// every request as X-Player-Token, so the server knows who sits down, whatever the page.  A request that fails
// on the way (no answer within `timeoutMs`, no network) throws an Error with `status` 0 and a message for people.
export async function api(path, {method = "GET", body, token, headers: extra = {}, timeoutMs = REQUEST_TIMEOUT_MS} = {}) {
  const headers = {"Content-Type": "application/json", ...extra};
  if (token) headers.Authorization = `Bearer ${token}`;
  const player = playerToken();
  if (player) headers["X-Player-Token"] = player;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let response;
  let text;
  try {
    response = await fetch(path, {method, headers, signal: abort.signal,
      body: body === undefined ? undefined : JSON.stringify(body)});
    text = await response.text();  // the body too: a server may stall half-way through it
  } catch {
    throw Object.assign(new Error(t(abort.signal.aborted ? "network.timeout" : "network.failed")), {status: 0});
  } finally {
    clearTimeout(timer);
  }
  let data;
  try { data = JSON.parse(text); } catch { data = {}; }
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || data);
    throw Object.assign(new Error(detail), {status: response.status});
  }
  // a seat taken without a player token made a guest: this browser is that guest from now on
  if (data && typeof data.player_token === "string" && !player) setPlayerToken(data.player_token);
  return data;
}

export function heldSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY)) || {}; } catch { return {}; }
}

export function seatAt(tableId) { return heldSeats()[tableId] || null; }

export function holdSeat(tableId, seat, token, game) {
  const seats = heldSeats();
  seats[tableId] = {seat, token, game, since: Date.now()};
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

export function forgetSeat(tableId) {
  const seats = heldSeats();
  delete seats[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

export function playerName() { return localStorage.getItem(NAME_KEY) || ""; }
export function setPlayerName(name) { localStorage.setItem(NAME_KEY, name); }

// The player (a guest or an account): its session token, one per browser.
export function playerToken() { return localStorage.getItem(PLAYER_KEY); }
export function setPlayerToken(token) { localStorage.setItem(PLAYER_KEY, token); }
export function forgetPlayer() { localStorage.removeItem(PLAYER_KEY); }

let creating = null;  // one guest per browser, even when two calls ask at the same moment

// The player's token; a new guest named `name` if this browser holds none yet.
export async function ensurePlayer(name) {
  if (playerToken()) return playerToken();
  creating = creating || api("/api/players", {method: "POST", body: {name: name || "player"}})
    .then((created) => { setPlayerToken(created.token); return created.token; })
    .finally(() => { creating = null; });
  return creating;
}
