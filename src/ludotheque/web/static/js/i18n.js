// Message catalogs: the shell's (static/locales/LANG.json) and each game's (games/<id>/web/messages.json,
// {"fr": {...}, "en": {...}}).  t("key", {n: 3}) fills {n}; a missing key shows the key itself, so a gap is
// visible, never silent.
//
// The page's language: the person's remembered choice (localStorage, written only when they pick one, here or as
// an account's preference at login), else `?lang=fr|en` in the address, else the browser's language when it is
// English, else French.  An invite link carries no language: the invitee's browser decides.

export const LANGUAGES = ["fr", "en"];
const STORE_KEY = "ludotheque.lang";
let lang = initialLang();
const catalogs = [];

function initialLang() {
  const remembered = localStorage.getItem(STORE_KEY);
  if (LANGUAGES.includes(remembered)) return remembered;
  // an address's language lasts as long as the address: it is not remembered, so it never overrides a later link
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  return browserLang();
}

// The first of the browser's languages that the site speaks ("de-DE, en-US" reads English, "fr-CA, en" French);
// French when it speaks none of them.
function browserLang() {
  const preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "fr";
}

export function currentLang() { return lang; }

export function setLang(next) {
  if (!LANGUAGES.includes(next)) return;
  lang = next;
  localStorage.setItem(STORE_KEY, next);
  document.documentElement.lang = next;
}

export async function loadShellCatalog() {
  const byLang = {};
  for (const code of LANGUAGES) {
    byLang[code] = await (await fetch(`/static/locales/${code}.json`)).json();
  }
  catalogs.push(byLang);
  document.documentElement.lang = lang;
}

export async function loadGameCatalog(gameId) {
  const response = await fetch(`/games/${gameId}/web/messages.json`);
  if (response.ok) catalogs.unshift(await response.json());  // the game's messages first
}

export function t(key, params = {}) {
  for (const byLang of catalogs) {
    const text = byLang[lang] && byLang[lang][key];
    if (text !== undefined) return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : `{${name}}`));
  }
  return key;
}

// A game's name in the page's language (its catalog's `<id>.game.name`), else `fallback` (the server's name).
export function gameName(id, fallback = id) {
  const key = `${id}.game.name`;
  const text = t(key);
  return text === key ? fallback : text;
}

// The name a table was given, or "" when it only repeats its game's: the server names a table after its game
// (`serverName`, "Hol's der Geier / Stupides Vautours") unless its creator named it, and a list that names the
// game already would then say it twice, the second time in neither language of the page.
export function ownTableName(tableName, id, serverName) {
  if (!tableName) return "";
  const known = [serverName, ...catalogs.map((byLang) => LANGUAGES.map((code) => byLang[code]?.[`${id}.game.name`]))];
  return known.flat().includes(tableName) ? "" : tableName;
}
