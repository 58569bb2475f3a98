// Safarü's Python face: its configuration, its view (the same JSON as view.py's table_view), what the Python
// wrapper needs to rebuild a determinization's history and the chance probabilities, and its batch.
#include "safaru.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "ludo/binding.hpp"

namespace {

using safaru::kKinds;
using safaru::State;

constexpr const char *kMethodNames[3] = {"add", "17", "pair"};
constexpr const char *kPhaseNames[5] = {"play", "catch", "build", "pick", "pair"};

// the 50 card names, made once (a view names every card of the table, the catches and the log)
nb::handle card_name(int kind) {
  static PyObject *names[kKinds] = {};
  if (!names[kind]) {
    const char text[3] = {"RYGBK"[kind / 10], static_cast<char>('0' + kind % 10), 0};
    names[kind] = PyUnicode_InternFromString(text);  // kept for the life of the process
  }
  return names[kind];
}

// rules.names: a count vector's cards, one per copy, in kind order
nb::list names(const int8_t *counts) {
  nb::list out;
  for (int k = 0; k < kKinds; ++k)
    for (int c = 0; c < counts[k]; ++c) out.append(card_name(k));
  return out;
}

nb::list names_in_order(const int8_t *kinds, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(card_name(kinds[i]));
  return out;
}

nb::list floats(const double *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(nb::float_(values[i]));
  return out;
}

nb::object seat_or_none(int seat) { return seat < 0 ? nb::none() : nb::object(nb::int_(seat)); }

// The log of game.py, rebuilt while the game's actions replay: each finished deal and turn, and the turn under way.
struct ViewLog final : safaru::LogSink {
  nb::list log;
  int8_t deal_table[safaru::kTableDeal];
  int deal_table_len = 0;
  int8_t table_before[kKinds] = {};
  struct Catch {
    int method;
    std::vector<int8_t> cards;
  };
  std::vector<Catch> catches;

  void new_round(const State &) override { deal_table_len = 0; }
  void table_deal(int kind) override { deal_table[deal_table_len++] = static_cast<int8_t>(kind); }
  void deal_end(const State &s) override {
    nb::dict entry;
    entry["deal"] = s.round;
    entry["starter"] = s.starter;
    entry["table"] = names_in_order(deal_table, deal_table_len);
    nb::list hands;
    for (int seat = 0; seat < s.players(); ++seat) hands.append(static_cast<int>(s.hand_count[seat]));
    entry["hands"] = hands;
    log.append(entry);
  }
  void play(const State &s) override {
    std::memcpy(table_before, s.table, kKinds);
    catches.clear();
  }
  void caught(int method, const int8_t *kinds, int count) override {
    catches.push_back({method, std::vector<int8_t>(kinds, kinds + count)});
  }
  void turn_end(const State &s) override {
    nb::dict entry;
    entry["seat"] = s.to_move;
    entry["card"] = card_name(s.played);
    entry["table_before"] = names(table_before);
    entry["catches"] = catch_list();
    entry["released"] = catches.empty();
    entry["picked_by"] = seat_or_none(s.picked_by);
    log.append(entry);
  }
  nb::list catch_list() const {
    nb::list out;
    for (const Catch &c : catches) {
      nb::dict entry;
      entry["method"] = kMethodNames[c.method];
      entry["cards"] = names_in_order(c.cards.data(), static_cast<int>(c.cards.size()));
      out.append(entry);
    }
    return out;
  }
};

// A game's log as views show it: a copy of the game under way replayed from its first deal into a ViewLog.  The
// Python side keeps one per history and feeds it the actions played since, so that a view builds only the entries
// written since the last (an entry never changes once written, as in game.py).
struct GameLog {
  State replica;
  ViewLog sink;
  int position = 0;  // the game's actions replayed

  explicit GameLog(const State &s) : replica(s.config) {
    if (s.game_round0 != 0 || s.match_hash != 0) {  // a later game of the match: start where it started
      replica.round = s.game_round0 - 1;
      replica.match_hash = s.match_hash;
      replica.new_game();
    }
    replica.sink = &sink;
  }
  // a copy replays into its own sink, with a list of its own (copying the sink copies a reference to the Python
  // list, which both would then write): a clone's log moves on alone
  GameLog(const GameLog &other) : replica(other.replica), sink(other.sink), position(other.position) {
    replica.sink = &sink;
    sink.log = nb::list();
    for (nb::handle entry : other.sink.log) sink.log.append(entry);
  }
  GameLog &operator=(const GameLog &) = delete;

  void advance(const std::vector<int> &actions) {
    for (int action : actions) {
      State &r = replica;
      if (r.finished) throw std::invalid_argument("game log: an action after the end");
      const int actor = r.chance() ? ludo::kChance : r.actor();
      if (actor == ludo::kChance ? !r.is_chance_outcome(action) : !r.is_legal(actor, action))
        throw std::invalid_argument("game log: an action that is not legal in this game");
      r.apply(actor, action);
      ++position;
    }
  }

  // whether the replay stands where `s` stands (the game's actions so far, and no others)
  bool matches(const State &s) const {
    const State &r = replica;
    return position == s.game_steps && std::memcmp(r.hands, s.hands, sizeof s.hands) == 0 &&
           std::memcmp(r.table, s.table, sizeof s.table) == 0 && std::memcmp(r.pile, s.pile, sizeof s.pile) == 0 &&
           std::memcmp(r.caught, s.caught, sizeof s.caught) == 0 && r.phase == s.phase && r.to_move == s.to_move &&
           r.played == s.played && r.finished == s.finished && r.queue_pos == s.queue_pos &&
           r.public_hash == s.public_hash;
  }
};

nb::dict result_entry(const int8_t (*caught)[kKinds], const int8_t *left, const safaru::Config &config) {
  double scores[safaru::kMaxSeats];
  safaru::seat_scores(caught, config, scores);
  nb::dict entry;
  entry["scores"] = floats(scores, config.players);
  nb::list per_seat;
  for (int seat = 0; seat < config.players; ++seat) per_seat.append(names(caught[seat]));
  entry["caught"] = per_seat;
  entry["left"] = names(left);
  return entry;
}

nb::dict table_view(const State &s, std::optional<int> player, const GameLog &game_log) {
  const int n = s.players();
  if (player) ludo::check_seat(s, *player);
  if (!game_log.matches(s)) throw std::invalid_argument("table_view: the game log is not this game's");
  const ViewLog &sink = game_log.sink;
  nb::object turn = nb::none();
  if (s.played >= 0 && !s.finished) {
    nb::dict t;
    t["seat"] = s.to_move;
    t["card"] = card_name(s.played);
    t["table_before"] = names(sink.table_before);
    t["zero_required"] = s.zero_required;
    t["catches"] = sink.catch_list();
    if (s.method < 0) {
      t["building"] = nb::none();
    } else {
      nb::dict building;
      building["method"] = kMethodNames[static_cast<int>(s.method)];
      building["cards"] = names_in_order(s.build, s.build_len);
      t["building"] = building;
    }
    t["picked_by"] = seat_or_none(s.picked_by);
    turn = t;
  }
  nb::dict data;
  data["game_number"] = s.ngames + (s.finished ? 0 : 1);
  data["deal"] = s.round;
  data["starter"] = s.starter;
  data["to_move"] = s.finished ? nb::none() : nb::object(nb::int_(s.to_move));
  data["phase"] = s.chance() ? "deal" : (s.finished ? "over" : kPhaseNames[static_cast<int>(s.phase)]);
  data["table"] = names(s.table);
  data["pile"] = s.pile_size;
  nb::list hand_sizes, caught;
  for (int seat = 0; seat < n; ++seat) {
    hand_sizes.append(static_cast<int>(s.hand_count[seat]));
    caught.append(names(s.caught[seat]));
  }
  data["hand_sizes"] = hand_sizes;
  data["caught"] = caught;
  nb::list partners;
  if (s.config.partners) {
    for (int seat = 0; seat < 2; ++seat) {
      nb::list side;
      side.append(seat);
      side.append(seat + 2);
      partners.append(side);
    }
  }
  data["partners"] = partners;
  data["turn"] = turn;
  // a list of its own, the entries shared (view.py's list(state.log)): nb::list(handle) would be the sink's own
  // list, which goes on growing under a view already handed out
  nb::list log;
  for (nb::handle entry : sink.log) log.append(entry);
  data["log"] = log;
  double scores[safaru::kMaxSeats];
  s.current_scores(scores);
  data["scores"] = floats(scores, n);
  data["totals"] = floats(s.totals, n);
  std::vector<const safaru::Result *> finished_games;
  for (const safaru::Result *r = s.results.get(); r; r = r->previous.get()) finished_games.push_back(r);
  nb::list results;
  for (auto it = finished_games.rbegin(); it != finished_games.rend(); ++it)
    results.append(result_entry((*it)->caught, (*it)->left, s.config));
  if (s.finished) results.append(result_entry(s.caught, s.table, s.config));  // the last game: the live one
  data["results"] = results;
  if (player) data["hand"] = names(s.hands[*player]);
  return data;
}

safaru::Config config(int players, bool reverse, int target, int games, bool partners) {
  if (players < 2 || players > safaru::kMaxSeats) throw std::invalid_argument("safaru is played by 2 to 4");
  if (target < 0 || target > 1000) throw std::invalid_argument("target within 0..1000");
  if (games < 1 || games > safaru::kMaxGames) throw std::invalid_argument("games within 1..100");
  if (partners && players != 4) throw std::invalid_argument("partners play at 4 only");
  return {players, reverse, target, games, partners};
}

}  // namespace

void bind_safaru(nb::module_ &m) {
  nb::class_<GameLog>(m, "SafaruGameLog")
      .def(nb::init<const State &>(), nb::arg("state"))  // the log of the game `state` is in, at its first deal
      .def("advance", &GameLog::advance, nb::arg("actions"))
      .def("position", [](const GameLog &g) { return g.position; })
      .def("copy", [](const GameLog &g) { return GameLog(g); })
      .def("matches", &GameLog::matches, nb::arg("state"));
  ludo::bind_state<State>(m, "SafaruState")
      .def(nb::new_([](int players, bool reverse, int target, int games, bool partners) {
             return State(config(players, reverse, target, games, partners));
           }),
           nb::arg("players"), nb::arg("reverse"), nb::arg("target"), nb::arg("games"), nb::arg("partners"))
      // the view of `player` (None: a spectator), with the game's log replayed up to this state
      .def("table_view", &table_view, nb::arg("player").none(), nb::arg("game_log"))
      .def("game_steps", [](const State &s) { return s.game_steps; })
      // chance is not uniform (a kind comes with probability copies left / cards left, all-1): the outcomes
      // with game.py's probabilities, and their running sums as game.py's _chance_cumulative adds them (the same
      // floats, so that a seeded sample_chance draws the same card on both engines)
      .def("chance_outcomes",
           [](const State &s) {
             std::vector<std::pair<int, double>> out;
             if (!s.chance()) return out;
             const double size = s.pile_size;
             for (int k = 0; k < kKinds; ++k)
               if (s.pile[k]) out.emplace_back(k, s.pile[k] / size);
             return out;
           })
      .def("chance_cumulative",
           [](const State &s) -> std::optional<std::pair<std::vector<int>, std::vector<double>>> {
             if (!s.chance()) return std::nullopt;
             std::pair<std::vector<int>, std::vector<double>> out;
             const double size = s.pile_size;
             double total = 0;
             for (int k = 0; k < kKinds; ++k)
               if (s.pile[k]) {
                 out.first.push_back(k);
                 total += s.pile[k] / size;
                 out.second.push_back(total);
               }
             return out;
           })
      // where the next card dealt goes: a seat, -1 for the table, None when nothing is being dealt
      .def("next_deal_to",
           [](const State &s) -> std::optional<int> {
             if (!s.chance()) return std::nullopt;
             return static_cast<int>(s.queue[s.queue_pos]);
           })
      // this deal's actions so far, the destinations of its cards dealt so far, and each seat's cards of this
      // deal (those it played, in order, then its hand): what a determinization's history is rebuilt from
      .def("round_steps", [](const State &s) { return s.round_steps; })
      .def("round_queue", [](const State &s) { return std::vector<int>(s.queue, s.queue + s.queue_pos); })
      .def("round_cards", [](const State &s) {
        std::vector<std::vector<int>> out(s.players());
        for (int seat = 0; seat < s.players(); ++seat) {
          out[seat].assign(s.played_round[seat], s.played_round[seat] + s.played_round_len[seat]);
          for (int k = 0; k < kKinds; ++k)
            for (int c = 0; c < s.hands[seat][k]; ++c) out[seat].push_back(k);
        }
        return out;
      });
  m.def(
      "safaru_simulate",
      [](int players, bool reverse, int target, int games, bool partners, int n, const std::vector<double> &eps,
         uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players, reverse, target, games, partners), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("reverse"), nb::arg("target"), nb::arg("games"), nb::arg("partners"), nb::arg("n"),
      nb::arg("eps"), nb::arg("seed"), nb::arg("max_steps") = 100000);
}
