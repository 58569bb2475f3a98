// Rummü's Python face: its configuration, the chance probabilities as game.py gives them, what the Python wrapper
// needs to write chance's moves and to rebuild a determinization's history, and its batch.
#include "rummu.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ludo/binding.hpp"

namespace {

using rummu::State;

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

}  // namespace

void bind_rummu(nb::module_ &m) {
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
