// MICE to meet you, compiled: the same rules as game.py (DECISIONS mice-1..8, the solo game included), held to it
// by tests/native/test_native_mice.py.  Actions are notation.py's: use 0..7 (+ yellow mask), fail 8, adjust 9..18
// (+ slot * 2 + down), cage 19..36 (+ card - 1), flip 37..40, take back 41, unflip 42..45, pass 46, pay 47; chance
// action f is a die showing f + 1, rolled into the next slot of the turn (reds first).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "ludo/engine.hpp"

namespace mice {

constexpr int kUse = 0, kFail = 8, kAdjust = 9, kCage = 19, kFlip = 37, kTakeBack = 41, kUnflip = 42, kPass = 46,
              kPay = 47, kNumActions = 48;
constexpr int kMaxSeats = 5;
// mice-1: mouse cards 1..18 (bit c for card c); dice cards 6, 9, 12, 15 (bit i for kDiceCards[i])
constexpr uint32_t kFullHand = 0x7FFFEu;
constexpr int kDiceCards[4] = {6, 9, 12, 15};
constexpr int kAllFaceUp = 0b1111;
constexpr int kSixBit = 1;
constexpr int kYellowMask = 0b11100;  // dice slots: 0-1 red, 2-4 yellow
constexpr int kNutsPerPlayer = 3;     // mice-3
// mice-8: (nuts in the player's reserve, nuts in the middle) by level: normal, advanced, hardest
constexpr int kSoloNuts[3][2] = {{3, 0}, {2, 1}, {0, 3}};
constexpr int kSoloWinRank = 3;  // "Bien joué." or better

enum Phase : int8_t { kRoll, kSelect, kAdjusting, kFailed, kPaying, kOver };

inline int dice_index(int value) {
  switch (value) {
    case 6: return 0;
    case 9: return 1;
    case 12: return 2;
    case 15: return 3;
    default: return -1;
  }
}

// mice-2: what a face-down dice card takes away (15: a red; 12, 9: a yellow; 6: one of each)
inline void dice_counts(int face_up, int &red, int &yellow) {
  red = 2;
  yellow = 3;
  if (!(face_up & 1)) --red, --yellow;
  if (!(face_up & 2)) --yellow;
  if (!(face_up & 4)) --yellow;
  if (!(face_up & 8)) --red;
}

// mice-2: a face-up dice card may be turned face down; the 6 only as the last face-up one
inline bool can_flip(int face_up, int index) {
  if (!(face_up >> index & 1)) return false;
  return index != 0 || face_up == kSixBit;
}

// the flippable dice card values of a face-up mask, as a mask of values (rules.FLIPPABLE)
inline uint32_t flippable(int face_up) {
  uint32_t out = 0;
  for (int i = 0; i < 4; ++i)
    if (can_flip(face_up, i)) out |= 1u << kDiceCards[i];
  return out;
}

// rules.reachable_total: the sums `count` >= 1 dice showing `total` reach with `nuts` changes of one meet `targets`
inline bool reachable(int total, int count, int nuts, uint32_t targets) {
  const int low = total - std::min(nuts, total - count);
  const int high = total + std::min(nuts, 6 * count - total);
  if (high < low) return false;
  const uint64_t window = ((uint64_t{1} << (high - low + 1)) - 1) << low;
  return (targets & window) != 0;
}

inline int hand_total(uint32_t hand) {
  int total = 0;
  for (uint32_t m = hand; m; m &= m - 1) total += __builtin_ctz(m);
  return total;
}

// mice-8: index into the ratings (0 best)
inline int solo_rank(uint32_t hand, int face_up) {
  const int left = ludo::popcount(hand);
  if (left == 0) return std::min(4 - ludo::popcount(face_up), 3);
  return std::min(3 + left, 6);
}

// The log of a turn (view.py's this_turn / last_turn), one word a line: the kind in the low 4 bits, the seat in
// the next 4, what the kind needs above.  The text is written by the binding.
enum LogKind : uint64_t { kLogRoll, kLogForcedFail, kLogNothing, kLogAction, kLogReceive, kLogBonus, kLogOverSolo,
                          kLogOverMulti };
constexpr uint64_t log_word(LogKind kind, int seat, uint64_t payload = 0) {
  return static_cast<uint64_t>(kind) | static_cast<uint64_t>(seat) << 4 | payload << 8;
}

struct Config {
  int players = 2;
  int level = 0;  // mice-8: 0 normal, 1 advanced, 2 hardest (solo only)
};

struct State {
  static constexpr int kMaxActions = kNumActions;
  // a turn logs at most: its roll, the use or failure, a forced failure and nothing to undo, one line a nut spent
  // (at most every nut of the game: the active seat cannot spend the nuts it receives this turn), its card, and
  // per passive seat a payment, the nut received and a card or a pass, the solo bonus and the game's end
  static constexpr int kLogSize = 48;

  Config config;
  uint32_t hands[kMaxSeats];
  int8_t cages[kMaxSeats][18];  // open piles, top card last
  int8_t cage_len[kMaxSeats];
  uint8_t face_up[kMaxSeats];
  int16_t nuts[kMaxSeats];
  int16_t supply;  // solo: the middle of the table (mice-8)
  int8_t active = 0;
  int16_t turn = 0;
  int8_t phase = kRoll;
  int8_t actor = 0;
  int8_t dice[5];  // slot values this turn (0: not rolled)
  int8_t rolled[5];
  int8_t rolled_len = 0;
  int8_t roll_index = 0;
  uint8_t rolled_mask = 0;
  uint8_t used = 0, active_used = 0, pool = 0;
  bool failed = false, second = false;
  int8_t queue[kMaxSeats];
  int8_t queue_pos = 0, queue_len = 0;
  uint64_t log[2][kLogSize];
  int8_t log_len[2] = {0, 0};
  int8_t current_log = 0;  // log[current_log] is this turn's, the other the last turn's

  explicit State(const Config &c) : config(c) {
    const int n = c.players;
    for (int s = 0; s < kMaxSeats; ++s) {
      hands[s] = kFullHand;
      cage_len[s] = 0;
      face_up[s] = kAllFaceUp;
      nuts[s] = 0;
    }
    if (n == 1) {
      nuts[0] = static_cast<int16_t>(kSoloNuts[c.level][0]);
      supply = static_cast<int16_t>(kSoloNuts[c.level][1]);
    } else {
      supply = static_cast<int16_t>(kNutsPerPlayer * n);  // mice-3
    }
    start_turn();  // all-2: seat 0 starts
  }

  bool solo() const { return config.players == 1; }
  int players() const { return config.players; }
  // multiplayer: the lowest hand total wins (mice-7); solo: the higher rank the better (mice-8)
  int score_sign() const { return solo() ? 1 : -1; }
  bool terminal() const { return phase == kOver; }
  bool chance() const { return phase == kRoll; }

  int chance_outcomes(int *out) const {
    for (int f = 0; f < 6; ++f) out[f] = f;
    return 6;
  }
  int sample_chance(ludo::Rng &rng) const { return rng.below(6); }
  bool is_chance_outcome(int action) const { return chance() && action >= 0 && action < 6; }

  int actors(int *out) const {
    if (phase == kRoll || phase == kOver) return 0;
    out[0] = actor;
    return 1;
  }

  // -- turn flow (game.py) --------------------------------------------------------------------------------

  void note(uint64_t word) {
    int8_t &len = log_len[current_log];
    if (len < kLogSize) log[current_log][len++] = word;
  }

  void start_turn() {
    if (log_len[current_log]) current_log ^= 1;  // this turn's log becomes the last turn's
    log_len[current_log] = 0;
    ++turn;
    for (auto &d : dice) d = 0;
    int red, yellow;
    dice_counts(face_up[active], red, yellow);
    rolled_len = 0;
    rolled_mask = 0;
    for (int i = 0; i < red; ++i) rolled[rolled_len++] = static_cast<int8_t>(i);
    for (int i = 0; i < yellow; ++i) rolled[rolled_len++] = static_cast<int8_t>(2 + i);
    for (int i = 0; i < rolled_len; ++i) rolled_mask |= static_cast<uint8_t>(1 << rolled[i]);
    roll_index = 0;
    used = active_used = pool = 0;
    failed = second = false;
    queue_pos = queue_len = 0;
    phase = kRoll;
    actor = active;
  }

  void end() {
    phase = kOver;
    queue_pos = queue_len = 0;
    if (solo()) {
      note(log_word(kLogOverSolo, 0, static_cast<uint64_t>(solo_rank(hands[0], face_up[0]))));
    } else {
      int out[kMaxSeats];
      const int k = final_winners(out);
      uint64_t mask = 0;
      for (int i = 0; i < k; ++i) mask |= uint64_t{1} << out[i];
      note(log_word(kLogOverMulti, 0, mask));
    }
  }

  void next_turn() {
    active = static_cast<int8_t>((active + 1) % config.players);
    start_turn();
  }

  // sums that would cage a mouse card or (multiplayer) flip a dice card of `seat`
  uint32_t targets(int seat) const { return solo() ? hands[seat] : hands[seat] | flippable(face_up[seat]); }

  int total(int mask) const {
    int t = 0;
    for (int s = 0; s < 5; ++s)
      if (mask >> s & 1) t += dice[s];
    return t;
  }

  int red_mask() const { return rolled_mask & 0b11; }
  int yellow_count() const { return ludo::popcount(rolled_mask & kYellowMask); }

  // mice-4: the choices of yellow dice that, with every red die, reach a card with the active seat's nuts
  int uses(int *out) const {
    const int yellows = yellow_count();
    const int seat_nuts = nuts[active];
    const uint32_t aims = targets(active);
    const int red_total = dice[0] + dice[1], red_count = ludo::popcount(static_cast<uint32_t>(red_mask()));
    int k = 0;
    for (int m = 0; m < 1 << yellows; ++m) {
      const int count = red_count + ludo::popcount(static_cast<uint32_t>(m));
      const int sum = red_total + (m & 1 ? dice[2] : 0) + (m & 2 ? dice[3] : 0) + (m & 4 ? dice[4] : 0);
      if (count && reachable(sum, count, seat_nuts, aims)) out[k++] = kUse + m;
    }
    return k;
  }

  void enter_select() {
    phase = kSelect;
    actor = active;
    int out[8];
    if (!uses(out)) {  // a roll whose sums reach no card is a failure
      note(log_word(kLogForcedFail, active));
      fail();
    }
  }

  // mice-5 (solo: mice-8): the roll is not used
  void fail() {
    failed = true;
    active_used = 0;
    const int seat = active;
    if (solo()) {
      phase = kFailed;  // a face-up dice card is always left while the game goes on
      return;
    }
    pool = rolled_mask;  // mice-5: the passive seats may use every die
    if (cage_len[seat] || face_up[seat] != kAllFaceUp) {
      phase = kFailed;
      return;
    }
    note(log_word(kLogNothing, seat));
    start_passives();
  }

  // nuts `seat` keeps for changes after paying to use the pool, or -1 if it cannot pay (mice-6, mice-8)
  int pay_nuts_left(int seat) const {
    if (solo()) return nuts[seat] > 0 ? nuts[seat] - 1 : -1;
    if (supply > 0) return nuts[seat];
    return nuts[seat] > 0 ? nuts[seat] - 1 : -1;
  }

  bool offer(int seat) const {
    const int left = pay_nuts_left(seat);
    if (left < 0) return false;
    const int count = ludo::popcount(pool);
    return count && reachable(total(pool), count, left, targets(seat));
  }

  // mice-6: clockwise from the active seat's left
  void start_passives() {
    const int n = config.players;
    queue_pos = queue_len = 0;
    if (pool)
      for (int k = 1; k < n; ++k) queue[queue_len++] = static_cast<int8_t>((active + k) % n);
    next_passive();
  }

  void next_passive() {
    while (queue_pos < queue_len) {
      const int seat = queue[queue_pos++];
      if (offer(seat)) {
        phase = kPaying;
        actor = static_cast<int8_t>(seat);
        return;
      }
    }
    next_turn();
  }

  void after_use(int seat) {
    if (solo()) {
      if (hands[0] == 0) {  // mice-8: an empty hand ends the game
        end();
      } else if (!second) {
        pool = static_cast<uint8_t>(kYellowMask & ~used & rolled_mask);
        if (pool && offer(0)) {
          phase = kPaying;
          actor = 0;
        } else {
          solo_close();
        }
      } else {
        pool = 0;  // the second card used every remaining yellow die
        solo_close();
      }
      return;
    }
    if (seat == active) {
      pool = static_cast<uint8_t>(kYellowMask & ~used & rolled_mask);
      start_passives();
    } else {
      next_passive();
    }
  }

  // mice-8: a nut from the middle when the roll caged a card and the yellow dice left unused sum to 15 or more
  void solo_close() {
    if (total(pool) >= 15 && supply > 0) {
      --supply;
      ++nuts[0];
      note(log_word(kLogBonus, 0));
    }
    next_turn();
  }

  // -- the protocol ------------------------------------------------------------------------------------------

  int adjust_actions(int seat, int *out) const {
    const int sum = total(used), count = ludo::popcount(used);
    const uint32_t aims = targets(seat);
    const int seat_nuts = nuts[seat];
    int k = 0;
    if (seat_nuts > 0) {
      // mice-4: a change is legal if the die stays in 1..6 and a card can still be reached afterwards
      const bool up = reachable(sum + 1, count, seat_nuts - 1, aims);
      const bool down = reachable(sum - 1, count, seat_nuts - 1, aims);
      if (up || down)
        for (int slot = 0; slot < 5; ++slot) {
          if (!(used >> slot & 1)) continue;
          if (up && dice[slot] < 6) out[k++] = kAdjust + slot * 2;
          if (down && dice[slot] > 1) out[k++] = kAdjust + slot * 2 + 1;
        }
    }
    if (sum >= 1 && sum <= 18 && (hands[seat] >> sum & 1)) out[k++] = kCage + sum - 1;
    // mice-8: a solo sum never flips a dice card
    if (!solo()) {
      const int index = dice_index(sum);
      if (index >= 0 && can_flip(face_up[seat], index)) out[k++] = kFlip + index;
    }
    return k;
  }

  int legal(int seat, int *out) const {
    if (phase == kRoll || phase == kOver || seat != actor) return 0;
    switch (phase) {
      case kSelect: {
        const int k = uses(out);
        out[k] = kFail;
        return k + 1;
      }
      case kAdjusting:
        return adjust_actions(seat, out);
      case kPaying:
        out[0] = kPass;
        out[1] = kPay;
        return 2;
      case kFailed: {
        int k = 0;
        if (solo()) {  // mice-8: a failed roll flips a dice card, the 6 last
          for (int i = 0; i < 4; ++i)
            if (can_flip(face_up[seat], i)) out[k++] = kFlip + i;
          return k;
        }
        if (cage_len[seat]) out[k++] = kTakeBack;  // mice-5
        for (int i = 0; i < 4; ++i)
          if (!(face_up[seat] >> i & 1)) out[k++] = kUnflip + i;
        return k;
      }
      default:
        return 0;
    }
  }

  bool is_legal(int seat, int action) const {
    int out[kMaxActions];
    const int k = legal(seat, out);
    for (int i = 0; i < k; ++i)
      if (out[i] == action) return true;
    return false;
  }

  void apply(int who, int action) {
    if (who == ludo::kChance)
      roll(action);
    else
      decide(action, who);
  }

  void roll(int action) {
    const int slot = rolled[roll_index];
    dice[slot] = static_cast<int8_t>(action + 1);
    const uint64_t die = static_cast<uint64_t>(slot) << 3 | static_cast<uint64_t>(action);
    if (roll_index == 0) {
      note(log_word(kLogRoll, active, 1 | die << 3));
    } else {  // one log line for the whole roll: the count in 3 bits, then 6 bits a die (slot, face)
      uint64_t &word = log[current_log][log_len[current_log] - 1];
      const uint64_t payload = word >> 8;
      const uint64_t count = payload & 7;
      word = (word & 0xFF) | ((payload & ~uint64_t{7}) | (count + 1) | die << (3 + 6 * count)) << 8;
    }
    ++roll_index;
    if (roll_index == rolled_len) enter_select();
  }

  void decide(int action, int player) {
    const uint64_t top = cage_len[player] ? static_cast<uint64_t>(cages[player][cage_len[player] - 1]) : 0;
    note(log_word(kLogAction, player, static_cast<uint64_t>(action) | (action == kTakeBack ? top << 8 : 0)));
    if (action < kFail) {
      used = active_used = static_cast<uint8_t>(red_mask() | (action - kUse) << 2);
      phase = kAdjusting;
    } else if (action == kFail) {
      fail();
    } else if (action < kCage) {  // mice-4: a nut to the supply (solo: the middle) changes a die by one
      const int slot = (action - kAdjust) / 2, down = (action - kAdjust) % 2;
      dice[slot] = static_cast<int8_t>(dice[slot] + (down ? -1 : 1));
      --nuts[player];
      ++supply;
    } else if (action < kFlip) {
      const int card = action - kCage + 1;
      hands[player] &= ~(1u << card);
      cages[player][cage_len[player]++] = static_cast<int8_t>(card);
      after_use(player);
    } else if (action < kTakeBack) {
      flip(player, action - kFlip);
    } else if (action == kTakeBack) {  // mice-5
      const int card = cages[player][--cage_len[player]];
      hands[player] |= 1u << card;
      start_passives();
    } else if (action < kPass) {
      face_up[player] = static_cast<uint8_t>(face_up[player] | 1 << (action - kUnflip));
      start_passives();
    } else if (action == kPass) {
      if (solo())
        solo_close();
      else
        next_passive();
    } else {
      pay(player);
    }
  }

  void flip(int seat, int index) {
    face_up[seat] = static_cast<uint8_t>(face_up[seat] & ~(1 << index));
    if (solo()) {  // mice-8: only a failed roll flips; all four face down ends the game
      if (face_up[0] == 0)
        end();
      else
        next_turn();
    } else if (kDiceCards[index] == 6) {  // mice-7: the last dice card ends the game at once
      end();
    } else {
      after_use(seat);
    }
  }

  void pay(int seat) {
    if (solo()) {  // mice-8: a nut to the middle buys a second card with the remaining yellow dice
      --nuts[0];
      ++supply;
      second = true;
    } else {  // mice-6: the active seat gets a nut, from the supply while it has one
      uint64_t source = 15;
      if (supply > 0) {
        --supply;
      } else {
        --nuts[seat];
        source = static_cast<uint64_t>(seat);
      }
      ++nuts[active];
      note(log_word(kLogReceive, active, source));
    }
    used = pool;
    phase = kAdjusting;
    actor = static_cast<int8_t>(seat);
  }

  // mice-7: the lowest hand total, then more face-down dice cards, then more nuts; several when all tie
  int final_winners(int *out) const {
    const int n = config.players;
    int best = 0;
    auto key_less = [&](int a, int b) {
      const int ta = hand_total(hands[a]), tb = hand_total(hands[b]);
      if (ta != tb) return ta < tb;
      const int da = 4 - ludo::popcount(face_up[a]), db = 4 - ludo::popcount(face_up[b]);
      if (da != db) return da > db;
      return nuts[a] > nuts[b];
    };
    for (int s = 1; s < n; ++s)
      if (key_less(s, best)) best = s;
    int k = 0;
    for (int s = 0; s < n; ++s)
      if (!key_less(best, s)) out[k++] = s;
    return k;
  }

  void returns(double *out) const {
    if (solo()) {
      out[0] = static_cast<double>(6 - solo_rank(hands[0], face_up[0]));
      return;
    }
    for (int s = 0; s < config.players; ++s) out[s] = static_cast<double>(hand_total(hands[s]));
  }

  int winners(int *out) const {
    if (!terminal()) return 0;
    if (solo()) {
      if (solo_rank(hands[0], face_up[0]) > kSoloWinRank) return 0;
      out[0] = 0;
      return 1;
    }
    return final_winners(out);
  }

  // Everything is public (mice-1) and dice not yet rolled are chance, not state: a determinization is the state.
  void resample(int, ludo::Rng &) {}

  // The whole state is public: the key is the seat, the state and this turn's log (the view's own parts).
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(static_cast<uint64_t>(seat) | static_cast<uint64_t>(phase) << 8 | static_cast<uint64_t>(actor) << 16 |
          static_cast<uint64_t>(active) << 24 | static_cast<uint64_t>(turn) << 32 |
          static_cast<uint64_t>(static_cast<uint16_t>(supply)) << 48);
    for (int s = 0; s < config.players; ++s) {
      h.add(hands[s] | static_cast<uint64_t>(face_up[s]) << 20 | static_cast<uint64_t>(nuts[s]) << 24 |
            static_cast<uint64_t>(cage_len[s]) << 40);
      uint64_t word = 0;
      for (int i = 0; i < cage_len[s]; ++i) {
        word = word << 5 | static_cast<uint64_t>(cages[s][i]);
        if (i % 12 == 11) h.add(word), word = 0;
      }
      h.add(word);
    }
    uint64_t word = 0;
    for (int i = 0; i < 5; ++i) word = word << 4 | static_cast<uint64_t>(dice[i]);
    h.add(word | static_cast<uint64_t>(roll_index) << 20 | static_cast<uint64_t>(used) << 24 |
          static_cast<uint64_t>(active_used) << 32 | static_cast<uint64_t>(pool) << 40 |
          static_cast<uint64_t>(failed) << 48 | static_cast<uint64_t>(second) << 49 |
          static_cast<uint64_t>(rolled_mask) << 50);
    uint64_t waiting = static_cast<uint64_t>(queue_len - queue_pos);
    for (int i = queue_pos; i < queue_len; ++i) waiting = waiting << 3 | static_cast<uint64_t>(queue[i]);
    h.add(waiting);
    for (int i = 0; i < log_len[current_log]; ++i) h.add(log[current_log][i]);
    return h.h;
  }

  int heuristic(int seat, ludo::Rng &rng) const;
};

// -- the heuristic (heuristics.py, which has no random share) ----------------------------------------------------

constexpr double kNut = 1.5;       // points a nut is worth to keep (multiplayer)
constexpr double kSoloNut = 4.0;   // in card-values: a solo nut is worth keeping unless it cages a card
constexpr double kWin = 1000.0, kLose = -1000.0;
constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// The sums worth reaching and what each is worth, in the order heuristics.py's dict holds them (the first of
// equal scores wins there).
struct Worth {
  int target[24];
  double value[24];
  int size = 0;
  void set_max(int t, double v) {  // worth[t] = max(worth.get(t, v), v), keeping t's place
    for (int i = 0; i < size; ++i)
      if (target[i] == t) {
        if (v > value[i]) value[i] = v;
        return;
      }
    target[size] = t;
    value[size++] = v;
  }
};

struct Best {
  double score;
  int target;  // -1: none
};

// heuristics._best_sum: the best score reachable from `count` >= 1 dice showing `total`
inline Best best_sum(int total, int count, int nuts, const Worth &worth, double nut_cost, int skip = -1) {
  int spare = total - count;
  const int low = total - (nuts < spare ? nuts : spare);
  spare = 6 * count - total;
  const int high = total + (nuts < spare ? nuts : spare);
  Best best{kMinusInf, -1};
  for (int i = 0; i < worth.size; ++i) {
    const int t = worth.target[i];
    if (t == skip) continue;
    if (low <= t && t <= high) {
      const double score = worth.value[i] - nut_cost * (t >= total ? t - total : total - t);
      if (score > best.score) best = {score, t};
    }
  }
  return best;
}

inline Best best_of(int total, int count, int nuts, const Worth &worth, double nut_cost, int skip = -1) {
  if (!count) return {kMinusInf, -1};
  return best_sum(total, count, nuts, worth, nut_cost, skip);
}

// For each dice set (red 0..2, yellow 0..3): the chance of each sum 0..18 being showable (heuristics._card_chances)
// and how many rolls can show each set of sums (for heuristics._solo_chance), enumerated once.
struct ChanceTables {
  double cards[3][4][19];
  std::vector<std::pair<uint32_t, int>> reach[3][4];
  int outcomes[3][4];

  ChanceTables() {
    for (int red = 0; red < 3; ++red)
      for (int yellow = 0; yellow < 4; ++yellow) {
        const int dice = red + yellow;
        int total = 1;
        for (int i = 0; i < dice; ++i) total *= 6;
        int hits[19] = {0};
        std::vector<int> by_mask;
        std::vector<uint32_t> masks;
        for (int index = 0; index < total; ++index) {
          int roll[5];
          int rest = index;
          for (int i = dice - 1; i >= 0; --i) roll[i] = rest % 6 + 1, rest /= 6;
          int base = 0;
          for (int i = 0; i < red; ++i) base += roll[i];
          uint32_t sums = 0;
          for (int m = 0; m < 1 << yellow; ++m) {
            int s = base;
            for (int k = 0; k < yellow; ++k)
              if (m >> k & 1) s += roll[red + k];
            sums |= 1u << s;
          }
          for (int s = 0; s <= 18; ++s)
            if (sums >> s & 1) ++hits[s];
          size_t at = 0;
          while (at < masks.size() && masks[at] != sums) ++at;
          if (at == masks.size()) masks.push_back(sums), by_mask.push_back(0);
          ++by_mask[at];
        }
        outcomes[red][yellow] = total;
        for (int s = 0; s <= 18; ++s) cards[red][yellow][s] = static_cast<double>(hits[s]) / std::max(total, 1);
        for (size_t i = 0; i < masks.size(); ++i) reach[red][yellow].push_back({masks[i], by_mask[i]});
      }
  }

  static const ChanceTables &get() {
    static const ChanceTables tables;
    return tables;
  }

  double card_chance(int card, int red, int yellow) const { return red ? cards[red][yellow][card] : 0.0; }

  // the chance that a roll of these dice can cage a card of `hand` without nuts
  double solo_chance(uint32_t hand, int red, int yellow) const {
    if (red == 0 || hand == 0) return 0.0;
    int hits = 0;
    for (const auto &[mask, count] : reach[red][yellow])
      if (mask & hand & 0x7FFFF) hits += count;
    return static_cast<double>(hits) / outcomes[red][yellow];
  }
};

// heuristics._adjust / _step_towards: one nut change towards the best reachable card, or the last legal step
inline int adjust_move(const State &s, int nuts, const Worth &worth, const int *legal, int count, double nut_cost) {
  const int total = s.total(s.used), used = ludo::popcount(s.used);
  const Best best = best_of(total, used, nuts, worth, nut_cost);
  if (best.target < 0) return legal[count - 1];
  const int target = best.target;
  if (total == target) {
    for (int i = 0; i < count; ++i) {
      const int a = legal[i];
      if (kCage <= a && a < kFlip && a - kCage + 1 == target) return a;
      if (kFlip <= a && a < kTakeBack && kDiceCards[a - kFlip] == target) return a;
    }
    return legal[count - 1];
  }
  const int down = target < total ? 1 : 0;
  for (int i = 0; i < count; ++i) {
    const int a = legal[i];
    if (kAdjust <= a && a < kCage && (a - kAdjust) % 2 == down) return a;
  }
  return legal[count - 1];
}

struct Multi {
  const State &s;
  int me;

  int lead() const {
    int low = std::numeric_limits<int>::max();
    for (int i = 0; i < s.players(); ++i)
      if (i != me) low = std::min(low, hand_total(s.hands[i]));
    return low - hand_total(s.hands[me]);
  }

  // heuristics._would_win with one more face-down dice card
  bool would_win_flipping() const {
    auto key = [&](int i, int &total, int &down, int &nuts) {
      total = hand_total(s.hands[i]);
      down = 4 - ludo::popcount(s.face_up[i]) + (i == me ? 1 : 0);
      nuts = s.nuts[i];
    };
    int mt, md, mn;
    key(me, mt, md, mn);
    for (int i = 0; i < s.players(); ++i) {
      int t, d, n;
      key(i, t, d, n);
      // keys[me] <= keys[i] for every i: (total, -down, -nuts) compared in order
      if (mt != t) {
        if (mt > t) return false;
        continue;
      }
      if (md != d) {
        if (md < d) return false;
        continue;
      }
      if (mn < n) return false;
    }
    return true;
  }

  Worth worth() const {
    Worth w;
    const uint32_t hand = s.hands[me];
    for (int c = 1; c <= 18; ++c)
      if (hand >> c & 1) w.set_max(c, static_cast<double>(c));
    const uint32_t flips = flippable(s.face_up[me]);
    for (int i = 0; i < 4; ++i) {
      if (!(s.face_up[me] >> i & 1)) continue;
      const int value = kDiceCards[i];
      if (!(flips >> value & 1)) continue;
      double flip;
      if (value == 6) {
        flip = would_win_flipping() ? kWin : kLose;
      } else if (!hand) {
        flip = 10.0;
      } else {
        const int l = lead();
        flip = l > 0 ? 6.0 + l / 4.0 : -4.0;
      }
      w.set_max(value, flip);
    }
    return w;
  }

  // what leaving a sum to the other seats costs (heuristics._gift)
  double gift(int left) const {
    double cost = 0.0;
    for (int i = 0; i < s.players(); ++i)
      if (i != me && left >= 1 && left <= 18 && (s.hands[i] >> left & 1)) cost += 0.4 * left - 0.8;
    return cost;
  }

  double undo_score(int action) const {
    if (action == kTakeBack) return -static_cast<double>(s.cages[me][s.cage_len[me] - 1]);
    const int value = kDiceCards[action - kUnflip];
    return (lead() > 0 ? -3.0 : 1.0) + value / 100.0;  // more dice back first when behind
  }

  double fail_score() const {
    bool any = false;
    double best = 0.0;
    if (s.cage_len[me]) best = -static_cast<double>(s.cages[me][s.cage_len[me] - 1]), any = true;
    if (s.face_up[me] != kAllFaceUp) {
      const double v = lead() > 0 ? -3.0 : 1.0;
      if (!any || v > best) best = v;
      any = true;
    }
    return any ? best : 0.0;
  }

  int choose(const int *legal, int count) const {
    if (s.phase == kFailed) {
      int best = legal[0];
      double best_score = undo_score(best);
      for (int i = 1; i < count; ++i) {
        const double v = undo_score(legal[i]);
        if (v > best_score) best_score = v, best = legal[i];
      }
      return best;
    }
    const Worth w = worth();
    if (s.phase == kSelect) {
      const int all = s.total(s.rolled_mask);
      double best_score = fail_score() - (s.rolled_len ? gift(all) : 0.0);
      int best_action = kFail;
      const int nuts = s.nuts[me];
      const int red_total = s.total(s.red_mask()), red_count = ludo::popcount(static_cast<uint32_t>(s.red_mask()));
      const int yellows = s.yellow_count();
      for (int i = 0; i < count; ++i) {
        const int action = legal[i];
        if (action == kFail) continue;
        const int mask = action - kUse;
        int total = red_total, used = red_count, left = 0;
        bool leftover = false;
        for (int k = 0; k < yellows; ++k) {
          if (mask >> k & 1) {
            total += s.dice[2 + k];
            ++used;
          } else {
            left += s.dice[2 + k];
            leftover = true;
          }
        }
        double score = used ? best_sum(total, used, nuts, w, kNut).score : kMinusInf;
        if (leftover) score -= gift(left);
        if (score > best_score) best_score = score, best_action = action;
      }
      return best_action;
    }
    if (s.phase == kAdjusting) return adjust_move(s, s.nuts[me], w, legal, count, kNut);
    if (s.phase == kPaying) {
      const int pool_total = s.total(s.pool), pool_count = ludo::popcount(s.pool);
      const int nuts = s.supply > 0 ? s.nuts[me] : s.nuts[me] - 1;
      const double score = best_of(pool_total, pool_count, nuts, w, kNut).score;
      const double price = s.supply > 0 ? 0.3 : kNut + 0.3;  // a nut to the active seat helps it a little
      return score - price > 0 ? kPay : kPass;
    }
    return legal[0];
  }
};

// mice-8: every card counts the same for the rating; the hardest to roll go first
inline int solo_choose(const State &s, const int *legal, int count) {
  const ChanceTables &tables = ChanceTables::get();
  const uint32_t hand = s.hands[0];
  const int nuts = s.nuts[0];
  int red, yellow;
  dice_counts(s.face_up[0], red, yellow);
  Worth w;
  for (int c = 1; c <= 18; ++c)
    if (hand >> c & 1) w.set_max(c, 20.0 + 30.0 * (1.0 - tables.card_chance(c, red, yellow)));
  if (s.phase == kSelect) {
    double best_score = kMinusInf;
    int best_action = kFail;
    const int red_total = s.total(s.red_mask()), red_count = ludo::popcount(static_cast<uint32_t>(s.red_mask()));
    const int yellows = s.yellow_count();
    for (int i = 0; i < count; ++i) {
      const int action = legal[i];
      if (action == kFail) continue;
      const int mask = action - kUse;
      int total = red_total, used = red_count, left = 0, left_count = 0;
      for (int k = 0; k < yellows; ++k) {
        if (mask >> k & 1) {
          total += s.dice[2 + k];
          ++used;
        } else {
          left += s.dice[2 + k];
          ++left_count;
        }
      }
      Best best = best_of(total, used, nuts, w, kSoloNut);
      if (best.target < 0) continue;
      const int spent = std::abs(best.target - total);
      const double second = best_of(left, left_count, nuts - spent - 1, w, kSoloNut, best.target).score;
      double score = best.score;
      if (second > 20.0)
        score += second - kSoloNut;
      else if (left >= 15 && s.supply > 0)
        score += kSoloNut;
      if (score > best_score) best_score = score, best_action = action;
    }
    return best_action;
  }
  if (s.phase == kAdjusting) return adjust_move(s, nuts, w, legal, count, kSoloNut);
  if (s.phase == kPaying) {
    const double score = best_of(s.total(s.pool), ludo::popcount(s.pool), nuts - 1, w, kSoloNut).score;
    return score - kSoloNut > 20.0 - kSoloNut ? kPay : kPass;
  }
  if (s.phase == kFailed) {
    int best = legal[0];
    double best_chance = -1.0;
    for (int i = 0; i < count; ++i) {
      int r, y;
      dice_counts(s.face_up[0] & ~(1 << (legal[i] - kFlip)), r, y);
      const double chance = tables.solo_chance(hand, r, y);
      if (chance > best_chance) best_chance = chance, best = legal[i];
    }
    return best;
  }
  return legal[0];
}

inline int State::heuristic(int seat, ludo::Rng &rng) const {
  int legal_actions[kMaxActions];
  const int count = legal(seat, legal_actions);
  const int action = solo() ? solo_choose(*this, legal_actions, count) : Multi{*this, seat}.choose(legal_actions, count);
  for (int i = 0; i < count; ++i)
    if (legal_actions[i] == action) return action;
  return legal_actions[rng.below(count)];
}

}  // namespace mice
