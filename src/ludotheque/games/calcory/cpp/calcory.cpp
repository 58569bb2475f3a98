// Calcory's Python face: its configuration, its view (the same JSON as view.py's table_view), the deck left
// (its chance is weighted), the hidden cards a determinization redrew, and its batch.
#include "calcory.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <utility>

#include "ludo/binding.hpp"

namespace {

using calcory::State;

const char *const kOutcomes[] = {"bust", "13", "mark", "beat", "fail", "stuck", "pass", "collect"};
const char *const kPhases[] = {"flip", "put_back", "pass", "over"};

nb::str cell_name(int cell) {
  const char row = static_cast<char>('A' + cell / 10);
  return nb::str((std::string(1, row) + std::to_string(cell % 10 + 1)).c_str());
}

nb::list cell_value(int cell, int value) {
  nb::list pair;
  pair.append(cell_name(cell));
  pair.append(value);
  return pair;
}

nb::dict table_view(const State &s, std::optional<int> player) {
  if (player && (*player < 0 || *player >= s.players())) throw std::invalid_argument("seat out of range");
  nb::dict data;
  data["dealt"] = s.dealt;
  data["turn"] = s.turn;
  data["phase"] = kPhases[s.phase];
  // a face-up or marked card shows its value; a face-down one only "down"; an empty cell (or one not dealt yet)
  // nothing (calcory-5)
  nb::list cells;
  for (int c = 0; c < calcory::kCells; ++c) {
    if (s.status[c] >= calcory::kUp)
      cells.append(static_cast<int>(s.card[c]));
    else if (s.status[c] == calcory::kDown)
      cells.append("down");
    else
      cells.append(nb::none());
  }
  data["cells"] = cells;
  nb::list flipped;
  for (int i = 0; i < s.nflipped; ++i) flipped.append(cell_value(s.flipped[i], s.card[s.flipped[i]]));
  data["flipped"] = flipped;
  data["sum"] = s.total;
  data["zeros"] = s.zeros;
  if (s.marked_owner >= 0) {
    nb::dict marked;
    nb::list names;
    int sum = 0;
    for (int i = 0; i < s.nmarked; ++i) {
      names.append(cell_name(s.marked[i]));
      sum += s.card[s.marked[i]];
    }
    marked["seat"] = s.marked_owner;
    marked["cells"] = names;
    marked["sum"] = sum;
    marked["count"] = s.nmarked;
    data["marked"] = marked;
  } else {
    data["marked"] = nb::none();
  }
  int8_t held[calcory::kMaxFlips];
  std::copy(s.holding, s.holding + s.nholding, held);
  std::sort(held, held + s.nholding);
  nb::list holding;
  for (int i = 0; i < s.nholding; ++i) holding.append(static_cast<int>(held[i]));
  data["holding"] = holding;
  data["collecting"] = s.collecting;
  nb::list markers, piles, won;
  for (int seat = 0; seat < s.players(); ++seat) {
    markers.append(s.markers[seat]);
    nb::list pile;
    for (int i = 0; i < s.pile_len[seat]; ++i) pile.append(static_cast<int>(s.piles[seat][i]));
    piles.append(pile);
    won.append(s.pile_len[seat]);
  }
  data["markers"] = markers;
  data["piles"] = piles;
  data["cards_won"] = won;
  nb::list turns, seats, kinds, names, values;
  nb::str flip("flip"), back("back");
  for (const calcory::Reveal &r : s.log) {
    turns.append(r.turn);
    seats.append(static_cast<int>(r.seat));
    kinds.append(r.kind ? back : flip);
    names.append(cell_name(r.cell));
    values.append(static_cast<int>(r.value));
  }
  nb::dict log;
  log["turn"] = turns;
  log["seat"] = seats;
  log["kind"] = kinds;
  log["cell"] = names;
  log["value"] = values;
  data["log"] = log;
  if (s.last_turn.present) {
    const calcory::LastTurn &t = s.last_turn;
    nb::dict summary;
    summary["turn"] = t.turn;
    summary["seat"] = static_cast<int>(t.seat);
    nb::list flips;
    for (int i = 0; i < t.nflips; ++i) flips.append(cell_value(t.flips[i][0], t.flips[i][1]));
    summary["flips"] = flips;
    summary["outcome"] = kOutcomes[t.outcome];
    if (t.back_cell >= 0) {
      summary["back"] = cell_value(t.back_cell, t.back_value);
      summary["kept"] = static_cast<int>(t.kept);
    }
    if (t.beaten >= 0) summary["beaten"] = static_cast<int>(t.beaten);
    data["last_turn"] = summary;
  } else {
    data["last_turn"] = nb::none();
  }
  if (s.ending.present) {
    nb::dict ending;
    ending["turn"] = s.ending.turn;
    ending["seat"] = static_cast<int>(s.ending.seat);
    ending["cell"] = cell_name(s.ending.cell);
    ending["value"] = static_cast<int>(s.ending.value);
    data["ending"] = ending;
  } else {
    data["ending"] = nb::none();
  }
  return data;
}

int config(int players) {
  if (players < 2 || players > calcory::kMaxSeats) throw std::invalid_argument("calcory is played by 2 to 4");
  return players;
}

}  // namespace

void bind_calcory(nb::module_ &m) {
  ludo::bind_state<State>(m, "CalcoryState")
      .def(nb::new_([](int players) { return State(config(players)); }), nb::arg("players"))
      .def("table_view", &table_view, nb::arg("player").none())
      // the cards of each value not dealt yet: chance deals value v with probability to_deal[v] / left
      .def("to_deal", [](const State &s) { return std::vector<int>(s.to_deal, s.to_deal + calcory::kValues); })
      .def("dealt", [](const State &s) { return s.dealt; })
      // the outcomes and their cumulative probabilities, summed as game.py's _chance_cumulative sums them (one
      // call a deal: the researcher's loop draws 60 of them a game); None off a chance node
      .def("chance_cumulative",
           [](const State &s) -> std::optional<std::pair<std::vector<int>, std::vector<double>>> {
             if (!s.chance()) return std::nullopt;
             const double left = calcory::kCells - s.dealt;
             std::pair<std::vector<int>, std::vector<double>> out;
             double sum = 0.0;
             for (int v = 0; v < calcory::kValues; ++v)
               if (s.to_deal[v]) {
                 out.first.push_back(v);
                 out.second.push_back(sum += s.to_deal[v] / left);
               }
             return out;
           })
      // (cell, value) of every never-seen face-down card: what a determinization redrew (cell c was dealt by
      // the history's entry c)
      .def("hidden_cards",
           [](const State &s) {
             std::vector<std::pair<int, int>> out;
             for (int c = 0; c < s.dealt; ++c)
               if (s.status[c] == calcory::kDown && !s.seen[c]) out.emplace_back(c, s.card[c]);
             return out;
           })
      // the heuristic with its random choices made deterministic (the first candidate): the tests compare it
      // with the Python heuristic given the same rule
      .def("heuristic_first", [](const State &s, int seat) {
        ludo::check_seat(s, seat);
        int legal[State::kMaxActions];
        if (s.terminal() || s.chance() || !s.legal(seat, legal)) throw std::invalid_argument("no decision here");
        return s.heuristic_with(seat, [](const int *xs, int) { return xs[0]; });
      });
  m.def(
      "calcory_simulate",
      [](int players, int n, const std::vector<double> &eps, uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("n"), nb::arg("eps"), nb::arg("seed"), nb::arg("max_steps") = 100000);
}
