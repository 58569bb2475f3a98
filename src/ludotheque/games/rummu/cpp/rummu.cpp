// Rummü's Python face: its configuration, the chance probabilities as game.py gives them, what the Python wrapper
// needs to write chance's moves and to rebuild a determinization's history, and its batch.
#include "rummu.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ludo/binding.hpp"

// a named namespace, not an anonymous one: nanobind tells bound types apart by their type_info names, and the
// anonymous namespaces of two games' sources give a struct of the same name the same one
namespace rummu_binding {

using rummu::kTypes;
using rummu::State;

constexpr const char *kPhaseNames[6] = {"deal", "flip", "draw", "draw-card", "play", "over"};

rummu::Config config(int players, bool partnerships, int target, int hands) {
  if (players < 3 || players > rummu::kMaxSeats) throw std::invalid_argument("rummu is played by 3 to 6");
  if (partnerships && players != 4 && players != 6)
    throw std::invalid_argument("partnerships need 4 or 6 players (rummu-2)");
  if (target < 0 || hands < 0) throw std::invalid_argument("target and hands are 0 or more");
  rummu::Config c;
  c.players = players;
  c.partnerships = partnerships;
  // rummu-10: the option's 0 is the rulebook's target, 500 in partnerships
  c.target = target ? target : (partnerships ? rummu::kTargetTeam : rummu::kTargetSingle);
  c.hands = hands;
  return c;
}

std::string card_text(int t) { return std::string{"RYGBK"[t / 10], static_cast<char>('0' + t % 10)}; }

// the 50 card names, made once (a view names every card of the table, the discard pile and the results)
nb::handle card_name(int t) {
  static PyObject *names[kTypes] = {};
  if (!names[t]) names[t] = PyUnicode_InternFromString(card_text(t).c_str());  // kept for the process's life
  return names[t];
}

// view.py's _cards: a count vector's cards, one per copy, in type order
nb::list names(const int8_t *counts) {
  nb::list out;
  for (int t = 0; t < kTypes; ++t)
    for (int c = 0; c < counts[t]; ++c) out.append(card_name(t));
  return out;
}

nb::list names_in_order(const int8_t *cards, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(card_name(cards[i]));
  return out;
}

std::string joined(const int8_t *cards, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i) out += ' ';
    out += card_text(cards[i]);
  }
  return out;
}

template <class T>
nb::list int_list(const T *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(static_cast<int>(values[i]));
  return out;
}

// A match's log as views show it (game.py's `log` and `results`): a replica of the match replayed from its first
// deal, writing the lines game.py writes and the count of each finished hand.  The Python side keeps one per
// history and feeds it the actions played since, so a view builds only what was written since the last.
struct GameLog {
  struct Line {
    int seat;
    std::string public_text, private_text;
  };
  State replica;
  std::vector<Line> lines;  // this hand's
  nb::list results;
  int position = 0;

  explicit GameLog(const rummu::Config &c) : replica(c) { new_hand(); }
  GameLog(const GameLog &other) : replica(other.replica), lines(other.lines), position(other.position) {
    for (nb::handle entry : other.results) results.append(entry);  // a list of its own: a clone moves on alone
  }
  GameLog &operator=(const GameLog &) = delete;

  void log(int seat, const std::string &public_text, const std::string &private_text = "") {
    const std::string who = "seat " + std::to_string(seat) + " ";
    lines.push_back({seat, seat >= 0 ? who + public_text : public_text, private_text.empty() ? "" : who + private_text});
  }

  void new_hand() {
    lines.clear();
    lines.push_back({-1, "hand " + std::to_string(replica.hand_no + 1) + ": seat " + std::to_string(replica.dealer) +
                             " deals", ""});
  }

  void advance(const std::vector<int> &actions) {
    for (int action : actions) {
      State &r = replica;
      if (r.terminal()) throw std::invalid_argument("game log: an action after the end");
      int actors[ludo::kMaxActors];
      const int actor = r.chance() ? ludo::kChance : (r.actors(actors), actors[0]);
      if (actor == ludo::kChance ? !r.is_chance_outcome(action) : !r.is_legal(actor, action))
        throw std::invalid_argument("game log: an action that is not legal in this match");
      step(actor, action);
      ++position;
    }
  }

  void step(int seat, int action) {
    State &r = replica;
    const State before = r;
    r.apply(seat, action);
    if (seat == ludo::kChance) {
      if (before.phase == rummu::kFlip) {
        log(-1, "the discard pile starts with " + card_text(action));
      } else if (before.phase == rummu::kDrawCard) {
        log(before.current, "draws from the pile", "draws " + card_text(action) + " from the pile");
        if (r.epoch > before.epoch)
          log(-1, "the draw pile is empty: " + std::to_string(r.pile_size) +
                      " discarded cards are shuffled into a new one");
        else if (r.exhausted && !before.exhausted)
          log(-1, "the draw pile is empty and nothing can be reshuffled: the hand ends after this turn");
      }
      return;
    }
    using namespace rummu;
    if (action == kDraw) return;
    if (action < kStart) {
      const int k = action - kTake + 1;
      int8_t taken[rummu::kDeckSize];
      for (int i = 0; i < k; ++i) taken[i] = before.discard[before.discard_len - 1 - i];  // rummu-3: top first
      log(seat, "takes " + std::to_string(k) + " from the discard pile: " + joined(taken, k));
    } else if (action < kAdd) {
      log(seat, "starts a combination with " + card_text(action - kStart));
    } else if (action < kClose) {
      log(seat, "adds " + card_text(action - kAdd));
    } else if (action == kClose) {
      const int j = r.ncombos - 1;
      log(seat, "lays combination " + std::to_string(r.ncombos) + (before.opened[seat] ? "" : " (opening)") + ": " +
                    joined(r.combos[j], r.combo_len[j]));
    } else if (action == kCancel) {
      log(seat, "takes back " + joined(before.partial, before.partial_len));
    } else if (action < kPut) {
      const int card = action - kDiscard;
      log(seat, "discards " + card_text(card));
      if (r.hand_no > before.hand_no) {
        State counted = before;  // the hand as it was counted: the discard made
        --counted.hands[seat][card];
        --counted.sizes[seat];
        const int out = counted.sizes[seat] == 0 ? seat : -1;
        if (out < 0) log(-1, "nothing is left to draw: the hand ends with nobody out");
        results.append(result_entry(counted, out, r));
        if (!r.terminal()) new_hand();
      }
    } else if (action < kSwap) {
      const int j = (action - kPut) / kTypes, card = (action - kPut) % kTypes;
      log(seat, "puts " + card_text(card) + " on combination " + std::to_string(j + 1));
    } else {
      const int j = (action - kSwap) / kTypes, card = (action - kSwap) % kTypes;
      log(seat, "swaps " + card_text(card) + " for the joker " + card_text(kYellow * 10 + card % 10) +
                    " of combination " + std::to_string(j + 1));
    }
  }

  // game.py's _score_hand (rummu-8/9), with the totals after it
  static nb::dict result_entry(const State &s, int out, const State &after) {
    const int n = s.players();
    nb::dict entry;
    entry["hand"] = s.hand_no + 1;
    entry["dealer"] = s.dealer;
    entry["out"] = out < 0 ? nb::none() : nb::object(nb::int_(out));
    int points[rummu::kMaxSeats];
    s.hand_points(out, points);
    nb::list combos;
    for (int j = 0; j < s.ncombos; ++j) {
      nb::dict combo;
      combo["owner"] = static_cast<int>(s.owners[j]);
      combo["cards"] = names_in_order(s.combos[j], s.combo_len[j]);
      combo["kind"] = rummu::is_set(s.combos[j], s.combo_len[j]) ? "set" : "run";
      combo["pure"] = rummu::is_pure(s.combos[j], s.combo_len[j]);
      combo["points"] = rummu::combo_points(s.combos[j], s.combo_len[j]);
      combos.append(combo);
    }
    entry["combos"] = combos;
    nb::list left, penalties, waived, bonus;
    for (int seat = 0; seat < n; ++seat) {
      left.append(names(s.hands[seat]));
      const bool w = out >= 0 && seat != out && s.config.partnerships && s.team_of(seat) == s.team_of(out);
      int penalty = 0;
      if (!w)
        for (int t = 0; t < kTypes; ++t) penalty += s.hands[seat][t] * (rummu::is_joker(t) ? -10 : -5);
      penalties.append(penalty);
      waived.append(w);
      bonus.append(seat == out ? rummu::kOutBonus : 0);
    }
    entry["left"] = left;
    entry["penalties"] = penalties;
    entry["waived"] = waived;
    entry["bonus"] = bonus;
    entry["points"] = int_list(points, n);
    entry["totals"] = int_list(after.totals, n);
    if (s.config.partnerships) {
      nb::list teams;
      for (int team = 0; team < n / 2; ++team) {
        nb::dict t;
        nb::list seats;
        int sum = 0;
        for (int seat = 0; seat < n; ++seat)
          if (s.team_of(seat) == team) {
            seats.append(seat);
            sum += points[seat];
          }
        t["seats"] = seats;
        t["points"] = sum;
        t["total"] = after.unit_total(team);
        teams.append(t);
      }
      entry["teams"] = teams;
    } else {
      entry["teams"] = nb::none();
    }
    return entry;
  }

  // whether the replay stands where `s` stands (the match's actions so far, and no others)
  bool matches(const State &s) const {
    const State &r = replica;
    return position == s.steps && r.public_hash == s.public_hash && r.phase == s.phase && r.current == s.current &&
           std::memcmp(r.hands, s.hands, sizeof s.hands) == 0 && std::memcmp(r.pile, s.pile, sizeof s.pile) == 0;
  }
};

constexpr int kLogShown = 30;  // view.LOG

nb::dict table_view(const State &s, std::optional<int> player, const GameLog &game_log, int hand_limit) {
  const int n = s.players();
  if (player) ludo::check_seat(s, *player);
  if (!game_log.matches(s)) throw std::invalid_argument("table_view: the game log is not this match's");
  const bool over = s.terminal();
  nb::dict data;
  data["hand_number"] = s.hand_no + (over ? 0 : 1);
  data["dealer"] = s.dealer;
  data["phase"] = kPhaseNames[static_cast<int>(s.phase)];
  data["current"] = over ? nb::none() : nb::object(nb::int_(s.current));
  data["target"] = s.config.target;
  data["hand_limit"] = hand_limit;
  if (s.config.partnerships) {
    nb::list teams;
    for (int seat = 0; seat < n; ++seat) teams.append(s.team_of(seat));
    data["teams"] = teams;
  } else {
    data["teams"] = nb::none();
  }
  nb::list scores, known;
  for (int seat = 0; seat < n; ++seat) {
    scores.append(s.unit_total(seat));
    known.append(names(s.known[seat]));
  }
  data["totals"] = int_list(s.totals, n);
  data["scores"] = scores;
  data["needs"] = int_list(s.needs, n);
  nb::list opened;
  for (int seat = 0; seat < n; ++seat) opened.append(s.opened[seat]);
  data["opened"] = opened;
  data["hand_sizes"] = int_list(s.sizes, n);
  data["known"] = known;
  data["pile_size"] = s.pile_size;
  data["discard"] = names_in_order(s.discard, s.discard_len);
  nb::list combos;
  for (int j = 0; j < s.ncombos; ++j) {
    nb::dict combo;
    combo["owner"] = static_cast<int>(s.owners[j]);
    combo["cards"] = names_in_order(s.combos[j], s.combo_len[j]);
    combo["points"] = rummu::combo_points(s.combos[j], s.combo_len[j]);
    combos.append(combo);
  }
  data["combos"] = combos;
  data["laying"] = names_in_order(s.partial, s.partial_len);
  data["cancels"] = s.cancels;
  nb::list log;
  const auto &lines = game_log.lines;
  const int seat = player ? *player : -2;
  for (size_t i = lines.size() > kLogShown ? lines.size() - kLogShown : 0; i < lines.size(); ++i) {
    const auto &line = lines[i];
    log.append(line.seat == seat && !line.private_text.empty() ? line.private_text : line.public_text);
  }
  data["log"] = log;
  nb::list results;
  for (nb::handle entry : game_log.results) results.append(entry);
  data["results"] = results;
  if (player) data["hand"] = names(s.hands[*player]);
  return data;
}

}  // namespace rummu_binding

using rummu_binding::GameLog;
using rummu_binding::config;
using rummu_binding::table_view;
using rummu::State;

void bind_rummu(nb::module_ &m) {
  nb::class_<GameLog>(m, "RummuGameLog")
      .def(nb::new_([](const State &s) { return GameLog(s.config); }), nb::arg("state"))  // at the match's start
      .def("advance", &GameLog::advance, nb::arg("actions"))
      .def("position", [](const GameLog &g) { return g.position; })
      .def("copy", [](const GameLog &g) { return GameLog(g); })
      .def("matches", &GameLog::matches, nb::arg("state"));
  ludo::bind_state<State>(m, "RummuState")
      .def(nb::new_([](int players, bool partnerships, int target, int hands) {
             return State(config(players, partnerships, target, hands));
           }),
           nb::arg("players"), nb::arg("partnerships"), nb::arg("target"), nb::arg("hands"))
      // chance is not uniform (a type comes with probability copies left / cards left): game.py's outcomes, and
      // their running sums as its _chance_cumulative adds them (the same floats: a seeded sample_chance draws the
      // same card on both engines)
      .def("chance_outcomes",
           [](const State &s) {
             std::vector<std::pair<int, double>> out;
             if (!s.chance()) return out;
             const double size = s.pile_size;
             for (int t = 0; t < rummu::kTypes; ++t)
               if (s.pile[t]) out.emplace_back(t, s.pile[t] / size);
             return out;
           })
      .def("chance_cumulative",
           [](const State &s) -> std::optional<std::pair<std::vector<int>, std::vector<double>>> {
             if (!s.chance()) return std::nullopt;
             std::pair<std::vector<int>, std::vector<double>> out;
             const double size = s.pile_size;
             double total = 0;
             for (int t = 0; t < rummu::kTypes; ++t)
               if (s.pile[t]) {
                 out.first.push_back(t);
                 total += s.pile[t] / size;
                 out.second.push_back(total);
               }
             return out;
           })
      // what chance's next card is for: ("deal", the seat dealt to), ("flip", -1) or ("draw_card", the drawer)
      .def("chance_kind",
           [](const State &s) -> std::optional<std::pair<std::string, int>> {
             if (!s.chance()) return std::nullopt;
             if (s.phase == rummu::kDeal) {
               const int n = s.players();
               const int dealt = rummu::hand_size(n) * n - s.to_deal;
               return std::make_pair(std::string("deal"), (s.dealer + 1 + dealt) % n);
             }
             if (s.phase == rummu::kFlip) return std::make_pair(std::string("flip"), -1);
             return std::make_pair(std::string("draw_card"), s.current);
           })
      // the view of `player` (None: a spectator), with the match's log replayed up to this state (view.py)
      .def("table_view", &table_view, nb::arg("player").none(), nb::arg("game_log"), nb::arg("hand_limit"))
      .def("steps", [](const State &s) { return s.steps; })
      .def("hand_number", [](const State &s) { return s.hand_no; })
      // a seat's hand as counts per card type (what a determinization dealt it)
      .def("hand_counts",
           [](const State &s, int seat) {
             ludo::check_seat(s, seat);
             return std::vector<int>(s.hands[seat], s.hands[seat] + rummu::kTypes);
           })
      .def("pile_counts", [](const State &s) { return std::vector<int>(s.pile, s.pile + rummu::kTypes); })
      // the deliveries still hidden in a hand, as (history index, seat, card): a determinization's history
      // rewrites these chance actions
      .def("hidden_deliveries",
           [](const State &s) {
             std::vector<std::tuple<int, int, int>> out;
             for (int i = 0; i < s.nhidden; ++i)
               out.emplace_back(s.hidden[i].index, s.hidden[i].seat, s.hidden[i].card);
             return out;
           })
      // the heuristic with its random choice (among equally loose discards) made the first candidate
      .def("heuristic_first", [](const State &s, int seat) {
        ludo::check_seat(s, seat);
        int legal[State::kMaxActions];
        if (s.terminal() || s.chance() || !s.legal(seat, legal)) throw std::invalid_argument("no decision here");
        return s.heuristic_with(seat, [](const int *xs, int) { return xs[0]; });
      });
  m.def(
      "rummu_simulate",
      [](int players, bool partnerships, int target, int hands, int n, const std::vector<double> &eps,
         uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players, partnerships, target, hands), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("partnerships"), nb::arg("target"), nb::arg("hands"), nb::arg("n"), nb::arg("eps"),
      nb::arg("seed"), nb::arg("max_steps") = 100000);
}
