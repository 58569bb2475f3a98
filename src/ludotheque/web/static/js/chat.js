// The table's chat panel (docs/web.md, the server's contract in docs/server.md): the players' room for a seat, the
// spectators' room for a spectator, over the table's WebSocket.  The panel is one element for the page's life,
// outside the part of the page drawn again at every frame, so that what the person is typing and the focus stay.
//
// Messages are text, never markup: every one is put in the page as a text node (the DOM builder's strings).  Each
// person may mute another (remembered per table in localStorage): a muted person's messages are hidden, and the
// names muted are listed with a way to show them again.  Short ready-made phrases, in the page's language, are
// buttons that send at once.

import {h} from "./dom.js";
import {currentLang, t} from "./i18n.js";

export const MAX_CHARS = 300;
const MUTED_KEY = "ludotheque.chat.muted";  // {tableId: [speaker, ...]}
const PHRASES = ["hello", "good_game", "well_played", "thanks", "oops", "bravo", "one_more"];

export function loadMuted(tableId) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTED_KEY)) || {};
    return new Set(Array.isArray(all[tableId]) ? all[tableId] : []);
  } catch { return new Set(); }
}

function saveMuted(tableId, muted) {
  let all;
  try { all = JSON.parse(localStorage.getItem(MUTED_KEY)) || {}; } catch { all = {}; }
  if (muted.size) all[tableId] = [...muted]; else delete all[tableId];
  localStorage.setItem(MUTED_KEY, JSON.stringify(all));
}

// who said it, as a mute remembers them: a seat at a players' table, a name among the spectators
export function speaker(message) {
  return message.seat === null || message.seat === undefined ? `name:${message.name || ""}` : `seat:${message.seat}`;
}

// `seat()`: the page's seat (null for a spectator); `names()`: the seats' names as the page shows them; `send(msg)`:
// sends over the table's socket, false when it is not open; `myName()`: the name a spectator speaks under.
export function createChat({tableId, seat, names, send, online, myName}) {
  const chat = {
    messages: new Map(),  // id -> chat frame, of the current room
    said: new Set(),      // the ids of the messages this page said (the server marks them `mine`)
    room: null,
    muted: loadMuted(tableId),
    error: null,          // the latest refusal's code
    lines: new Map(),     // id -> its <li>
    lang: null,
  };
  const list = h("ol", {class: "chat-lines", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0",
    "data-test": "chat-lines"});
  const title = h("h2", {id: "chat-title"});
  const mutedLine = h("p", {class: "chat-muted", "data-test": "chat-muted"});
  const errorLine = h("p", {class: "notice error chat-error", role: "status", "data-test": "chat-error"});
  const phrases = h("div", {class: "chat-phrases", role: "group", "data-test": "chat-phrases"});
  const input = h("input", {name: "text", maxlength: MAX_CHARS, autocomplete: "off", "data-test": "chat-input"});
  const sendButton = h("button", {type: "submit", "data-test": "chat-send"});
  const form = h("form", {class: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    if (say(input.value)) input.value = "";
  }}, input, sendButton);
  const element = h("section", {class: "chat", "data-test": "chat", "aria-labelledby": "chat-title", hidden: true},
    title, list, mutedLine, errorLine, phrases, form);

  function say(text) {
    const clean = text.trim();
    if (!clean || clean.length > MAX_CHARS) return false;
    const message = {type: "chat", text: clean};
    if (chat.room === "spectators" && myName()) message.name = myName();
    if (!send(message)) return false;
    chat.error = null;
    render();
    return true;
  }

  function displayName(message) {
    if (message.seat !== null && message.seat !== undefined) return names()[message.seat] || message.name || "?";
    return message.name || t("chat.spectator");
  }

  // a spectator may give no name, or one another spectator gives too: the server's `mine` tells its own lines
  function mine(message) {
    if (chat.said.has(message.id)) return true;
    return chat.room === "players" ? message.seat === seat() : Boolean(message.name) && message.name === myName();
  }

  function setMuted(who, on) {
    if (on) chat.muted.add(who); else chat.muted.delete(who);
    saveMuted(tableId, chat.muted);
    render();
  }

  function line(message) {
    const name = displayName(message);
    return h("li", {"data-chat-id": message.id, "data-speaker": speaker(message)},
      h("span", {class: "chat-name"}, name), " ",
      h("span", {class: "chat-text", "data-test": "chat-text"}, message.text),
      mine(message) ? null : h("button", {class: "link chat-mute", "data-test": "chat-mute",
        "aria-label": t("chat.mute_name", {name}), title: t("chat.mute_name", {name}),
        onclick: () => setMuted(speaker(message), true)}, t("chat.mute")));
  }

  // the lines shown, oldest first; a new line is added to the live region, never the whole list again
  function renderLines() {
    const shown = [...chat.messages.values()].filter((m) => !chat.muted.has(speaker(m))).sort((a, b) => a.id - b.id);
    const wanted = new Set(shown.map((m) => m.id));
    for (const [id, item] of chat.lines) {
      if (!wanted.has(id)) { item.remove(); chat.lines.delete(id); }
    }
    let next = null;
    for (let index = shown.length - 1; index >= 0; index--) {
      const message = shown[index];
      let item = chat.lines.get(message.id);
      if (!item) {
        item = line(message);
        chat.lines.set(message.id, item);
        list.insertBefore(item, next);
      }
      next = item;
    }
    list.scrollTop = list.scrollHeight;
  }

  function renderMuted() {
    const buttons = [...chat.muted].map((who) => {
      const known = [...chat.messages.values()].find((m) => speaker(m) === who);
      const name = known ? displayName(known)
        : who.startsWith("seat:") ? names()[Number(who.slice(5))] || who : who.slice(5) || t("chat.spectator");
      return h("button", {class: "link", "data-test": "chat-unmute", "aria-label": t("chat.unmute_name", {name}),
        onclick: () => setMuted(who, false)}, t("chat.unmute_name", {name}));
    });
    mutedLine.replaceChildren(...(buttons.length ? [t("chat.muted"), " ", ...buttons] : []));
    mutedLine.hidden = !buttons.length;
  }

  function renderWords() {
    if (chat.lang === currentLang() && chat.wordsRoom === chat.room) return;
    chat.lang = currentLang();
    chat.wordsRoom = chat.room;
    title.textContent = t(chat.room === "spectators" ? "chat.spectators" : "chat.players");
    input.setAttribute("aria-label", t("chat.message"));
    input.setAttribute("placeholder", t("chat.placeholder"));
    sendButton.textContent = t("chat.send");
    phrases.setAttribute("aria-label", t("chat.phrases"));
    phrases.replaceChildren(...PHRASES.map((key) => h("button", {type: "button", class: "chat-phrase",
      "data-test": "chat-phrase", "data-phrase": key, onclick: () => say(t(`chat.phrase.${key}`))},
    t(`chat.phrase.${key}`))));
    for (const item of chat.lines.values()) item.remove();  // their mute buttons speak the page's language
    chat.lines.clear();
  }

  function render() {
    renderWords();
    renderLines();
    renderMuted();
    errorLine.textContent = chat.error ? t(`chat.error.${chat.error}`) : "";
    errorLine.hidden = !chat.error;
    const open = online();
    for (const control of [input, sendButton, ...phrases.querySelectorAll("button")]) control.disabled = !open;
  }

  function setRoom(room) {
    if (chat.room === room) return;
    chat.room = room;
    chat.messages.clear();
  }

  return {
    element,
    // a chat, chat_history or chat error frame from the server
    receive(message) {
      if (message.type === "chat") {
        setRoom(message.room);
        chat.messages.set(message.id, message);
        if (message.mine) chat.said.add(message.id);
      } else if (message.type === "chat_history") {
        setRoom(message.room);
        for (const item of message.messages) chat.messages.set(item.id, item);
      } else if (message.type === "error") {
        chat.error = ["too_long", "rate_limited", "unavailable"].includes(message.code) ? message.code : "malformed";
      }
      element.dataset.received = String(chat.messages.size);  // shown or muted: for the browser tests
      render();
    },
    // the page's state changed (a frame, the connection, the language, a seat taken): shown once the table is live
    sync(visible) {
      setRoom(seat() === null ? "spectators" : "players");
      element.hidden = !visible;
      render();
    },
  };
}
