// MICE's Python face: its configuration, its view (the same JSON as view.py's table_view, the turn logs written as
// game.py writes them), what the notation needs (the next die, a cage's top card) and its batch.
#include "mice.hpp"

#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "ludo/binding.hpp"

namespace {

using mice::State;

const char *const kSlotNames[5] = {"R1", "R2", "Y1", "Y2", "Y3"};
const char *const kPhases[6] = {"roll", "select", "adjust", "fail", "pay", "over"};
// mice-8, the seed's table, best first
const char *const kRatings[7] = {
    "Génial !", "Formidable.", "Très bien.", "Bien joué.", "Pas mal.", "Peut mieux faire !",
    "Dommage, essaye encore !",
};

// notation.format_action
std::string format_action(int action, int cage_top) {
  using namespace mice;
  if (action < kFail) {
    std::string out = "use R";
    for (int k = 0; k < 3; ++k)
      if ((action - kUse) >> k & 1) out += "+Y" + std::to_string(k + 1);
    return out;
  }
  if (action == kFail) return "fail";
  if (action < kCage) {
    const int slot = (action - kAdjust) / 2, down = (action - kAdjust) % 2;
    return std::string(kSlotNames[slot]) + (down ? "-1" : "+1");
  }
  if (action < kFlip) return "cage " + std::to_string(action - kCage + 1);
  if (action < kTakeBack) return "flip " + std::to_string(kDiceCards[action - kFlip]);
  if (action == kTakeBack) return cage_top ? "take back " + std::to_string(cage_top) : "take back";
  if (action < kPass) return "unflip " + std::to_string(kDiceCards[action - kUnflip]);
  if (action == kPass) return "pass";
  return "pay";
}

// one line of game.py's turn log
std::string log_line(uint64_t word) {
  const auto kind = static_cast<mice::LogKind>(word & 15);
  const std::string seat = "seat " + std::to_string((word >> 4) & 15);
  const uint64_t payload = word >> 8;
  switch (kind) {
    case mice::kLogRoll: {
      std::string out = seat + " rolls";
      const int count = static_cast<int>(payload & 7);
      for (int i = 0; i < count; ++i) {
        const uint64_t die = payload >> (3 + 6 * i) & 63;
        const int slot = static_cast<int>(die >> 3), face = static_cast<int>(die & 7);
        out += std::string(" ") + (slot < 2 ? "R" : "Y") + std::to_string(face + 1);
      }
      return out;
    }
    case mice::kLogForcedFail:
      return seat + " fails: no sum reaches a card";
    case mice::kLogNothing:
      return seat + " has nothing to take back or turn up";
    case mice::kLogAction:
      return seat + ": " + format_action(static_cast<int>(payload & 255), static_cast<int>(payload >> 8 & 255));
    case mice::kLogReceive:
      return seat + " receives a nut from " +
             (payload == 15 ? std::string("the supply") : "seat " + std::to_string(payload));
    case mice::kLogBonus:
      return seat + " takes a nut from the middle (unused yellow dice sum to 15 or more)";
    case mice::kLogOverSolo:
      return std::string("game over: ") + kRatings[payload];
    case mice::kLogOverMulti: {
      std::string names;
      for (int s = 0; s < mice::kMaxSeats; ++s)
        if (payload >> s & 1) names += (names.empty() ? "" : ", ") + std::to_string(s);
      return "game over: seat(s) " + names + " win";
    }
  }
  return "";
}

nb::list log_lines(const State &s, int which) {
  nb::list out;
  for (int i = 0; i < s.log_len[which]; ++i) out.append(log_line(s.log[which][i]));
  return out;
}

nb::list slot_names(int mask) {
  nb::list out;
  for (int slot = 0; slot < 5; ++slot)
    if (mask >> slot & 1) out.append(kSlotNames[slot]);
  return out;
}

// The view's keys, made once (a view is built at every step of an adapter's game); never freed, so that nothing
// is released after the interpreter is gone.
struct Keys {
  nb::str active{"active"};
  nb::str active_used{"active_used"};
  nb::str actor{"actor"};
  nb::str cage{"cage"};
  nb::str dice{"dice"};
  nb::str die{"die"};
  nb::str face_down{"face_down"};
  nb::str face_up{"face_up"};
  nb::str failed{"failed"};
  nb::str hand{"hand"};
  nb::str hand_total{"hand_total"};
  nb::str last_turn{"last_turn"};
  nb::str nuts{"nuts"};
  nb::str phase{"phase"};
  nb::str pool{"pool"};
  nb::str pool_sum{"pool_sum"};
  nb::str rating{"rating"};
  nb::str red_dice{"red_dice"};
  nb::str seats{"seats"};
  nb::str second_card{"second_card"};
  nb::str solo{"solo"};
  nb::str sum{"sum"};
  nb::str supply{"supply"};
  nb::str this_turn{"this_turn"};
  nb::str turn{"turn"};
  nb::str using_{"using"};
  nb::str value{"value"};
  nb::str yellow_dice{"yellow_dice"};
};

const Keys &keys() {
  static const Keys *made = new Keys();
  return *made;
}

// view.table_view: the same table for every seat and the spectator (mice-1)
nb::dict table_view(const State &s, std::optional<int>) {
  const Keys &k = keys();
  nb::list seats;
  for (int seat = 0; seat < s.players(); ++seat) {
    nb::dict info;
    nb::list hand, cage, face_up, face_down;
    for (int c = 1; c <= 18; ++c)
      if (s.hands[seat] >> c & 1) hand.append(c);
    for (int i = 0; i < s.cage_len[seat]; ++i) cage.append(static_cast<int>(s.cages[seat][i]));
    for (int i = 0; i < 4; ++i) (s.face_up[seat] >> i & 1 ? face_up : face_down).append(mice::kDiceCards[i]);
    int red, yellow;
    mice::dice_counts(s.face_up[seat], red, yellow);
    info[k.hand] = hand;
    info[k.hand_total] = mice::hand_total(s.hands[seat]);
    info[k.cage] = cage;
    info[k.face_up] = face_up;
    info[k.face_down] = face_down;
    info[k.nuts] = static_cast<int>(s.nuts[seat]);
    info[k.red_dice] = red;
    info[k.yellow_dice] = yellow;
    seats.append(info);
  }
  const int using_mask = s.phase == mice::kAdjusting ? s.used : 0;
  nb::list dice;
  for (int i = 0; i < s.rolled_len; ++i) {
    const int slot = s.rolled[i];
    nb::dict die;
    die[k.die] = kSlotNames[slot];
    die[k.value] = s.dice[slot] ? nb::object(nb::int_(static_cast<int>(s.dice[slot]))) : nb::none();
    die[k.active_used] = static_cast<bool>(s.active_used >> slot & 1);
    die[k.pool] = static_cast<bool>(s.pool >> slot & 1);
    die[k.using_] = static_cast<bool>(using_mask >> slot & 1);
    dice.append(die);
  }
  nb::dict data;
  data[k.solo] = s.solo();
  data[k.turn] = static_cast<int>(s.turn);
  data[k.active] = static_cast<int>(s.active);
  data[k.phase] = kPhases[s.phase];
  data[k.actor] = s.phase != mice::kRoll && s.phase != mice::kOver ? nb::object(nb::int_(static_cast<int>(s.actor)))
                                                                   : nb::none();
  data[k.supply] = static_cast<int>(s.supply);
  data[k.seats] = seats;
  data[k.dice] = dice;
  data[k.using_] = slot_names(using_mask);
  data[k.sum] = using_mask ? nb::object(nb::int_(s.total(using_mask))) : nb::none();
  data[k.pool] = slot_names(s.pool);
  data[k.pool_sum] = s.pool ? s.total(s.pool) : 0;
  data[k.failed] = s.failed;
  data[k.second_card] = s.second;
  data[k.this_turn] = log_lines(s, s.current_log);
  data[k.last_turn] = log_lines(s, s.current_log ^ 1);
  data[k.rating] = s.solo() && s.phase == mice::kOver
                       ? nb::object(nb::str(kRatings[mice::solo_rank(s.hands[0], s.face_up[0])]))
                       : nb::none();
  return data;
}

mice::Config config(int players, const std::string &level) {
  if (players < 1 || players > mice::kMaxSeats) throw std::invalid_argument("mice is played by 1 to 5");
  int index;
  if (level == "normal")
    index = 0;
  else if (level == "advanced")
    index = 1;
  else if (level == "hardest")
    index = 2;
  else
    throw std::invalid_argument("unknown level");
  if (players > 1 && index != 0) throw std::invalid_argument("the level is for the solo game");
  return {players, index};
}

}  // namespace

void bind_mice(nb::module_ &m) {
  // build the heuristic's tables at import, not inside a timed search
  (void)mice::ChanceTables::get();
  ludo::bind_state<State>(m, "MiceState")
      .def(nb::new_([](int players, const std::string &level) { return State(config(players, level)); }),
           nb::arg("players"), nb::arg("level") = "normal")
      .def("table_view", &table_view, nb::arg("player").none())
      // the slot the next die is rolled into (0 when no die is being rolled: game.py's _next_colour reads "R")
      .def("next_slot",
           [](const State &s) {
             return s.phase == mice::kRoll && s.roll_index < s.rolled_len ? static_cast<int>(s.rolled[s.roll_index])
                                                                          : 0;
           })
      // the top card of a seat's cage, or None (the card `take back` names)
      .def("cage_top", [](const State &s, int seat) -> std::optional<int> {
        ludo::check_seat(s, seat);
        if (!s.cage_len[seat]) return std::nullopt;
        return static_cast<int>(s.cages[seat][s.cage_len[seat] - 1]);
      });
  m.def(
      "mice_simulate",
      [](int players, const std::string &level, int n, const std::vector<double> &eps, uint64_t seed, int max_steps) {
        return ludo::simulate<State>(config(players, level), n, eps, seed, max_steps);
      },
      nb::arg("players"), nb::arg("level"), nb::arg("n"), nb::arg("eps"), nb::arg("seed"),
      nb::arg("max_steps") = 100000);
}
