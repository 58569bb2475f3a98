// Geier's Python face: its configuration, its view (the same JSON as view.py's table_view) and its batch.
#include "geier.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "ludo/binding.hpp"

namespace {

using geier::State;

nb::list ints(const int8_t *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(static_cast<int>(values[i]));
  return out;
}

nb::list cards(uint32_t mask) {  // the cards of a hand bitmask (bit c for card c), ascending
  nb::list out;
  for (; mask; mask &= mask - 1) out.append(__builtin_ctz(mask));
  return out;
}

nb::dict table_view(const State &s, std::optional<int> player) {
  const int n = s.players();
  nb::dict data;
  data["round"] = s.nrounds + (s.awaiting_card ? 0 : 1);
  int pot_sum = 0;
  for (int i = 0; i < s.pot_len; ++i) pot_sum += s.pot[i];
  data["pot"] = ints(s.pot, s.pot_len);
  data["pot_sum"] = pot_sum;
  nb::list points, won, unrevealed, chosen, rounds;
  for (int seat = 0; seat < n; ++seat) {
    points.append(s.points[seat]);
    won.append(ints(s.won[seat], s.won_len[seat]));
    const uint32_t face_down = s.chosen[seat] ? 1u << s.chosen[seat] : 0u;
    unrevealed.append(cards(s.hands[seat] | face_down));  // a face-down card counts with its seat's hand
    chosen.append(s.chosen[seat] != 0);
  }
  data["points"] = points;
  data["won"] = won;
  nb::list to_come;
  for (uint32_t m = s.deck; m; m &= m - 1) to_come.append(geier::kPointCards[__builtin_ctz(m)]);
  data["points_to_come"] = to_come;
  data["unrevealed"] = unrevealed;
  data["chosen"] = chosen;
  for (int r = 0; r < s.nrounds; ++r) {
    const geier::Round &round = s.rounds[r];
    nb::dict record;
    record["pot"] = ints(round.pot, round.pot_len);
    record["played"] = ints(round.played, n);
    record["taker"] = round.taker < 0 ? nb::none() : nb::int_(static_cast<int>(round.taker));
    rounds.append(record);
  }
  data["rounds"] = rounds;
  data["lost"] = ints(s.lost, s.lost_len);
  if (player) {
    data["hand"] = cards(s.hands[*player]);
    data["my_choice"] = s.chosen[*player] ? nb::int_(static_cast<int>(s.chosen[*player])) : nb::none();
  }
  return data;
}

geier::Config config(int players, const std::string &tie_rule, const std::string &final_tie, double spread) {
  if (players < 2 || players > geier::kMaxSeats) throw std::invalid_argument("geier is played by 2 to 5");
  if (tie_rule != "cascade" && tie_rule != "single") throw std::invalid_argument("unknown tie_rule");
  if (final_tie != "next-best" && final_tie != "highest-mouse") throw std::invalid_argument("unknown final_tie");
  if (!(spread >= 0)) throw std::invalid_argument("the spread is a number of cards >= 0");
  return {players, tie_rule == "single" ? 1 : 0, final_tie == "highest-mouse" ? 1 : 0, spread};
}

}  // namespace

void bind_geier(nb::module_ &m) {
  ludo::bind_state<State>(m, "GeierState")
      .def(nb::new_([](int players, const std::string &tie_rule, const std::string &final_tie, double spread) {
             return State(config(players, tie_rule, final_tie, spread));
           }),
           nb::arg("players"), nb::arg("tie_rule"), nb::arg("final_tie"), nb::arg("spread") = 0.0)
      .def("table_view", &table_view, nb::arg("player").none())
      // a copy whose heuristic draws its bid around the pot's rank, `spread` cards wide (heuristics.py)
      .def("with_spread",
           [](const State &s, double spread) {
             if (!(spread >= 0) || std::isinf(spread)) throw std::invalid_argument("the spread is a number >= 0");
             State twin = s;
             twin.config.spread = spread;
             return twin;
           })
      // a copy where `seat`'s face-down card is `card` instead (from its hand or the card it had put down): a
      // determinization drawn on the Python side, as the reference draws it
      .def("with_face_down",
           [](const State &s, int seat, int card) {
             ludo::check_seat(s, seat);
             if (!s.chosen[seat]) throw std::invalid_argument("the seat has no card face down");
             const uint32_t hand = s.hands[seat] | (1u << s.chosen[seat]);
             if (card < 1 || card > 15 || !(hand >> card & 1)) throw std::invalid_argument("not a card of the seat");
             State twin = s;
             twin.hands[seat] = static_cast<uint16_t>(hand & ~(1u << card));
             twin.chosen[seat] = static_cast<int8_t>(card);
             return twin;
           })
      // this round's face-down cards, 0 where a seat has not chosen (the Python wrapper's history after resample)
      .def("pending", [](const State &s) { return std::vector<int>(s.chosen, s.chosen + s.players()); });
  m.def(
      "geier_simulate",
      [](int players, const std::string &tie_rule, const std::string &final_tie, double spread, int n,
         const std::vector<double> &eps, uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players, tie_rule, final_tie, spread), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("tie_rule"), nb::arg("final_tie"), nb::arg("spread"), nb::arg("n"), nb::arg("eps"),
      nb::arg("seed"), nb::arg("max_steps") = 100000);
}
