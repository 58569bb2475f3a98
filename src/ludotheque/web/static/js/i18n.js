// Message catalogs: the shell's (static/locales/LANG.json) and each game's (games/<id>/web/messages.json,
// {"fr": {...}, "en": {...}}).  French by default, English by choice, the choice remembered in localStorage.
// t("key", {n: 3}) fills {n}; a missing key shows the key itself, so a gap is visible, never silent.

export const LANGUAGES = ["fr", "en"];
const STORE_KEY = "ludotheque.lang";
let lang = LANGUAGES.includes(localStorage.getItem(STORE_KEY)) ? localStorage.getItem(STORE_KEY) : "fr";
const catalogs = [];

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
