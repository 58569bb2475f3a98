// Cheese Rescue's Python face: its configuration, its view (the same JSON as view.py's table_view), its chance
// probabilities (not uniform: an animal comes with probability copies left / cards left), the hands a
// determinization dealt, the heuristic's tied best moves, and its batch.
#include "cheese.hpp"

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ludo/binding.hpp"

namespace {

using cheese::State;

nb::list ints(const int8_t *values, int count) {
  nb::list out;
  for (int i = 0; i < count; ++i) out.append(static_cast<int>(values[i]));
  return out;
}

nb::dict table_view(const State &s, std::optional<int> player) {
  const int n = s.players();
  if (player) ludo::check_seat(s, *player);
  const bool over = s.terminal();
  // unseen: the pile plus the animals in the hands of the other seats (public counts, view.py)
  int unseen[cheese::kAnimals];
  for (int a = 0; a < cheese::kAnimals; ++a) {
    unseen[a] = s.pile[a];
    for (int seat = 0; seat < n; ++seat)
      if (!player || seat != *player) unseen[a] += s.hands[seat][a];
  }
  nb::list hands;
  for (int seat = 0; seat < n; ++seat) {
    nb::dict hand;
    nb::list cheeses;
    for (int k = cheese::kCheese1; k <= cheese::kCheese3; ++k)
      for (int c = 0; c < s.hands[seat][k]; ++c) cheeses.append(cheese::value_of(k));
    hand["cheeses"] = cheeses;
    hand["animals"] = s.hands[seat][cheese::kDog] + s.hands[seat][cheese::kCat] + s.hands[seat][cheese::kMouse];
    hands.append(hand);
  }
  nb::dict data;
  data["side"] = s.side;
  data["frame"] = s.frame;
  data["start"] = cheese::has_start_card(n) ? nb::object(nb::int_(s.centre)) : nb::none();
  nb::list placed;
  for (int i = 0; i < s.norder; ++i) {
    nb::list entry;
    for (int f = 0; f < 3; ++f) entry.append(static_cast<int>(s.order[i][f]));
    placed.append(entry);
  }
  data["placed"] = placed;
  nb::list legal_cells;
  if (!over) {
    int cells[cheese::kMaxCells];
    const int k = s.legal_cells(cells);
    for (int i = 0; i < k; ++i) legal_cells.append(cells[i]);
  }
  data["legal_cells"] = legal_cells;
  data["turn"] = over ? nb::none() : nb::object(nb::int_(s.turn));
  data["drawing"] = s.chance() ? nb::object(nb::int_(static_cast<int>(s.queue[s.queue_pos]))) : nb::none();
  data["placed_count"] = ints(s.placed, n);
  data["pile"] = s.pile_total;
  nb::list unseen_list;
  for (int a = 0; a < cheese::kAnimals; ++a) unseen_list.append(unseen[a]);
  data["unseen"] = unseen_list;
  data["hands"] = hands;
  if (player) data["hand"] = ints(s.hands[*player], cheese::kKinds);
  if (over) {
    int8_t removed[cheese::kMaxCells];
    cheese::cascade(s.cells, s.frame, removed);
    nb::list steps[3];
    for (int c = 0; c < s.size; ++c)
      if (removed[c]) steps[removed[c] - 1].append(c);
    nb::dict gone;
    gone["cats"] = steps[0];
    gone["mice"] = steps[1];
    gone["cheeses"] = steps[2];
    data["removed"] = gone;
    nb::list points, cards;
    for (int seat = 0; seat < n; ++seat) {
      points.append(s.points[seat]);
      cards.append(s.cheese_cards[seat]);
    }
    data["points"] = points;
    data["cheese_cards"] = cards;
  }
  return data;
}

cheese::Config config(int players) {
  if (players < 2 || players > cheese::kMaxSeats) throw std::invalid_argument("cheese is played by 2 to 4");
  return {players};
}

std::vector<int> best_moves(const State &s, int seat) {
  ludo::check_seat(s, seat);
  int legal[State::kMaxActions];
  if (s.terminal() || s.chance() || !s.legal(seat, legal)) throw std::invalid_argument("no decision here");
  int best[State::kMaxActions];
  const int k = s.heuristic_best(seat, best);
  return std::vector<int>(best, best + k);
}

}  // namespace

void bind_cheese(nb::module_ &m) {
  ludo::bind_state<State>(m, "CheeseState")
      .def(nb::new_([](int players) { return State(config(players)); }), nb::arg("players"))
      // the view of `player` (None: a spectator)
      .def("table_view", &table_view, nb::arg("player").none())
      // chance is not uniform (an animal comes with probability copies left / cards left, cheese-1): game.py's
      // outcomes and probabilities, and their running sums as sample_chance adds them (the same floats, so that a
      // seeded sample_chance draws the same animal on both engines)
      .def("chance_outcomes",
           [](const State &s) {
             std::vector<std::pair<int, double>> out;
             if (!s.chance()) return out;
             const double total = s.pile_total;
             for (int a = 0; a < cheese::kAnimals; ++a)
               if (s.pile[a]) out.emplace_back(a, s.pile[a] / total);
             return out;
           })
      .def("chance_cumulative",
           [](const State &s) -> std::optional<std::pair<std::vector<int>, std::vector<double>>> {
             if (!s.chance()) return std::nullopt;
             std::pair<std::vector<int>, std::vector<double>> out;
             const double total = s.pile_total;
             double sum = 0;
             for (int a = 0; a < cheese::kAnimals; ++a)
               if (s.pile[a]) {
                 out.first.push_back(a);
                 sum += s.pile[a] / total;
                 out.second.push_back(sum);
               }
             return out;
           })
      // every seat's hand, counts per kind (a determinization's history is rebuilt from the other seats')
      .def("hands",
           [](const State &s) {
             std::vector<std::vector<int>> out(s.players());
             for (int seat = 0; seat < s.players(); ++seat) out[seat].assign(s.hands[seat], s.hands[seat] + cheese::kKinds);
             return out;
           })
      // the heuristic's best moves, tied within 1e-9, in legal order: heuristics.py draws one of them
      .def("heuristic_best", &best_moves, nb::arg("seat"));
  m.def(
      "cheese_simulate",
      [](int players, int n, const std::vector<double> &eps, uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("n"), nb::arg("eps"), nb::arg("seed"), nb::arg("max_steps") = 100000);
}
