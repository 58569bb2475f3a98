// Message catalogs: the shell's (static/locales/LANG.json) and each game's (games/<id>/web/messages.json,
// {"fr": {...}, "en": {...}, "de": {...}}).  t("key", {n: 3}) fills {n}; a missing key shows the key itself, so a gap is
// visible, never silent.
//
// The page's language: the person's remembered choice (localStorage, written only when they pick one, here or as
// an account's preference at login), else `?lang=fr|en|de` in the address (kept for the visit), else the browser's
// first language that the site speaks, else French.  An invite link carries no language: the invitee's browser decides.

export const LANGUAGES = ["fr", "en", "de"];
// each language's name in itself, for the switch
export const LANGUAGE_NAMES = {fr: "Français", en: "English", de: "Deutsch"};
const STORE_KEY = "ludotheque.lang";
const VISIT_KEY = "ludotheque.visit-lang";
let lang = initialLang();
const catalogs = [];

function initialLang() {
  const remembered = localStorage.getItem(STORE_KEY);
  if (LANGUAGES.includes(remembered)) return remembered;
  // an address's language lasts for the visit (this tab's sessionStorage), so the links and pages after it keep
  // it; it is not remembered, so it never overrides a later visit or another tab's invite link
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) {
    sessionStorage.setItem(VISIT_KEY, asked);
    return asked;
  }
  const visit = sessionStorage.getItem(VISIT_KEY);
  if (LANGUAGES.includes(visit)) return visit;
  return browserLang();
}

// The first of the browser's languages that the site speaks ("it-IT, de-DE, en-US" reads German, "fr-CA, en"
// French); French when it speaks none of them.
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
  sessionStorage.removeItem(VISIT_KEY);
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

// The switch in a page's bar: a button for each other language (the first one French, or English on a French page);
// `redraw` after a choice, which is remembered.  A button's name begins with what it shows ("DE (Deutsch)").
export function languageButtons(h, redraw) {
  return LANGUAGES.filter((code) => code !== lang).map((code) => h("button", {
    class: "link", "data-test": "lang", "data-lang": code, lang: code, title: LANGUAGE_NAMES[code],
    "aria-label": `${code.toUpperCase()} (${LANGUAGE_NAMES[code]})`,
    onclick: () => { setLang(code); redraw(); }}, code.toUpperCase()));
}
