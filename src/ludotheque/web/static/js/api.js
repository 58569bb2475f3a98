// The REST API and the seats this browser holds (their tokens stay in localStorage, never in a URL).

const SEATS_KEY = "ludotheque.seats";
const NAME_KEY = "ludotheque.name";

export async function api(path, {method = "GET", body, token} = {}) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || data);
    throw new Error(detail);
  }
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
