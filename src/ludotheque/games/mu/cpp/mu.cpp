// Mü's Python face: its configuration, its view (the same JSON as view.py's table_view), the chance probabilities
// as game.py gives them, what the Python wrapper needs to rebuild a determinization's history, and its batch.
#include "mu.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "ludo/binding.hpp"

namespace {

using mu::kKinds;
using mu::State;

constexpr const char *kPhaseNames[8] = {"remove", "deal", "auction", "vice_trump", "chief_trump", "partner", "play",
                                        "over"};
constexpr const char *kColours[5] = {"R", "Y", "G", "B", "K"};
constexpr const char *kResults[4] = {"redeal", "egalite", "made", "missed"};

// the 50 card names, made once
nb::handle card_name(int kind) {
  static PyObject *names[kKinds] = {};
  if (!names[kind]) {
    const char text[3] = {"RYGBK"[kind / 10], static_cast<char>('0' + kind % 10), 0};
    names[kind] = PyUnicode_InternFromString(text);  // kept for the life of the process
  }
  return names[kind];
}

// view._cards: a count vector's cards, one per copy, in kind order
nb::list names(const int8_t *counts) {
  nb::list out;
  for (int k = 0; k < kKinds; ++k)
    for (int c = 0; c < counts[k]; ++c) out.append(card_name(k));
  return out;
}

nb::list ints(const int *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(values[i]);
  return out;
}

nb::list ints8(const int8_t *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(static_cast<int>(values[i]));
  return out;
}

nb::object seat_or_none(int seat) { return seat < 0 ? nb::none() : nb::object(nb::int_(seat)); }
nb::object int_or_none(bool present, int value) { return present ? nb::object(nb::int_(value)) : nb::none(); }

// rules.trump_name
nb::str trump_name(int trump) {
  if (mu::is_colour_trump(trump)) return nb::str(kColours[trump]);
  if (mu::is_number_trump(trump)) return nb::str(std::to_string(trump - 10).c_str());
  return nb::str("none");
}

// notation.format_action, for the auction's moves
nb::object move_name(int action) {
  if (action < mu::kFromTable) return nb::borrow(card_name(action));
  return nb::str(action == mu::kDone ? "done" : "pass");
}

nb::list trick_cards(const int8_t *seat, const int8_t *kind, const bool *table, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) {
    nb::list card;
    card.append(static_cast<int>(seat[i]));
    card.append(card_name(kind[i]));
    card.append(nb::bool_(table[i]));
    out.append(card);
  }
  return out;
}

// a finished hand's summary, keys in game.py's order
nb::dict summary(const mu::Summary &s, int n) {
  nb::dict d;
  d["hand"] = s.hand;
  d["dealer"] = s.dealer;
  d["bids"] = ints(s.bids, n);
  d["result"] = kResults[s.result];
  if (s.result == mu::kEgalite) {
    nb::list tied;
    for (int seat = 0; seat < n; ++seat)
      if (s.tied_mask >> seat & 1) tied.append(seat);
    d["tied"] = tied;
    d["tie_maker"] = s.tie_maker;
  } else if (s.result != mu::kRedeal) {
    const bool made = s.result == mu::kMade;
    d["chief"] = s.chief;
    d["vice"] = seat_or_none(s.vice);
    d["partner"] = seat_or_none(s.partner);
    d["chief_trump"] = trump_name(s.chief_trump);
    d["vice_trump"] = s.vice >= 0 ? nb::object(trump_name(s.vice_trump)) : nb::none();
    d["bid"] = s.bid;
    d["contract"] = s.contract;
    d["triangles"] = ints(s.triangles, n);
    d["team_triangles"] = s.team;
    d["bonus"] = int_or_none(made, s.bonus);
    d["k"] = int_or_none(!made, s.bid - s.missing);
    d["chief_loss"] = int_or_none(!made, 10 * s.missing);
    d["opponent_gain"] = int_or_none(!made, 5 * s.missing);
  }
  d["deltas"] = ints(s.deltas, n);
  d["scores"] = ints(s.scores, n);
  return d;
}

nb::dict table_view(const State &s, std::optional<int> player) {
  const int n = s.players();
  if (player) ludo::check_seat(s, *player);
  const int phase = s.phase;
  const bool over = phase == mu::kOver;
  const bool named = (phase == mu::kPlay || phase == mu::kPartnerPhase || phase == mu::kChiefTrump || over) && s.chief >= 0;
  const bool chief_named = phase == mu::kPlay || phase == mu::kPartnerPhase || (over && s.chief >= 0);
  nb::dict data;
  data["hand_number"] = s.hands_done + (over ? 0 : 1);
  data["phase"] = kPhaseNames[phase];
  data["dealer"] = static_cast<int>(s.dealer);
  data["target"] = s.config.target;
  data["scores"] = ints(s.scores, n);
  nb::list removed;
  for (int i = 0; i < s.nremoved; ++i) removed.append(kColours[s.removed[i]]);
  data["removed"] = removed;
  data["hand_sizes"] = ints8(s.hand_sizes, n);
  data["bids"] = ints8(s.bids, n);
  nb::list laid;
  for (int seat = 0; seat < n; ++seat) laid.append(names(s.laid[seat]));
  data["laid"] = laid;
  nb::list auction;
  for (int i = 0; i < s.auction_len; ++i) {
    nb::list entry;
    entry.append(static_cast<int>(s.auction_seat[i]));
    entry.append(move_name(s.auction_action[i]));
    auction.append(entry);
  }
  data["auction"] = auction;
  const bool bidding = phase == mu::kAuction;
  data["turn_limit"] = int_or_none(bidding, s.turn_limit);
  data["turn_laid"] = int_or_none(bidding, s.turn_laid);
  data["chief"] = seat_or_none(s.chief);
  data["vice"] = seat_or_none(s.vice);
  data["partner"] = seat_or_none(s.partner);
  data["vice_trump"] = named && s.vice >= 0 ? nb::object(trump_name(s.vice_trump)) : nb::none();
  data["chief_trump"] = chief_named ? nb::object(trump_name(s.chief_trump)) : nb::none();
  data["contract"] = int_or_none(s.chief >= 0, s.chief >= 0 ? mu::contract(n, s.bids[s.chief]) : 0);
  data["leader"] = int_or_none(phase == mu::kPlay, s.leader);
  data["trick"] = trick_cards(s.trick_seat, s.trick_kind, s.trick_table, s.trick_len);
  nb::list tricks;
  for (int t = 0; t < s.ntricks; ++t) {
    const mu::Trick &trick = s.tricks[t];
    nb::dict entry;
    entry["leader"] = static_cast<int>(trick.leader);
    entry["cards"] = trick_cards(trick.seat, trick.kind, trick.table, n);
    entry["winner"] = static_cast<int>(trick.winner);
    tricks.append(entry);
  }
  data["tricks"] = tricks;
  data["won"] = ints(s.won, n);
  std::vector<const mu::Summary *> finished;
  for (const mu::Summary *h = s.log.get(); h; h = h->previous.get()) finished.push_back(h);
  nb::list hands;
  for (auto it = finished.rbegin(); it != finished.rend(); ++it) hands.append(summary(**it, n));
  data["hands"] = hands;
  if (player) data["hand"] = names(s.hands[*player]);
  return data;
}

mu::Config config(int players, int target) {
  if (players < 3 || players > mu::kMaxSeats) throw std::invalid_argument("mu is played by 3 to 6");
  if (target < 1 || target > 100000) throw std::invalid_argument("target within 1..100000");
  return {players, target};
}

// game.py's _chance_outcomes: a colour uniformly, a kind with probability copies left / cards left (all-1)
std::vector<std::pair<int, double>> chance_outcomes(const State &s) {
  std::vector<std::pair<int, double>> out;
  if (!s.chance()) return out;
  if (s.phase == mu::kRemovePhase) {
    const double p = 1.0 / (5 - s.nremoved);
    for (int c = 0; c < 5; ++c)
      if (!s.was_removed(c)) out.emplace_back(mu::kRemove + c, p);
    return out;
  }
  const double total = s.deck_left;
  for (int k = 0; k < kKinds; ++k)
    if (s.deck[k]) out.emplace_back(k, s.deck[k] / total);
  return out;
}

}  // namespace

void bind_mu(nb::module_ &m) {
  ludo::bind_state<State>(m, "MuState")
      .def(nb::new_([](int players, int target) { return State(config(players, target)); }), nb::arg("players"),
           nb::arg("target"))
      // the view of `player` (None: a spectator)
      .def("table_view", &table_view, nb::arg("player").none())
      .def("chance_outcomes", &chance_outcomes)
      // the outcomes' running sums, added as sample_chance adds game.py's probabilities (the same floats, so
      // that a seeded draw gives the same card on both engines)
      .def("chance_cumulative",
           [](const State &s) -> std::optional<std::pair<std::vector<int>, std::vector<double>>> {
             if (!s.chance()) return std::nullopt;
             std::pair<std::vector<int>, std::vector<double>> out;
             double total = 0;
             for (const auto &[action, p] : chance_outcomes(s)) {
               out.first.push_back(action);
               total += p;
               out.second.push_back(total);
             }
             return out;
           })
      // the seat the next dealt card goes to (dealing starts left of the dealer); None when not dealing
      .def("next_receiver",
           [](const State &s) -> std::optional<int> {
             if (s.phase != mu::kDealPhase) return std::nullopt;
             return (s.dealer + 1 + s.dealt) % s.players();
           })
      .def("phase", [](const State &s) { return static_cast<int>(s.phase); })
      .def("hands_done", [](const State &s) { return s.hands_done; })
      // this hand's actions so far, and its deal (the colours removed come first, then the cards dealt in order):
      // what a determinization's history is rebuilt from
      .def("hand_steps", [](const State &s) { return s.hand_steps; })
      .def("deal_kinds", [](const State &s) { return std::vector<int>(s.deal_kinds, s.deal_kinds + s.dealt); });
  m.def(
      "mu_simulate",
      [](int players, int target, int n, const std::vector<double> &eps, uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players, target), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("target"), nb::arg("n"), nb::arg("eps"), nb::arg("seed"),
      nb::arg("max_steps") = 100000);
}
