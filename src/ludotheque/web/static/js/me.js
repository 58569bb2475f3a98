// The player's page (/me): the name, a guest's way to an account (with a password, or a login link shown once),
// logging in and out, a link to log in on another device, the preferences, and the finished games to replay.
//
// The same page answers /login/CODE: it spends the code (POST /api/login/link), keeps the new session token and
// shows itself as /me, so the code does not stay in the address bar or the history.

import {api, ensurePlayer, forgetPlayer, playerName, playerToken, setPlayerName, setPlayerToken} from "./api.js";
import {clear, h} from "./dom.js";
import {notifyButton} from "./push.js";
import {ratingsSection, resultText} from "./profile.js";
import {LANGUAGES, currentLang, gameName, loadGameCatalog, loadShellCatalog, ownTableName, setLang, t}
  from "./i18n.js";

const SOUND_KEY = "ludotheque.sound";  // as table.js reads it: "on" or "off"
const root = document.getElementById("app");
const linkCode = location.pathname.startsWith("/login/")
  ? decodeURIComponent(location.pathname.slice("/login/".length)) : null;

const me = {
  player: null,   // GET /api/me, or null when this browser holds no player token
  games: [],      // GET /api/me/games
  ratings: null,  // GET /api/me/ratings: {ratings, history}
  catalogs: new Set(),  // the games whose names are loaded
  serverNames: {},  // each game's name as the server gives it, the name of a table nobody named
  notice: null,   // {kind: "info" | "error", text}
  shown: null,    // {kind: "account" | "device", url}: a login link, shown this once
  typed: {},      // the user names typed, so that a refusal does not empty them when the page is drawn again
};

async function main() {
  await loadShellCatalog();
  if (linkCode) await redeem(linkCode);
  await refresh();
  draw();
}

async function refresh() {
  me.player = null;
  me.games = [];
  me.ratings = null;
  if (!playerToken()) return;
  try {
    me.player = await api("/api/me");
  } catch (error) {
    if (error.status === 401) forgetPlayer();  // a token the server no longer knows (logged out elsewhere)
    else me.notice = {kind: "error", text: error.message};
    return;
  }
  me.games = await api("/api/me/games").catch(() => []);
  me.ratings = await api("/api/me/ratings").catch(() => null);
  if ((me.games.length || (me.player.your_turn || []).length) && !Object.keys(me.serverNames).length) {
    const games = await api("/api/games").catch(() => []);
    me.serverNames = Object.fromEntries(games.map((g) => [g.id, g.name]));
  }
  const rated = Object.keys((me.ratings && me.ratings.ratings) || {}).map((game) => ({game}));
  for (const game of new Set([...me.games, ...me.player.your_turn || [], ...rated].map((g) => g.game))) {
    if (!me.catalogs.has(game)) { me.catalogs.add(game); await loadGameCatalog(game); }
  }
}

// Every action: its errors become the notice line, and the page is drawn again with what the server says.
async function act(work) {
  try {
    me.notice = null;
    await work();
  } catch (error) {
    me.notice = {kind: "error", text: sentence(error.message)};
  }
  await refresh();
  draw();
}

// A server's message as a sentence of the notice line: it starts with a capital.
function sentence(text) {
  const words = String(text || "");
  return words.charAt(0).toLocaleUpperCase() + words.slice(1);
}

// A session from a login (password or link): this browser becomes that player, with its preferences.
async function adopt(session) {
  setPlayerToken(session.token);
  setPlayerName(session.name);
  const player = await api("/api/me");
  applyPreferences(player.preferences);
  me.notice = {kind: "info", text: t("account.logged_in", {name: player.name})};
}

function applyPreferences(preferences) {
  if (preferences.lang) setLang(preferences.lang);
  if (preferences.sound !== null && preferences.sound !== undefined) {
    localStorage.setItem(SOUND_KEY, preferences.sound ? "on" : "off");
  }
}

async function redeem(code) {
  try {
    await adopt(await api("/api/login/link", {method: "POST", body: {code}}));
  } catch {
    me.notice = {kind: "error", text: t("account.link_refused")};
  }
  history.replaceState(null, "", "/me");
}

function saveName(form) {
  return act(async () => {
    const name = form.elements.name.value.trim();
    if (!name) return;
    setPlayerName(name);
    // a name given here makes this browser a guest (the server names its seats after it), if it was not one yet
    await ensurePlayer(name);
    await api("/api/me/name", {method: "PUT", body: {name}});
    me.notice = {kind: "info", text: t("me.name_saved")};
  });
}

function createAccount(form) {
  return act(async () => {
    const username = form.elements.username.value.trim();
    const password = form.elements.password.value;
    await ensurePlayer(playerName() || t("seat.guest"));
    const account = await api("/api/me/account", {method: "POST",
      body: password ? {username, password} : {username}});
    setPlayerToken(account.token);  // the account's own token: the guest's stopped working
    if (account.login_url) me.shown = {kind: "account", url: account.login_url};
    me.notice = {kind: "info", text: t("account.created")};
  });
}

function logIn(form) {
  return act(async () => {
    const body = {username: form.elements.username.value.trim(), password: form.elements.password.value};
    try {
      await adopt(await api("/api/login", {method: "POST", body}));
    } catch (error) {
      // the server's refusals said in the page's language (its own words are for the API's readers)
      if (error.status === 401) throw new Error(t("account.login_refused"));
      if (error.status === 429) throw new Error(t("account.login_wait"));
      throw error;
    }
    me.shown = null;
  });
}

function logOut() {
  return act(async () => {
    await api("/api/logout", {method: "POST"}).catch(() => {});  // a token already revoked is as good
    forgetPlayer();
    me.shown = null;
    me.notice = {kind: "info", text: t("account.logged_out")};
  });
}

function anotherDevice() {
  return act(async () => {
    const link = await api("/api/me/login-link", {method: "POST"});
    me.shown = {kind: "device", url: link.url};
  });
}

function savePreference(change) {
  return act(async () => {
    applyPreferences(change);
    if (playerToken()) await api("/api/me/preferences", {method: "PUT", body: change});
  });
}

function draw() {
  document.title = `${t("me.title")} · ludotheque`;
  const player = me.player;
  clear(root).append(
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "ludotheque"), h("span", {class: "spacer"})),
    h("main", {class: "page account"},
      h("h1", {}, t("me.title")),
      me.notice ? h("p", {class: ["notice", me.notice.kind === "error" && "error"], role: "status",
        "data-test": "notice"}, me.notice.text) : null,
      me.shown ? shownLink() : null,
      yourTurnList(player),
      h("p", {"data-test": "who"}, player && !player.guest ? t("me.signed_in", {username: player.username})
        : t("me.guest")),
      nameForm(player),
      player && !player.guest ? accountActions() : [accountForm(), loginForm()],
      preferences(),
      me.ratings ? section(t("profile.ratings"), ratingsSection(me.ratings.ratings, me.ratings.history)) : null,
      player && !player.guest ? h("p", {}, h("a", {href: `/players/${encodeURIComponent(player.username)}`,
        "data-test": "public-page"}, t("profile.public_page"))) : null,
      gamesList()));
}

function section(title, ...content) {
  return h("section", {}, h("h2", {}, title), ...content);
}

function shownLink() {
  const url = me.shown.url;
  const kind = me.shown.kind === "account" ? "account_link" : "device_link";
  return h("section", {class: "invite", "data-test": "shown-link"},
    h("h2", {}, t(`account.${kind}_title`)),
    h("p", {}, t(`account.${kind}_help`)),
    h("input", {readonly: true, value: url, "aria-label": t("account.link"), onclick: (e) => e.target.select()}),
    h("button", {type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url)},
      t("account.copy")));
}

function nameForm(player) {
  return h("form", {"data-test": "name-form", onsubmit: (e) => { e.preventDefault(); saveName(e.target); }},
    h("label", {}, t("me.name"),
      h("input", {name: "name", value: player ? player.name : playerName(), maxlength: 80, required: true,
        autocomplete: "nickname"})),
    h("button", {type: "submit"}, t("me.save")));
}

function accountForm() {
  return section(t("account.create_title"),
    h("p", {class: "lead"}, t("account.create_lead")),
    h("form", {"data-test": "account-form", onsubmit: (e) => { e.preventDefault(); createAccount(e.target); }},
      h("label", {}, t("account.username"),
        h("input", {name: "username", required: true, minlength: 3, maxlength: 40, pattern: "[A-Za-z0-9_.\\-]{3,40}",
          autocomplete: "username", autocapitalize: "none", spellcheck: "false", ...remembered("account")}),
        h("small", {}, t("account.username_help"))),
      h("label", {}, t("account.password"),
        h("input", {name: "password", type: "password", minlength: 8, maxlength: 200, autocomplete: "new-password"}),
        h("small", {}, t("account.password_help"))),
      h("button", {type: "submit", class: "primary"}, t("account.create"))));
}

function loginForm() {
  return section(t("account.login_title"),
    h("form", {"data-test": "login-form", onsubmit: (e) => { e.preventDefault(); logIn(e.target); }},
      h("label", {}, t("account.username"),
        h("input", {name: "username", required: true, maxlength: 100, autocomplete: "username",
          autocapitalize: "none", spellcheck: "false", ...remembered("login")})),
      h("label", {}, t("account.password_current"),
        h("input", {name: "password", type: "password", required: true, maxlength: 200,
          autocomplete: "current-password"})),
      h("button", {type: "submit", class: "primary"}, t("account.login"))),
    h("p", {class: "lead"}, t("account.login_help")));
}

function remembered(form) {
  return {value: me.typed[form] || "", oninput: (e) => { me.typed[form] = e.target.value; }};
}

function accountActions() {
  return h("div", {class: "actions"},
    h("button", {type: "button", "data-test": "another-device", onclick: anotherDevice}, t("account.another_device")),
    h("button", {type: "button", "data-test": "logout", onclick: logOut}, t("account.logout")));
}

function preferences() {
  return section(t("me.preferences"),
    h("form", {"data-test": "preferences", onsubmit: (e) => e.preventDefault()},
      h("label", {}, t("me.language"),
        h("select", {name: "lang", onchange: (e) => savePreference({lang: e.target.value})},
          LANGUAGES.map((code) => h("option", {value: code, selected: code === currentLang()}, t(`me.lang.${code}`))))),
      h("label", {class: "check"},
        h("input", {type: "checkbox", name: "sound", checked: localStorage.getItem(SOUND_KEY) === "on",
          onchange: (e) => savePreference({sound: e.target.checked})}),
        t("me.sound"))),
    // told of one's turn at every table of the player's (X-Player-Token), games by correspondence
    me.player ? notifyButton({}, draw) : null);
}

// The tables in play where it is the person's turn, first on the page ("À vous de jouer"), and the way to be told
// next time (Web Push, push.js).
function yourTurnList(player) {
  const waiting = player && player.your_turn ? player.your_turn : [];
  if (!waiting.length) return null;
  return h("section", {"data-test": "your-turn"}, h("h2", {}, t("me.your_turn")),
    waiting.map((table) => {
      const own = ownTableName(table.name, table.game, me.serverNames[table.game] ?? table.game);
      return h("div", {class: "table-row your-turn", "data-table": table.table_id},
        h("strong", {}, gameName(table.game), own ? ` · ${own}` : null),
        h("a", {class: "button primary", href: `/tables/${encodeURIComponent(table.table_id)}`}, t("me.play")));
    }));
}

function gamesList() {
  return section(t("me.games"), me.games.length
    ? h("div", {"data-test": "games"}, me.games.map(gameRow))
    : h("p", {"data-test": "no-games"}, t("me.no_games")));
}

function gameRow(game) {
  const own = ownTableName(game.name, game.game, me.serverNames[game.game] ?? game.game);
  const others = game.seats.filter((s) => s.seat !== game.seat)
    .map((s) => (s.kind === "bot" ? t("seat.bot", {level: levelName(s.name)}) : s.name || t("seat.open")));
  const won = game.result && game.result.winners.includes(game.seat);
  const date = new Date(game.finished_at * 1000).toLocaleDateString({fr: "fr-FR", en: "en-GB", de: "de-DE"}[currentLang()],
    {day: "numeric", month: "short", year: "numeric"});
  return h("div", {class: "table-row", "data-table": game.table_id},
    h("strong", {}, gameName(game.game), own ? ` · ${own}` : null),
    h("span", {class: "seats-inline"}, [date, others.length ? t("me.with", {names: others.join(", ")}) : null,
      won ? t("me.won") : null, game.rated ? t("me.rated") : null].filter(Boolean).join(" · ")),
    h("span", {class: "result", "data-test": "result"}, resultText(game, game.players)),
    h("a", {class: "button", href: `/tables/${encodeURIComponent(game.table_id)}/replay?seat=${game.seat}`},
      t("me.replay")));
}

function levelName(level) {
  const name = t(`level.${level}`);
  return name === `level.${level}` ? level : name;
}

main();
