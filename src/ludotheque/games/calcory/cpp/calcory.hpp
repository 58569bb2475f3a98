// Calcory, compiled: the same rules as game.py (DECISIONS calcory-1..5), held to it by
// tests/native/test_native_calcory.py.  Seat actions: 0..59 flip that cell, 60 stop, 61 pass, 62 + 60 v + c put a
// v back on cell c; chance action v deals a v to the next cell (A1, A2, ..., F10), weighted by the v left.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ludo/engine.hpp"

namespace calcory {

constexpr int kCells = 60;
constexpr int kValues = 10;
constexpr int kTarget = 13;  // calcory-2
constexpr int kMarkers = 6;  // calcory-1
constexpr int kStop = kCells;
constexpr int kPass = kCells + 1;
constexpr int kPutBase = kCells + 2;
constexpr int kNumActions = kPutBase + kValues * kCells;
constexpr int kDeck[kValues] = {5, 10, 5, 5, 5, 5, 5, 10, 5, 5};  // calcory-1: the numbers of the 60 cards
constexpr int kMaxSeats = 4;
// A turn flips at most 13 cards (a sum of at most 13 with one 0, ten 1s in the deck) and one more that busts.
constexpr int kMaxFlips = 16;

enum Status : int8_t { kEmpty = 0, kDown = 1, kUp = 2, kMarked = 3 };
enum Phase : int8_t { kFlip = 0, kPutBack = 1, kPassing = 2, kOver = 3 };
// the outcomes of a turn, in view.py's names: "bust", "13", "mark", "beat", "fail", "stuck", "pass", "collect"
enum Outcome : int8_t { kBust, kThirteen, kMark, kBeat, kFail, kStuck, kPassed, kCollect };

inline bool busts(int total, int zeros) { return total > kTarget || zeros >= 2; }  // calcory-2
inline bool beats(int new_sum, int new_count, int old_sum, int old_count) {  // calcory-3
  return new_sum > old_sum || (new_sum == old_sum && new_count > old_count);
}

// One entry of the public history of reveals (view.py's ``log``): kind 0 a flip, 1 a card put back.
struct Reveal {
  int32_t turn;
  int8_t seat, kind, cell, value;
};

// The summary of the last finished turn (game.py's ``last_turn``).
struct LastTurn {
  bool present = false;
  int32_t turn = 0;
  int8_t seat = 0, outcome = 0, nflips = 0;
  int8_t flips[kMaxFlips][2];  // (cell, value)
  int8_t back_cell = -1, back_value = 0, kept = 0, beaten = -1;
};

struct Ending {  // calcory-4: the single card whose collection ended the game
  bool present = false;
  int32_t turn = 0;
  int8_t seat = 0, cell = 0, value = 0;
};

// The subset-sum table of heuristics.py's ``_best_paths``: for every total 0..13, whether some run of the
// remembered positive values (ascending) sums to it, the longest such run's length and its last (largest) value.
struct Paths {
  bool exists[kTarget + 1];
  int8_t len[kTarget + 1];
  int8_t last[kTarget + 1];

  // counts[v]: how many remembered v (v >= 1), taken in ascending order as heuristics.py does
  explicit Paths(const int *counts) {
    for (int t = 0; t <= kTarget; ++t) exists[t] = false, len[t] = 0, last[t] = 0;
    exists[0] = true;
    // a run holds at most 13 / value copies of a value: further copies would change no entry (an entry changes
    // only for a strictly longer run), so they are skipped
    for (int value = 1; value < kValues; ++value)
      for (int k = 0; k < std::min(counts[value], kTarget / value); ++k)
        for (int total = kTarget; total >= value; --total) {
          const int before = total - value;
          if (exists[before] && (!exists[total] || len[before] + 1 > len[total])) {
            exists[total] = true;
            len[total] = static_cast<int8_t>(len[before] + 1);
            last[total] = static_cast<int8_t>(value);
          }
        }
  }
};

struct State {
  static constexpr int kMaxActions = kNumActions;

  int nplayers;
  int8_t card[kCells];  // the value on each cell, -1 none
  int8_t status[kCells];
  bool seen[kCells];         // the card now on the cell has been face up before
  int32_t first_log[kCells];  // the log entry that first named the cell, -1 none (the heuristic's memory order)
  int8_t to_deal[kValues];
  int dealt = 0;
  int face_down = 0;
  uint64_t down = 0;  // bit c: cell c holds a face-down card (listing flips without scanning 60 statuses)
  int current = 0;
  int turn = 0;
  int8_t phase = kFlip;
  int8_t flipped[kMaxFlips];
  int nflipped = 0;
  int total = 0, zeros = 0;
  int marked_owner = -1;
  int8_t marked[kMarkers];
  int nmarked = 0;
  int markers[kMaxSeats];
  int8_t holding[kMaxFlips];  // in the order taken: one goes back, the rest join the pile in this order
  int nholding = 0;
  bool collecting = false;
  int8_t piles[kMaxSeats][kCells];
  int pile_len[kMaxSeats];
  int8_t turn_flips[kMaxFlips][2];
  int nturn_flips = 0;
  LastTurn last_turn;
  Ending ending;
  uint64_t log_hash = 0;
  // the whole history of reveals, for the view: it grows with the game (a few hundred entries), so it lives
  // on the heap; the search's copies pay one allocation each, small beside a playout
  std::vector<Reveal> log;

  explicit State(int players) : nplayers(players) {
    for (int c = 0; c < kCells; ++c) card[c] = -1, status[c] = kEmpty, seen[c] = false, first_log[c] = -1;
    for (int v = 0; v < kValues; ++v) to_deal[v] = static_cast<int8_t>(kDeck[v]);
    for (int s = 0; s < kMaxSeats; ++s) markers[s] = kMarkers, pile_len[s] = 0;
  }

  int players() const { return nplayers; }
  int score_sign() const { return 1; }
  bool terminal() const { return phase == kOver; }
  bool chance() const { return dealt < kCells; }

  int chance_outcomes(int *out) const {
    int k = 0;
    for (int v = 0; v < kValues; ++v)
      if (to_deal[v]) out[k++] = v;
    return k;
  }
  // a card of the deck left, each equally likely: value v with probability to_deal[v] / left (game.py)
  int sample_chance(ludo::Rng &rng) const {
    int pick = rng.below(kCells - dealt);
    for (int v = 0; v < kValues; ++v) {
      pick -= to_deal[v];
      if (pick < 0) return v;
    }
    return kValues - 1;
  }
  bool is_chance_outcome(int action) const {
    return chance() && action >= 0 && action < kValues && to_deal[action] > 0;
  }

  int actors(int *out) const {
    if (terminal() || chance()) return 0;
    out[0] = current;
    return 1;
  }

  // calcory-2/3: enough cards flipped to stop, and enough markers at home to mark them
  bool can_stop() const {
    const int least = pile_len[current] ? 1 : 2;
    return least <= nflipped && nflipped <= markers[current];
  }

  int held_values(int *out) const {  // the distinct values held, ascending
    bool has[kValues] = {};
    for (int i = 0; i < nholding; ++i) has[holding[i]] = true;
    int k = 0;
    for (int v = 0; v < kValues; ++v)
      if (has[v]) out[k++] = v;
    return k;
  }

  int legal(int seat, int *out) const {
    if (terminal() || chance() || seat != current) return 0;
    int k = 0;
    if (phase == kFlip) {
      for (uint64_t m = down; m; m &= m - 1) out[k++] = __builtin_ctzll(m);
      if (can_stop()) out[k++] = kStop;
    } else if (phase == kPassing) {
      out[k++] = kPass;
    } else {
      int values[kValues];
      const int nv = held_values(values);
      for (int i = 0; i < nv; ++i)
        for (int c = 0; c < kCells; ++c)
          if (status[c] == kEmpty) out[k++] = kPutBase + values[i] * kCells + c;
    }
    return k;
  }

  bool is_legal(int seat, int action) const {
    if (terminal() || chance() || seat != current || action < 0 || action >= kNumActions) return false;
    if (phase == kFlip) {
      if (action < kCells) return status[action] == kDown;
      return action == kStop && can_stop();
    }
    if (phase == kPassing) return action == kPass;
    if (action < kPutBase) return false;
    const int value = (action - kPutBase) / kCells, cell = (action - kPutBase) % kCells;
    bool held = false;
    for (int i = 0; i < nholding; ++i) held = held || holding[i] == value;
    return held && status[cell] == kEmpty;
  }

  void apply(int actor, int action) {
    if (actor == ludo::kChance)
      deal(action);
    else if (action < kCells)
      flip(action);
    else if (action == kStop)
      stop();
    else if (action == kPass)
      pass();
    else
      put_back((action - kPutBase) / kCells, (action - kPutBase) % kCells);
  }

  // -- the moves (game.py's, one for one) ----------------------------------------------------------------

  void deal(int value) {
    const int cell = dealt;
    card[cell] = static_cast<int8_t>(value);
    status[cell] = kDown;
    down |= 1ULL << cell;
    --to_deal[value];
    ++dealt;
    ++face_down;
    if (dealt == kCells) begin_turn(0);
  }

  void flip(int cell) {
    const int value = card[cell];
    status[cell] = kUp;
    down &= ~(1ULL << cell);
    seen[cell] = true;
    --face_down;
    flipped[nflipped++] = static_cast<int8_t>(cell);
    turn_flips[nturn_flips][0] = static_cast<int8_t>(cell);
    turn_flips[nturn_flips++][1] = static_cast<int8_t>(value);
    total += value;
    zeros += value == 0;
    note(current, 0, cell, value);
    if (busts(total, zeros)) {
      turn_back(flipped, nflipped);  // calcory-2: the turn fails
      nflipped = 0;
      end_turn(kBust);
    } else if (total == kTarget) {
      nholding = 0;  // calcory-2: take them, one goes back
      for (int i = 0; i < nflipped; ++i) holding[nholding++] = card[flipped[i]];
      for (int i = 0; i < nflipped; ++i) remove(flipped[i]);
      nflipped = 0;
      collecting = false;
      phase = kPutBack;
    } else if (face_down == 0 && !can_stop()) {
      phase = kPassing;  // nothing left to flip and stopping not allowed: the turn fails
    }
  }

  void stop() {
    const int seat = current;
    if (marked_owner < 0) {
      mark(seat);  // calcory-3: nothing marked, the flipped cards are marked
      end_turn(kMark);
      return;
    }
    int old_sum = 0;
    for (int i = 0; i < nmarked; ++i) old_sum += card[marked[i]];
    if (beats(total, nflipped, old_sum, nmarked)) {
      const int beaten = marked_owner;
      markers[beaten] += nmarked;  // the beaten markers go home
      turn_back(marked, nmarked);
      nmarked = 0;
      marked_owner = -1;
      mark(seat);
      end_turn(kBeat, -1, 0, 0, beaten);
    } else {
      turn_back(flipped, nflipped);  // calcory-3: stopping without beating them fails
      nflipped = 0;
      end_turn(kFail);
    }
  }

  void pass() {
    if (nflipped) {
      turn_back(flipped, nflipped);
      nflipped = 0;
      end_turn(kStuck);
    } else {
      end_turn(kPassed);
    }
  }

  void put_back(int value, int cell) {
    const int seat = current;
    for (int i = 0; i < nholding; ++i)
      if (holding[i] == value) {
        std::copy(holding + i + 1, holding + nholding, holding + i);
        --nholding;
        break;
      }
    card[cell] = static_cast<int8_t>(value);
    status[cell] = kDown;
    down |= 1ULL << cell;
    seen[cell] = true;  // everyone saw which card went back
    ++face_down;
    for (int i = 0; i < nholding; ++i) piles[seat][pile_len[seat]++] = holding[i];
    const int kept = nholding;
    nholding = 0;
    note(seat, 1, cell, value);
    end_turn(collecting ? kCollect : kThirteen, cell, value, kept);
  }

  // -- helpers --------------------------------------------------------------------------------------------

  void note(int seat, int kind, int cell, int value) {
    if (first_log[cell] < 0) first_log[cell] = static_cast<int32_t>(log.size());
    log.push_back({turn, static_cast<int8_t>(seat), static_cast<int8_t>(kind), static_cast<int8_t>(cell),
                   static_cast<int8_t>(value)});
    ludo::Hasher h;
    h.h = log_hash ^ 0x9E3779B97F4A7C15ULL;
    h.add(static_cast<uint64_t>(turn) << 32 | static_cast<uint64_t>(seat) << 24 | static_cast<uint64_t>(kind) << 16 |
          static_cast<uint64_t>(cell) << 8 | static_cast<uint64_t>(value));
    log_hash = h.h;
  }

  void mark(int seat) {
    for (int i = 0; i < nflipped; ++i) status[flipped[i]] = kMarked;
    std::copy(flipped, flipped + nflipped, marked);
    nmarked = nflipped;
    marked_owner = seat;
    markers[seat] -= nflipped;
    nflipped = 0;
  }

  void turn_back(const int8_t *cells, int n) {
    for (int i = 0; i < n; ++i) status[cells[i]] = kDown, down |= 1ULL << cells[i];
    face_down += n;
  }

  void remove(int cell) {
    card[cell] = -1;
    status[cell] = kEmpty;
    seen[cell] = false;
  }

  void end_turn(int outcome, int back_cell = -1, int back_value = 0, int kept = 0, int beaten = -1) {
    LastTurn &t = last_turn;
    t.present = true;
    t.turn = turn;
    t.seat = static_cast<int8_t>(current);
    t.outcome = static_cast<int8_t>(outcome);
    t.nflips = static_cast<int8_t>(nturn_flips);
    std::copy(&turn_flips[0][0], &turn_flips[0][0] + 2 * nturn_flips, &t.flips[0][0]);
    t.back_cell = static_cast<int8_t>(back_cell);
    t.back_value = static_cast<int8_t>(back_value);
    t.kept = static_cast<int8_t>(kept);
    t.beaten = static_cast<int8_t>(beaten);
    collecting = false;
    nflipped = 0;
    nturn_flips = 0;
    total = 0;
    zeros = 0;
    begin_turn((current + 1) % nplayers);
  }

  void begin_turn(int seat) {
    current = seat;
    ++turn;
    if (marked_owner == seat) {
      // calcory-4: the marks survived a full round; the owner takes those cards
      int8_t cards[kMarkers];
      for (int i = 0; i < nmarked; ++i) cards[i] = card[marked[i]];
      for (int i = 0; i < nmarked; ++i) remove(marked[i]);
      markers[seat] += nmarked;
      const int count = nmarked;
      nmarked = 0;
      marked_owner = -1;
      if (count == 1) {
        piles[seat][pile_len[seat]++] = cards[0];  // a single card is kept and the game ends
        ending = {true, turn, static_cast<int8_t>(seat), marked[0], cards[0]};
        phase = kOver;
        return;
      }
      std::copy(cards, cards + count, holding);
      nholding = count;
      collecting = true;
      phase = kPutBack;
    } else if (face_down == 0) {
      phase = kPassing;  // calcory-4: nothing to flip
    } else {
      phase = kFlip;
    }
  }

  // -- results ---------------------------------------------------------------------------------------------

  void returns(double *out) const {
    for (int s = 0; s < nplayers; ++s) out[s] = pile_len[s];
  }

  // calcory-4: most cards wins, equal best counts share; none before the end
  int winners(int *out) const {
    if (!terminal()) return 0;
    int best = 0;
    for (int s = 0; s < nplayers; ++s) best = std::max(best, pile_len[s]);
    int k = 0;
    for (int s = 0; s < nplayers; ++s)
      if (pile_len[s] == best) out[k++] = s;
    return k;
  }

  // game.py's resample: the values of the never-seen face-down cards shuffled among their cells (every seat
  // saw the same reveals, so the seat does not matter).  Sorted first, as game.py, then a uniform permutation.
  void resample(int, ludo::Rng &rng) {
    int cells[kCells], n = 0;
    int8_t values[kCells];
    for (int c = 0; c < dealt; ++c)
      if (status[c] == kDown && !seen[c]) cells[n++] = c;
    for (int i = 0; i < n; ++i) values[i] = card[cells[i]];
    std::sort(values, values + n);  // the draw must not depend on how the hidden values lie (game.py)
    for (int i = n - 1; i > 0; --i) std::swap(values[i], values[rng.below(i + 1)]);
    for (int i = 0; i < n; ++i) card[cells[i]] = values[i];
  }

  // -- the heuristic (heuristics.py's CalcoryHeuristicBot, its random choices made by `pick`) ----------------

  // What the seat remembers (view.py's memory: the face-down cards revealed before, in the order the log first
  // named their cells) and what it never saw (view.py's unseen_counts).
  int remembered(int *cells) const {
    int n = 0;
    for (int c = 0; c < kCells; ++c)
      if (status[c] == kDown && seen[c]) cells[n++] = c;
    std::sort(cells, cells + n, [this](int a, int b) { return first_log[a] < first_log[b]; });
    return n;
  }

  void unseen_counts(int *unseen) const {
    for (int v = 0; v < kValues; ++v) unseen[v] = 0;
    for (int c = 0; c < kCells; ++c)
      if (status[c] == kDown && !seen[c]) ++unseen[card[c]];
  }

  // heuristics.py's _chances: (chance of reaching 13, chance of busting) when an unknown card is flipped next
  static void chances(int sum, int nzeros, const Paths &paths, const int *unseen, double *good_out,
                      double *bad_out) {
    int size = 0;
    for (int v = 0; v < kValues; ++v) size += unseen[v];
    if (size == 0) {
      *good_out = *bad_out = 0.0;
      return;
    }
    int good = 0, bad = 0;
    for (int u = 0; u < kValues; ++u) {
      if (!unseen[u]) continue;
      const int new_total = sum + u, new_zeros = nzeros + (u == 0);
      if (busts(new_total, new_zeros))
        bad += unseen[u];
      else if (new_total == kTarget || paths.exists[kTarget - new_total])
        good += unseen[u];
    }
    *good_out = static_cast<double>(good) / size;
    *bad_out = static_cast<double>(bad) / size;
  }

  template <class Pick>
  int heuristic_with(int seat, Pick &&pick) const {
    int legal_actions[kMaxActions];
    const int count = legal(seat, legal_actions);
    if (phase == kPutBack) return heuristic_put_back(legal_actions, count);
    if (phase != kFlip || count == 1) return legal_actions[0];
    const int action = flip_or_stop(seat, legal_actions, count, pick);
    for (int i = 0; i < count; ++i)
      if (legal_actions[i] == action) return action;
    return pick(legal_actions, count);
  }

  int heuristic(int seat, ludo::Rng &rng) const {
    return heuristic_with(seat, [&rng](const int *xs, int n) { return xs[rng.below(n)]; });
  }

  template <class Pick>
  int flip_or_stop(int seat, const int *legal_actions, int count, Pick &pick) const {
    int memory[kCells];
    const int nmem = remembered(memory);
    int unseen[kValues];
    unseen_counts(unseen);
    int known[kValues] = {};
    for (int i = 0; i < nmem; ++i) ++known[card[memory[i]]];
    auto first_with = [&](int value) {
      for (int i = 0; i < nmem; ++i)
        if (card[memory[i]] == value) return memory[i];
      return -1;
    };
    const Paths paths(known);
    if (paths.exists[kTarget - total]) return first_with(paths.last[kTarget - total]);  // 1. a sure 13

    double p13, pbust;
    chances(total, zeros, paths, unseen, &p13, &pbust);
    int setup_value = -1;
    double setup_p = 0.0;
    for (int value = 0; value < kValues; ++value) {
      if (!known[value]) continue;
      if (busts(total + value, zeros + (value == 0)) || total + value == kTarget) continue;
      --known[value];
      const Paths rest(known);
      ++known[value];
      double chance, ignored;
      chances(total + value, zeros + (value == 0), rest, unseen, &chance, &ignored);
      if (chance > setup_p) setup_value = value, setup_p = chance;
    }
    bool stop_legal = false;
    for (int i = 0; i < count; ++i) stop_legal = stop_legal || legal_actions[i] == kStop;
    if (stop_legal && stop_is_good(seat, std::max(p13, setup_p), pbust)) return kStop;
    int unknown[kCells], nunknown = 0;
    for (int c = 0; c < kCells; ++c)
      if (status[c] == kDown && !seen[c]) unknown[nunknown++] = c;
    if (nunknown && (p13 >= setup_p || setup_value < 0)) return pick(unknown, nunknown);
    if (setup_value >= 0) return first_with(setup_value);
    if (stop_legal) return kStop;
    return pick(legal_actions, count);
  }

  bool stop_is_good(int seat, double p13, double pbust) const {
    const bool has_marks = marked_owner >= 0;
    if (has_marks) {
      int old_sum = 0;
      for (int i = 0; i < nmarked; ++i) old_sum += card[marked[i]];
      if (!beats(total, nflipped, old_sum, nmarked)) return false;  // stopping would fail
    }
    if (nflipped == 1) {
      // calcory-4: a single surviving card ends the game; only worth it when that wins
      int others = 0;
      for (int s = 0; s < nplayers; ++s)
        if (s != seat) others = std::max(others, pile_len[s]);
      return pile_len[seat] + 1 > others;
    }
    if (has_marks) return p13 < 0.45;  // beating the marks denies their owner the cards
    return total >= 11 || (pbust >= 0.4 && p13 < 0.3) || nflipped >= kMarkers;
  }

  int heuristic_put_back(const int *legal_actions, int count) const {
    int memory[kCells];
    const int nmem = remembered(memory);
    int unseen[kValues];
    unseen_counts(unseen);
    int known[kValues] = {};
    for (int i = 0; i < nmem; ++i) ++known[card[memory[i]]];
    const Paths paths(known);
    int values[kValues];
    const int nv = held_values(values);
    int best_value = -1;
    double best_help = 0;
    for (int i = 0; i < nv; ++i) {
      const int value = values[i];
      // how much this card, once known, helps someone starting a turn to a 13
      ++known[value];
      const Paths with_it(known);
      --known[value];
      double help;
      if (with_it.exists[kTarget] && !paths.exists[kTarget]) {
        help = 1.0;
      } else {
        double ignored;
        chances(value, value == 0, paths, unseen, &help, &ignored);
      }
      if (best_value < 0 || help < best_help) best_value = value, best_help = help;
    }
    int empty = 0;
    while (status[empty] != kEmpty) ++empty;
    const int action = kPutBase + best_value * kCells + empty;
    for (int i = 0; i < count; ++i)
      if (legal_actions[i] == action) return action;
    return legal_actions[0];
  }

  // -- the information set -----------------------------------------------------------------------------------

  // Everything view.py shows (the same for every seat: all reveals are public), with the seat: equal views give
  // equal keys.  A face-down card is "down" whatever its value.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(static_cast<uint64_t>(seat) << 48 | static_cast<uint64_t>(dealt) << 40 | static_cast<uint64_t>(phase) << 32 |
          static_cast<uint32_t>(turn));
    for (int base = 0; base < kCells; base += 15) {
      uint64_t word = 0;
      for (int c = base; c < base + 15; ++c) {
        const uint64_t code = status[c] >= kUp ? static_cast<uint64_t>(card[c]) : 10u + status[c];
        word = word << 4 | code;
      }
      h.add(word);
    }
    uint64_t word = static_cast<uint64_t>(total) << 8 | static_cast<uint64_t>(zeros) << 4 | (collecting ? 1u : 0u);
    for (int i = 0; i < nflipped; ++i) word = word * 61 + static_cast<uint64_t>(flipped[i] + 1);
    h.add(word);
    word = static_cast<uint64_t>(marked_owner + 1);
    for (int i = 0; i < nmarked; ++i) word = word * 61 + static_cast<uint64_t>(marked[i] + 1);
    h.add(word);
    int held[kValues] = {};
    for (int i = 0; i < nholding; ++i) ++held[holding[i]];
    word = 0;
    for (int v = 0; v < kValues; ++v) word = word << 4 | static_cast<uint64_t>(held[v]);
    h.add(word);
    for (int s = 0; s < nplayers; ++s) {
      h.add(static_cast<uint64_t>(markers[s]) << 8 | static_cast<uint64_t>(pile_len[s]));
      for (int base = 0; base < pile_len[s]; base += 16) {
        word = 0;
        for (int i = base; i < std::min(base + 16, pile_len[s]); ++i) word = word << 4 | static_cast<uint64_t>(piles[s][i]);
        h.add(word);
      }
    }
    h.add(log_hash);
    h.add(log.size());
    if (last_turn.present) {
      const LastTurn &t = last_turn;
      h.add(static_cast<uint64_t>(t.turn) << 32 | static_cast<uint64_t>(t.seat) << 16 |
            static_cast<uint64_t>(t.outcome) << 8 | static_cast<uint64_t>(t.nflips));
      word = 0;
      for (int i = 0; i < t.nflips; ++i) word = word * 613 + static_cast<uint64_t>(t.flips[i][0] * 10 + t.flips[i][1]);
      h.add(word);
      h.add(static_cast<uint64_t>(static_cast<uint8_t>(t.back_cell)) << 24 | static_cast<uint64_t>(t.back_value) << 16 |
            static_cast<uint64_t>(t.kept) << 8 | static_cast<uint8_t>(t.beaten));
    }
    if (ending.present)
      h.add(static_cast<uint64_t>(ending.turn) << 24 | static_cast<uint64_t>(ending.seat) << 16 |
            static_cast<uint64_t>(ending.cell) << 8 | static_cast<uint64_t>(ending.value));
    return h.h;
  }
};

}  // namespace calcory
