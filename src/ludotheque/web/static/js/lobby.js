// The lobby: the games, a form to create a table (built from each game's option schema), the open tables to
// join, and this browser's tables in progress.

import {api, ensurePlayer, heldSeats, holdSeat, playerName, setPlayerName} from "./api.js";
import {clear, h} from "./dom.js";
import {gameName as catalogName, languageButtons, loadGameCatalog, loadShellCatalog, ownTableName, t} from "./i18n.js";

const root = document.getElementById("app");
const LEVELS = ["easy", "medium", "hard", "random"];
const lobby = {games: [], open: [], mine: [], chosen: null, players: 2, options: {}, seats: [], notice: null,
  created: null, clock: "", rated: false,  // clock: "" (none) or a profile's name
  hints: false,  // the coach's hints at the table (never rated)
  copied: false,  // the invite link was copied (said beside its button)
  filters: {game: "", players: "", rated: "", clock: ""},  // the open tables shown ("": any)
  creating: false};  // a creation is on its way: the create button stays disabled until it answers

async function main() {
  await loadShellCatalog();
  lobby.games = await api("/api/games");
  for (const game of lobby.games) await loadGameCatalog(game.id);  // each game's name and description
  await refresh();
  draw();
  setInterval(async () => { await refresh(); if (!document.activeElement || document.activeElement === document.body) draw(); }, 8000);
}

async function refresh() {
  lobby.open = await api("/api/tables").catch(() => []);
  const held = heldSeats();
  const mine = [];
  for (const [id, seat] of Object.entries(held)) {
    try {
      const summary = await api(`/api/tables/${encodeURIComponent(id)}`);
      // a finished table is replayed from /me; a cancelled or expired one is gone
      if (summary.status === "waiting" || summary.status === "playing") mine.push({...summary, seat: seat.seat});
    } catch { /* a table this browser no longer finds */ }
  }
  // the tables where it is the person's turn first ("à vous de jouer"), in the order they were taken
  lobby.mine = [...mine.filter(yourTurn), ...mine.filter((s) => !yourTurn(s))];
}

function yourTurn(summary) {
  return summary.status === "playing" && Array.isArray(summary.to_act) && summary.to_act.includes(summary.seat);
}

function choose(game) {
  lobby.chosen = game;
  lobby.created = null;
  lobby.players = Math.max(game.min_players, Math.min(2, game.max_players));
  lobby.options = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
  resetSeats();
  draw();
  document.getElementById("create")?.scrollIntoView({behavior: "smooth"});
}

function resetSeats() {
  lobby.seats = Array.from({length: lobby.players}, (_, i) => (i === 0 ? "me" : "bot:medium"));
}

function draw() {
  const turns = lobby.mine.filter(yourTurn).length;
  document.title = `${turns ? `(${turns}) ` : ""}ludotheque`;
  const shown = lobby.open.filter(passes);
  clear(root).append(
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "ludotheque"), h("span", {class: "spacer"}),
      // how many of this browser's tables wait for the person: a link to the first of them
      turns ? h("a", {class: "nav turn-count", "data-test": "turn-count",
        href: `/tables/${encodeURIComponent(lobby.mine.find(yourTurn).id)}`,
        "aria-label": t("lobby.turn_count", {n: turns})}, `● ${turns}`) : null,
      h("a", {href: "/ratings", class: "nav", "data-test": "ratings"}, t("ratings.title")),
      h("a", {href: "/me", class: "nav", "data-test": "me"}, t("me.nav")),
      languageButtons(h, draw)),
    h("main", {class: "page lobby"},
      h("h1", {}, t("lobby.title")),
      h("p", {class: "lead"}, t("lobby.lead")),
      lobby.notice ? h("p", {class: "notice error", role: "alert"}, lobby.notice) : null,
      lobby.mine.length ? section(t("lobby.mine"), lobby.mine.map((s) => tableRow(s, true))) : null,
      section(t("lobby.games"), h("ul", {class: "games"}, lobby.games.map(gameCard))),
      // the invite link takes the form's place, where the person's eyes are after creating the table
      lobby.created ? createdBox() : lobby.chosen ? createForm(lobby.chosen) : null,
      section(t("lobby.open"), lobby.open.length ? filtersBar() : null,
        shown.length ? h("div", {"data-test": "open-tables"}, shown.map((s) => tableRow(s, false)))
          : h("p", {"data-test": "none-open"}, t(lobby.open.length ? "lobby.none_match" : "lobby.none_open")))));
}

// -- the open tables' filters: game, number of players, rated or not, clock ------------------------------------

function clockKind(summary) {
  const clock = summary.clock;
  return !clock ? "none" : clock.days ? "days" : "live";
}

function passes(summary) {
  const f = lobby.filters;
  return (!f.game || summary.game === f.game) && (!f.players || summary.players === Number(f.players)) &&
    (!f.rated || String(Boolean(summary.rated)) === f.rated) && (!f.clock || clockKind(summary) === f.clock);
}

function filtersBar() {
  const select = (name, choices) => h("label", {}, t(`filter.${name}`),
    h("select", {"data-filter": name, onchange: (e) => { lobby.filters[name] = e.target.value; draw(); }},
      h("option", {value: "", selected: lobby.filters[name] === ""}, t("filter.any")),
      choices.map(([value, label]) => h("option", {value, selected: lobby.filters[name] === value}, label))));
  const counts = [...new Set(lobby.open.map((s) => s.players))].sort((a, b) => a - b);
  return h("div", {class: "filters", role: "group", "aria-label": t("filter.title"), "data-test": "filters"},
    select("game", lobby.games.map((g) => [g.id, gameName(g)])),
    select("players", counts.map((n) => [String(n), String(n)])),
    select("rated", [["true", t("filter.rated_yes")], ["false", t("filter.rated_no")]]),
    select("clock", [["none", t("clock.none")], ["live", t("filter.clock_live")], ["days", t("filter.clock_days")]]));
}

function section(title, ...content) {
  return h("section", {}, h("h2", {}, title), ...content);
}

function gameName(game) {
  return catalogName(game.id, game.name);
}

function gameCard(game) {
  const description = t(`${game.id}.game.description`);
  return h("li", {class: ["game-card", lobby.chosen === game && "chosen"]},
    h("button", {class: "pick", "data-game": game.id, onclick: () => choose(game)},
      h("img", {src: `/games/${game.id}/web/picture.svg`, alt: "", width: 96, height: 72, loading: "lazy"}),
      h("strong", {}, gameName(game)),
      h("span", {class: "players"}, t("lobby.players_range", {min: game.min_players, max: game.max_players})),
      h("span", {class: "description"}, description === `${game.id}.game.description` ? "" : description)));
}

function createForm(game) {
  const players = [];
  for (let n = game.min_players; n <= game.max_players; n++) players.push(n);
  return h("section", {id: "create", class: "create"},
    h("h2", {}, t("create.title", {game: gameName(game)})),
    h("form", {onsubmit: (event) => { event.preventDefault(); create(game); }},
      h("label", {}, t("create.players"),
        h("select", {name: "players", onchange: (e) => { lobby.players = Number(e.target.value); resetSeats(); draw(); }},
          players.map((n) => h("option", {value: n, selected: n === lobby.players}, String(n))))),
      game.options.filter((o) => o.name !== "hands").map((option) => optionField(game, option)),
      h("fieldset", {class: "seat-choices"}, h("legend", {}, t("create.seats")),
        lobby.seats.map((choice, index) => h("label", {},
          t("create.seat", {n: index + 1}),
          h("select", {"data-seat": index, onchange: (e) => { setSeat(index, e.target.value); draw(); }},
            h("option", {value: "me", selected: choice === "me"}, t("create.me")),
            h("option", {value: "open", selected: choice === "open"}, t("create.open")),
            LEVELS.map((level) => h("option", {value: `bot:${level}`, selected: choice === `bot:${level}`},
              t("create.bot", {level: t(`level.${level}`)}))))))),
      clockField(game),
      h("label", {class: "check"}, h("input", {type: "checkbox", name: "rated", checked: lobby.rated && !lobby.hints,
        disabled: lobby.hints, "aria-describedby": "rated-why", onchange: (e) => { lobby.rated = e.target.checked; }}),
        t("create.rated")),
      // why the box is greyed out, said where it is (a disabled box explains nothing by itself)
      h("p", {class: "help", id: "rated-why", "data-test": "rated-why", hidden: !lobby.hints}, t("create.rated_why")),
      // a table where the coach gives hints is never rated: choosing hints unchecks "rated" and holds it
      h("label", {class: "check"}, h("input", {type: "checkbox", name: "hints", checked: lobby.hints,
        "data-test": "hints", onchange: (e) => {
          lobby.hints = e.target.checked;
          const rated = e.target.form.elements.rated;  // changed in place: a redraw would lose the form's input
          if (lobby.hints) lobby.rated = rated.checked = false;
          rated.disabled = lobby.hints;
          document.getElementById("rated-why").hidden = !lobby.hints;
        }}), t("create.hints")),
      h("label", {}, t("create.your_name"),
        h("input", {name: "name", value: playerName(), maxlength: 80, autocomplete: "nickname"})),
      h("label", {class: "check"}, h("input", {type: "checkbox", name: "private"}), t("create.private")),
      h("button", {type: "submit", class: "primary", "data-test": "create", disabled: lobby.creating},
        t("create.submit"))));
}

// -- the table's clock and whether it is rated ------------------------------------------------------------

function mmss(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// the profiles' times at this game's pace come from the server (/api/games), which decides them
function clockField(game) {
  return h("label", {}, t("create.clock"),
    h("select", {name: "clock", onchange: (e) => { lobby.clock = e.target.value; }},
      h("option", {value: "", selected: lobby.clock === ""}, t("clock.none")),
      Object.entries(game.clock_profiles || {}).map(([profile, times]) => h("option",
        {value: profile, selected: lobby.clock === profile},
        t("clock.choice", {profile: t(`clock.profile.${profile}`), move: mmss(times.move),
          reserve: mmss(times.reserve)}))),
      // a game by correspondence: days a move, and the person told when it is their turn
      CORRESPONDENCE_DAYS.map((days) => h("option", {value: `days:${days}`, selected: lobby.clock === `days:${days}`},
        daysText(days)))));
}

const CORRESPONDENCE_DAYS = [1, 3, 7, 14];

function daysText(days) {
  return t(days === 1 ? "clock.correspondence.one" : "clock.correspondence.other", {days});
}

function clockChoice() {
  if (lobby.clock.startsWith("days:")) return {days: Number(lobby.clock.slice("days:".length))};
  return lobby.clock;
}

// sent only when chosen: a table without a clock, unrated, is the server's default
function tableTerms() {
  return {...(lobby.clock ? {clock: clockChoice()} : {}), ...(lobby.rated && !lobby.hints ? {rated: true} : {}),
    ...(lobby.hints ? {hints: true} : {})};
}

function setSeat(index, value) {
  if (value === "me") lobby.seats = lobby.seats.map((s) => (s === "me" ? "open" : s));
  lobby.seats[index] = value;
}

// Each option with its help for players from the game's catalog (`<id>.option.<name>.help`); the schema's `doc`
// is the developers' note, with its decision ids, and is never shown.
function optionField(game, option) {
  const label = t(`${game.id}.option.${option.name}`);
  const text = label === `${game.id}.option.${option.name}` ? option.name : label;
  const helpKey = `${game.id}.option.${option.name}.help`;
  const help = t(helpKey) === helpKey ? null : t(helpKey);
  const helpId = `help-${option.name}`;
  const set = (value) => { lobby.options[option.name] = value; };
  let input;
  if (option.type === "bool") {
    input = h("input", {type: "checkbox", name: option.name, checked: lobby.options[option.name],
      "aria-describedby": help ? helpId : null, onchange: (e) => set(e.target.checked)});
  } else if (option.choices) {
    input = h("select", {name: option.name, "aria-describedby": help ? helpId : null,
      onchange: (e) => set(option.type === "int" ? Number(e.target.value) : e.target.value)},
      option.choices.map((c) => {
        const choiceLabel = t(`${game.id}.option.${option.name}.${c}`);
        return h("option", {value: c, selected: c === lobby.options[option.name]},
          choiceLabel.startsWith(`${game.id}.option.`) ? String(c) : choiceLabel);
      }));
  } else {
    input = h("input", {type: "number", name: option.name, value: lobby.options[option.name],
      min: option.minimum ?? undefined, max: option.maximum ?? undefined, "aria-describedby": help ? helpId : null,
      onchange: (e) => set(Number(e.target.value))});
  }
  const field = option.type === "bool"
    ? h("label", {class: "check"}, input, text) : h("label", {}, text, input);
  return h("div", {class: "option", "data-option": option.name}, field,
    help ? h("p", {class: "help", id: helpId, "data-test": "option-help"}, help) : null);
}

async function create(game) {
  if (lobby.creating) return;  // a second click while the first creation is on its way
  const form = document.querySelector("#create form");
  const name = form.elements.name.value.trim() || t("seat.guest");
  const body = {game: game.id, players: lobby.players, options: lobby.options, seats: lobby.seats, player_name: name,
    private: form.elements.private.checked, ...tableTerms()};
  lobby.creating = true;
  form.querySelector("[data-test=create]").disabled = true;
  setPlayerName(name);
  try {
    // a table of bots only counts against a player (the server asks for one): this browser's, or a new guest
    if (!lobby.seats.includes("me") && !lobby.seats.includes("open")) await ensurePlayer(name);
    // the key makes whatever sends this submission twice (a retry, a second click that slips through) get the
    // same table back, never a second one
    const created = await api("/api/tables", {method: "POST", body, headers: {"Idempotency-Key": idempotencyKey()}});
    if (created.token !== null) holdSeat(created.table_id, created.seat, created.token, game.id);
    if (lobby.seats.includes("open")) {
      lobby.created = {...created, game};  // show the link to send to friends first
      lobby.notice = null;
      await refresh();  // the new table among the open ones and this browser's
      draw();
      showInvite();
    } else {
      location.href = `/tables/${created.table_id}`;
    }
  } catch (error) {
    lobby.notice = error.message;
    draw();
  } finally {
    lobby.creating = false;
    document.querySelector("#create [data-test=create]")?.removeAttribute("disabled");
  }
}

// One key a submission.  crypto.randomUUID exists only in a secure context (https, localhost); a club's server
// on http://192.168.x.y gets 128 random bits all the same.
function idempotencyKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The invite box in view with its link selected, ready to copy (a phone's keyboard copies a selection too).
function showInvite() {
  const box = document.querySelector("[data-test=invite]");
  const link = box && box.querySelector("input");
  if (!link) return;
  box.scrollIntoView({block: "start"});
  link.focus({preventScroll: true});
  link.select();
}

function copyLink(url) {
  if (!navigator.clipboard) return;
  navigator.clipboard.writeText(url).then(() => { lobby.copied = true; draw(); },
    () => { lobby.notice = t("invite.copy_failed"); draw(); });
}

function createdBox() {
  const url = lobby.created.invite_url;
  return h("section", {class: "invite", "data-test": "invite"},
    h("h2", {}, t("invite.created", {game: gameName(lobby.created.game)})),
    h("p", {}, t("invite.send")),
    h("input", {readonly: true, value: url, "aria-label": t("invite.link"), onclick: (e) => e.target.select()}),
    h("button", {"data-test": "copy", onclick: () => copyLink(url)}, t("invite.copy")),
    lobby.copied ? h("span", {class: "copied", role: "status", "data-test": "copied"}, t("invite.copied")) : null,
    // the table page keeps the invite code of its address, to show the same link to send
    h("a", {class: "button primary", href: `/tables/${lobby.created.table_id}${new URL(url, location.href).search}`},
      t("invite.go")));
}

function tableRow(summary, mine) {
  const game = lobby.games.find((g) => g.id === summary.game);
  const own = ownTableName(summary.name, summary.game, game ? game.name : summary.game);
  // a person with an account is a link to their page
  const seats = summary.seats.map((s) => (s.kind === "open" ? t("seat.open")
    : s.kind === "bot" ? t("seat.bot", {level: levelName(s.name)})
    : s.account ? h("a", {href: `/players/${encodeURIComponent(s.account)}`, "data-player": s.account}, s.name) : s.name));
  const days = summary.clock && summary.clock.days;
  const turn = mine && yourTurn(summary);
  return h("div", {class: ["table-row", turn && "your-turn"], "data-table": summary.id},
    h("strong", {}, game ? gameName(game) : summary.game, own ? ` · ${own}` : null),
    turn ? h("span", {class: "badge", "data-test": "your-turn"}, t("lobby.your_turn")) : null,
    h("span", {class: "seats-inline"}, seats.flatMap((seat, i) => (i ? [", ", seat] : [seat])),
      days ? ` · ${daysText(days)}` : null, summary.rated ? ` · ${t("seat.rated")}` : null),
    h("a", {class: "button", href: `/tables/${summary.id}`}, mine ? t("lobby.rejoin") : t("lobby.join")));
}

function levelName(level) {
  const name = t(`level.${level}`);
  return name === `level.${level}` ? level : name;
}

main();
