// Safarü and Safarü renversé, compiled: the same rules as game.py and rules.py (DECISIONS safaru-1..8, mu-1), the
// heuristic of heuristics.py move for move, held to them by tests/native/test_native_safaru.py.
//
// Cards are kinds (colour * 10 + number) and every pile of cards is a count vector over the 50 kinds, as in
// rules.py.  The action numbering is notation.py's: 0..49 play a kind, 50..99 take a kind into the catch being
// built, 100..149 pair with a kind, then add, 17, ok, done and the three picks; chance action k deals kind k.
//
// The state holds what the rules need.  What only a view shows (the log of the game's deals and turns, the card
// on the table before the turn's play, the catches of the turn) is rebuilt by replaying the game's actions into a
// LogSink (safaru.cpp's table_view), so that a copy made for a playout or a determinization stays small.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "ludo/engine.hpp"

namespace safaru {

constexpr int kKinds = 50;
constexpr int kDeckSize = 60;
constexpr int kMaxSeats = 4;
constexpr int kHandSize = 4;   // safaru-2, safaru-5
constexpr int kTableDeal = 4;  // safaru-2, safaru-5
constexpr int kToTable = -1;   // a deal's destination: the table
constexpr int kMaxGames = 100;  // rules.MAX_GAMES
constexpr int kYellow = 1, kBlue = 3;  // safaru-1: hedgehogs, unicorns
constexpr int kAdd = 0, kSeventeen = 1, kPair = 2;  // safaru-3's methods
constexpr int kTriangles[10] = {1, 0, 1, 1, 1, 1, 2, 2, 1, 0};  // mu-1, by number
constexpr int kCopiesOfNumber[10] = {1, 2, 1, 1, 1, 1, 1, 2, 1, 1};  // mu-1: 0 1 1 2 3 4 5 6 7 7 8 9 per colour

// notation.py's action space
constexpr int kTake = 50, kPairWith = 100, kBeginAdd = 150, kBegin17 = 151, kClose = 152, kDone = 153,
              kChoose = 154, kNumActions = 157;

// safaru-6 / safaru-7
constexpr double kUnicornBonus = 24, kHedgehogMalus = -12, kBabyMalus = -5, kReverseMostCards = 24,
                 kReverseHedgehogs = 18;

enum Phase : int8_t { kPlayPhase, kCatchPhase, kBuildPhase, kPickPhase, kPairPhase };

struct Config {
  int players = 2;
  bool reverse = false;  // safaru-7
  int target = 0;        // safaru-6 / all-4: 0, or play games until a total reaches it
  int games = 1;         // safaru-7: the number of games agreed
  bool partners = false;  // 4 players, unless renversé's individual play
};

// rules.completable: can a set holding `size` cards be completed from `avail` (counts by number) to one whose
// remaining sum is `need`, with at least `min_size` cards and, when `zero_required`, a 0?  Bitsets of the sums
// reachable with one non-zero card and with two or more.
inline bool completable(const int8_t *avail, int need, int size, bool has_zero, int min_size, bool zero_required) {
  if (need < 0) return false;
  const int zeros = avail[0];
  if (zero_required && !has_zero && zeros == 0) return false;
  const int shortfall = min_size - size - zeros;
  const uint32_t window = (2u << need) - 1;
  uint32_t one = 0, more = 0;
  for (int value = 1; value <= std::min(9, need); ++value) {
    const int times = std::min<int>(avail[value], need / value);
    for (int t = 0; t < times; ++t) {
      const uint32_t next_one = (one | 1u << value) & window;
      more = (more | (one | more) << value) & window;
      one = next_one;
    }
  }
  if (shortfall <= 0) return ((1u | one | more) >> need) & 1u;
  if (shortfall == 1) return ((one | more) >> need) & 1u;
  return shortfall == 2 && ((more >> need) & 1u);
}

// rules.method_target: (the sum the caught table cards must reach, the fewest caught cards)
inline void method_target(int method, int played, int &need, int &min_size) {
  if (method == kAdd) {
    need = played;
    min_size = 2;
  } else {
    need = 17 - played;
    min_size = 1;
  }
}

// The rules' questions about a table are pure functions of a few small numbers, asked again and again in a
// playout (every legal-move list of a turn): a direct-mapped memo of their answers, one per thread, as rules.py
// memoises them.
struct Memo {
  static constexpr int kBits = 14;
  uint64_t keys[1 << kBits];
  int16_t values[1 << kBits];
  Memo() {
    for (auto &k : keys) k = ~0ULL;
  }
  template <class F>
  int get(uint64_t key, F compute) {
    const uint64_t mixed = key * 0x9E3779B97F4A7C15ULL;
    const size_t slot = static_cast<size_t>(mixed >> (64 - kBits));
    if (keys[slot] != key) {
      keys[slot] = key;
      values[slot] = static_cast<int16_t>(compute());
    }
    return values[slot];
  }
};

inline Memo &memo() {
  static thread_local Memo table;
  return table;
}

// rules.catch_methods as a mask (bit m for method m)
inline int compute_catch_methods(int played, const int8_t *avail, bool zero_required) {
  int mask = 0;
  for (int method : {kAdd, kSeventeen}) {
    int need, min_size;
    method_target(method, played, need, min_size);
    if (completable(avail, need, 0, false, min_size, zero_required)) mask |= 1 << method;
  }
  if (avail[played] > 0) mask |= 1 << kPair;
  return mask;
}

// `avail_key` is the table counted by number as one word (4 bits a number: at most 10 cards of a number), which
// the state keeps up to date
inline int catch_methods(int played, const int8_t *avail, uint64_t avail_key, bool zero_required) {
  const uint64_t key = avail_key | static_cast<uint64_t>(played) << 40 |
                       static_cast<uint64_t>(zero_required) << 44;
  return memo().get(key, [&] { return compute_catch_methods(played, avail, zero_required); });
}

// rules.takeable: the numbers a catch being built may take next (bit v for number v)
inline int compute_takeable(const int8_t *avail, int need, int size, bool has_zero, int min_size, bool zero_required) {
  int8_t left[10];
  std::memcpy(left, avail, 10);
  int ok = 0;
  for (int value = 0; value <= std::min(9, need); ++value) {
    if (!left[value]) continue;
    --left[value];
    if (completable(left, need - value, size + 1, has_zero || value == 0, min_size, zero_required)) ok |= 1 << value;
    ++left[value];
  }
  return ok;
}

inline int takeable(const int8_t *avail, uint64_t avail_key, int need, int size, bool has_zero, int min_size,
                    bool zero_required) {
  if (need < 0) return 0;
  // the size only counts up to the 2 cards a catch may need (rules.takeable's memo key)
  const uint64_t key = avail_key | static_cast<uint64_t>(need) << 40 |
                       static_cast<uint64_t>(std::min(size, 2)) << 45 | static_cast<uint64_t>(has_zero) << 47 |
                       static_cast<uint64_t>(min_size) << 48 | static_cast<uint64_t>(zero_required) << 50 | 1ULL << 51;
  return memo().get(key, [&] { return compute_takeable(avail, need, size, has_zero, min_size, zero_required); });
}

// rules._shares: the prize split among the sides holding the most; nothing when nobody holds any (safaru-8)
inline double share(int value, int top, int winners, double prize) {
  return top > 0 && value == top ? prize / winners : 0.0;
}

// rules.seat_scores: one game's score per seat from each seat's caught cards (partners pooled, safaru-6/7)
inline void seat_scores(const int8_t (*caught)[kKinds], const Config &config, double *out) {
  const int n = config.players;
  const int sides = config.partners ? 2 : n;
  int cards[kMaxSeats] = {}, unicorns[kMaxSeats] = {}, hedgehogs[kMaxSeats] = {}, babies[kMaxSeats] = {},
      triangles[kMaxSeats] = {};
  for (int seat = 0; seat < n; ++seat) {
    const int side = config.partners ? seat % 2 : seat;
    for (int k = 0; k < kKinds; ++k) {
      const int c = caught[seat][k];
      if (!c) continue;
      cards[side] += c;
      unicorns[side] += k / 10 == kBlue ? c : 0;
      hedgehogs[side] += k / 10 == kYellow ? c : 0;
      babies[side] += k % 10 == 0 ? c : 0;
      triangles[side] += c * kTriangles[k % 10];
    }
  }
  auto top_of = [&](const int *values, int &top, int &count) {
    top = values[0];
    for (int i = 1; i < sides; ++i) top = std::max(top, values[i]);
    count = 0;
    for (int i = 0; i < sides; ++i) count += values[i] == top;
  };
  double by_side[kMaxSeats];
  int top_a, count_a, top_h, count_h;
  top_of(hedgehogs, top_h, count_h);
  if (config.reverse) {
    top_of(cards, top_a, count_a);
    for (int i = 0; i < sides; ++i)
      by_side[i] = share(cards[i], top_a, count_a, kReverseMostCards) +
                   share(hedgehogs[i], top_h, count_h, kReverseHedgehogs) + triangles[i];
  } else {
    top_of(unicorns, top_a, count_a);
    for (int i = 0; i < sides; ++i)
      by_side[i] = share(unicorns[i], top_a, count_a, kUnicornBonus) +
                   share(hedgehogs[i], top_h, count_h, kHedgehogMalus) + kBabyMalus * babies[i] + triangles[i];
  }
  for (int seat = 0; seat < n; ++seat) out[seat] = by_side[config.partners ? seat % 2 : seat];
}

inline uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// two words holding a count vector over the kinds (at most 2 copies of a kind: 2 bits each)
inline void pack(const int8_t *counts, uint64_t &low, uint64_t &high) {
  low = high = 0;
  for (int k = 0; k < 32; ++k) low |= static_cast<uint64_t>(counts[k]) << (2 * k);
  for (int k = 32; k < kKinds; ++k) high |= static_cast<uint64_t>(counts[k]) << (2 * (k - 32));
}

// A finished game that is not the match's last (the view's `results`); the last is the live state's own.
struct Result {
  int8_t caught[kMaxSeats][kKinds];
  int8_t left[kKinds];
  std::shared_ptr<const Result> previous;
};

struct State;

// What a view needs beyond the rules: the hooks a replay calls (safaru.cpp).
struct LogSink {
  virtual ~LogSink() = default;
  virtual void new_round(const State &) = 0;
  virtual void table_deal(int kind) = 0;
  virtual void deal_end(const State &) = 0;
  virtual void play(const State &) = 0;
  virtual void caught(int method, const int8_t *kinds, int count) = 0;
  virtual void turn_end(const State &) = 0;
};

struct State {
  static constexpr int kMaxActions = 64;  // the most legal actions at once: 50 kinds to take, and ok

  Config config;
  int8_t hands[kMaxSeats][kKinds];
  int8_t hand_count[kMaxSeats];
  uint64_t hand_kinds[kMaxSeats];  // bit k: the hand holds kind k (the moves are read from these)
  int8_t table[kKinds];
  uint64_t table_kinds = 0;
  int8_t tnum[10];  // the table counted by number
  uint64_t tnum_key = 0;  // tnum as one word, 4 bits a number (the memo's key)
  int8_t table_count = 0;
  int8_t pile[kKinds];
  int pile_size = kDeckSize;
  int8_t caught[kMaxSeats][kKinds];
  double totals[kMaxSeats];  // finished games of the match
  int ngames = 0;            // finished games
  bool finished = false;
  int round = -1;  // deals so far over the match; the starter is round % players
  int starter = 0;
  int to_move = 0;
  int8_t queue[kDeckSize];  // this deal's destinations (a seat or kToTable)
  int8_t queue_len = 0, queue_pos = 0;
  // the turn (game.py's _reset_turn)
  Phase phase = kPlayPhase;
  int8_t played = -1;
  bool zero_required = false;
  uint8_t used = 0;  // methods used this turn (bit m)
  bool paired = false;
  int8_t method = -1;  // the adding / seventeen catch being built
  int8_t build[24];
  int8_t build_len = 0;
  int8_t build_sum = 0;
  int8_t picked_by = -1;
  // the cards each seat played this deal, in order (resample keeps them)
  int8_t played_round[kMaxSeats][kHandSize];
  int8_t played_round_len[kMaxSeats];
  // where this game and this deal start: what the Python side needs to rebuild a view or a history
  int game_round0 = 0;
  int game_steps = 0;   // actions since this game's start
  int round_steps = 0;  // actions since this deal's start
  uint64_t match_hash = 0;  // the finished games' results
  uint64_t public_hash = 0;  // every action of this game as the table saw it (cards dealt to seats hidden)
  std::shared_ptr<const Result> results;
  LogSink *sink = nullptr;  // only while a view replays the game

  explicit State(const Config &c) : config(c) {
    for (double &t : totals) t = 0;
    new_game();
  }

  int players() const { return config.players; }
  int score_sign() const { return config.reverse ? -1 : 1; }
  bool terminal() const { return finished; }
  bool chance() const { return !finished && queue_pos < queue_len; }
  int actor() const { return phase == kPickPhase ? (to_move + 1) % config.players : to_move; }

  // -- setup -----------------------------------------------------------------------------------------------

  void new_game() {
    std::memset(hands, 0, sizeof hands);
    std::memset(hand_count, 0, sizeof hand_count);
    std::memset(hand_kinds, 0, sizeof hand_kinds);
    std::memset(table, 0, sizeof table);
    table_kinds = 0;
    std::memset(tnum, 0, sizeof tnum);
    tnum_key = 0;
    table_count = 0;
    for (int k = 0; k < kKinds; ++k) pile[k] = static_cast<int8_t>(kCopiesOfNumber[k % 10]);
    pile_size = kDeckSize;
    std::memset(caught, 0, sizeof caught);
    game_steps = 0;
    public_hash = mix(match_hash ^ static_cast<uint64_t>(round + 1));
    new_round();
    game_round0 = round;
  }

  // safaru-5: 4 cards each (round the table when the pile runs short), and up to 4 to an empty table
  void new_round() {
    const int n = config.players;
    ++round;
    starter = round % n;
    const int left = pile_size;
    queue_len = 0;
    if (left >= kHandSize * n) {
      for (int i = 0; i < kHandSize * n; ++i) queue[queue_len++] = static_cast<int8_t>((starter + i % n) % n);
    } else {
      for (int i = 0; i < left; ++i) queue[queue_len++] = static_cast<int8_t>((starter + i % n) % n);
    }
    if (table_count == 0) {
      const int extra = std::min(kTableDeal, left - queue_len);
      for (int i = 0; i < extra; ++i) queue[queue_len++] = kToTable;
    }
    queue_pos = 0;
    round_steps = 0;
    std::memset(played_round_len, 0, sizeof played_round_len);
    to_move = starter;
    reset_turn();
    if (sink) sink->new_round(*this);
  }

  void reset_turn() {
    phase = kPlayPhase;
    played = -1;
    zero_required = false;
    used = 0;
    paired = false;
    method = -1;
    build_len = 0;
    build_sum = 0;
    picked_by = -1;
  }

  // -- questions ---------------------------------------------------------------------------------------------

  int chance_outcomes(int *out) const {
    int k = 0;
    for (int kind = 0; kind < kKinds; ++kind)
      if (pile[kind]) out[k++] = kind;
    return k;
  }

  // the next card, uniform over the cards left (all-1): a kind with probability copies / cards
  int sample_chance(ludo::Rng &rng) const {
    int pick = rng.below(pile_size);
    for (int kind = 0; kind < kKinds; ++kind) {
      pick -= pile[kind];
      if (pick < 0) return kind;
    }
    return kKinds - 1;
  }

  int actors(int *out) const {
    if (finished || chance()) return 0;
    out[0] = actor();
    return 1;
  }

  int methods_left() const { return catch_methods(played % 10, tnum, tnum_key, zero_required) & ~used; }

  int pair_actions(int *out, int k) const {
    for (int kind = played % 10; kind < kKinds; kind += 10)
      if (table[kind]) out[k++] = kPairWith + kind;
    return k;
  }

  bool build_has_zero() const {
    for (int i = 0; i < build_len; ++i)
      if (build[i] % 10 == 0) return true;
    return false;
  }

  int legal(int seat, int *out) const {
    if (finished || chance() || seat != actor()) return 0;
    int k = 0;
    switch (phase) {
      case kPlayPhase:
        for (uint64_t m = hand_kinds[to_move]; m; m &= m - 1) out[k++] = __builtin_ctzll(m);
        return k;
      case kPickPhase: {
        const int left = methods_left();
        for (int m = 0; m < 3; ++m)
          if (left >> m & 1) out[k++] = kChoose + m;
        return k;
      }
      case kPairPhase:
        return pair_actions(out, 0);
      case kCatchPhase: {
        const int left = methods_left();
        if (left >> kPair & 1) k = pair_actions(out, k);
        if (left >> kAdd & 1) out[k++] = kBeginAdd;
        if (left >> kSeventeen & 1) out[k++] = kBegin17;
        if (used) out[k++] = kDone;
        return k;
      }
      case kBuildPhase: {
        int need, min_size;
        method_target(method, played % 10, need, min_size);
        need -= build_sum;
        const bool has_zero = build_has_zero();
        const int ok = takeable(tnum, tnum_key, need, build_len, has_zero, min_size, zero_required);
        if (ok)
          for (uint64_t m = table_kinds; m; m &= m - 1) {
            const int kind = __builtin_ctzll(m);
            if (ok >> (kind % 10) & 1) out[k++] = kTake + kind;
          }
        if (need == 0 && build_len >= min_size && (has_zero || !zero_required)) out[k++] = kClose;
        return k;
      }
    }
    return 0;
  }

  bool is_legal(int seat, int action) const {
    if (finished || chance() || seat != actor() || action < 0 || action >= kNumActions) return false;
    if (phase == kPlayPhase) return action < kKinds && hands[to_move][action] > 0;
    int out[kMaxActions];
    const int count = legal(seat, out);
    for (int i = 0; i < count; ++i)
      if (out[i] == action) return true;
    return false;
  }

  bool is_chance_outcome(int action) const { return chance() && action >= 0 && action < kKinds && pile[action] > 0; }

  // -- applying actions --------------------------------------------------------------------------------------

  void apply(int actor_seat, int action) {
    ++game_steps;
    ++round_steps;
    if (actor_seat == ludo::kChance) {
      // a card dealt to a seat is hidden from the others: the public record keeps only that a card went there
      const int to = queue[queue_pos];
      public_hash = mix(public_hash ^ (to == kToTable ? 0x100u + action : 0x200u + to));
      deal(action);
      return;
    }
    public_hash = mix(public_hash ^ (0x400u + action));
    if (phase == kPlayPhase) {
      play(action);
    } else if (action == kDone) {
      end_turn();
    } else if (action == kBeginAdd || action == kBegin17) {
      begin(action == kBeginAdd ? kAdd : kSeventeen);
    } else if (action >= kChoose) {
      const int m = action - kChoose;
      picked_by = static_cast<int8_t>(actor_seat);
      if (m == kPair)
        phase = kPairPhase;
      else
        begin(m);
    } else if (action >= kPairWith && action < kBeginAdd) {
      const int kind = action - kPairWith;
      take_from_table(kind);
      ++caught[to_move][kind];
      paired = true;
      used |= 1 << kPair;
      if (sink) {
        const int8_t card = static_cast<int8_t>(kind);
        sink->caught(kPair, &card, 1);
      }
      after_catch();
    } else if (action >= kTake && action < kPairWith) {
      const int kind = action - kTake;
      take_from_table(kind);
      build[build_len++] = static_cast<int8_t>(kind);
      build_sum = static_cast<int8_t>(build_sum + kind % 10);
    } else {  // kClose
      for (int i = 0; i < build_len; ++i) ++caught[to_move][build[i]];
      used |= 1 << method;
      if (sink) sink->caught(method, build, build_len);
      method = -1;
      build_len = 0;
      build_sum = 0;
      after_catch();
    }
  }

  void take_from_table(int kind) {
    if (!--table[kind]) table_kinds &= ~(1ULL << kind);
    --tnum[kind % 10];
    tnum_key -= 1ULL << (4 * (kind % 10));
    --table_count;
  }

  void put_on_table(int kind) {
    ++table[kind];
    table_kinds |= 1ULL << kind;
    ++tnum[kind % 10];
    tnum_key += 1ULL << (4 * (kind % 10));
    ++table_count;
  }

  void deal(int kind) {
    const int to = queue[queue_pos++];
    --pile[kind];
    --pile_size;
    if (to == kToTable) {
      put_on_table(kind);
      if (sink) sink->table_deal(kind);
    } else {
      ++hands[to][kind];
      hand_kinds[to] |= 1ULL << kind;
      ++hand_count[to];
    }
    if (sink && queue_pos == queue_len) sink->deal_end(*this);
  }

  void play(int kind) {
    const int seat = to_move;
    if (!--hands[seat][kind]) hand_kinds[seat] &= ~(1ULL << kind);
    --hand_count[seat];
    played_round[seat][played_round_len[seat]++] = static_cast<int8_t>(kind);
    played = static_cast<int8_t>(kind);
    zero_required = tnum[0] > 0;
    if (sink) sink->play(*this);
    const int left = methods_left();
    if (!left) {  // safaru-4: a card that cannot catch is released
      end_turn();
    } else if (config.reverse && (left & (left - 1))) {  // safaru-7: the left neighbour picks the method
      phase = kPickPhase;
    } else if (config.reverse) {
      if (left == 1 << kPair)
        phase = kPairPhase;
      else
        begin(__builtin_ctz(left));
    } else {
      phase = kCatchPhase;
    }
  }

  void begin(int m) {
    method = static_cast<int8_t>(m);
    build_len = 0;
    build_sum = 0;
    phase = kBuildPhase;
  }

  // renversé: one method per catch; the main game goes on while another method could still catch
  void after_catch() {
    if (config.reverse || !methods_left())
      end_turn();
    else
      phase = kCatchPhase;
  }

  void end_turn() {
    const int seat = to_move;
    if (paired)
      ++caught[seat][played];
    else
      put_on_table(played);
    if (sink) sink->turn_end(*this);
    const int n = config.players;
    reset_turn();
    for (int step = 1; step <= n; ++step) {
      const int next = (seat + step) % n;
      if (hand_count[next]) {
        to_move = next;
        return;
      }
    }
    if (pile_size)
      new_round();
    else
      end_game();
  }

  // safaru-6/7: score the game; a target match goes on until a total reaches the target, otherwise the match is
  // the number of games agreed
  void end_game() {
    double scores[kMaxSeats];
    seat_scores(caught, config, scores);
    const int n = config.players;
    double top = totals[0] + scores[0];
    for (int s = 0; s < n; ++s) {
      totals[s] += scores[s];
      top = std::max(top, totals[s]);
    }
    ++ngames;
    // a view's replay (sink set) replays the game up to the live state's last action: it ends only if that did
    if (sink || (config.target ? top >= config.target : ngames >= config.games) || ngames >= kMaxGames) {
      finished = true;
      return;
    }
    uint64_t word = match_hash;
    for (int s = 0; s < n; ++s) {
      uint64_t low, high;
      pack(caught[s], low, high);
      word = mix(mix(word ^ low) ^ high);
    }
    uint64_t low, high;
    pack(table, low, high);
    match_hash = mix(mix(word ^ low) ^ high);
    auto result = std::make_shared<Result>();
    std::memcpy(result->caught, caught, sizeof caught);
    std::memcpy(result->left, table, sizeof table);
    result->previous = results;
    results = std::move(result);
    new_game();
  }

  // -- results -----------------------------------------------------------------------------------------------

  void current_scores(double *out) const { seat_scores(caught, config, out); }

  // match totals; before the end, the running game counted as if it ended now
  void returns(double *out) const {
    if (finished) {
      std::copy(totals, totals + config.players, out);
      return;
    }
    current_scores(out);
    for (int s = 0; s < config.players; ++s) out[s] = totals[s] + out[s];
  }

  // the best total (highest; lowest in renversé), ties sharing; a target match: the highest total among the
  // seats that reached the target.  None before the end.
  int winners(int *out) const {
    if (!finished) return 0;
    const int n = config.players;
    bool among[kMaxSeats];
    for (int s = 0; s < n; ++s) among[s] = true;
    bool reverse = config.reverse;
    if (config.target && !reverse) {
      bool any = false;
      for (int s = 0; s < n; ++s) any = any || totals[s] >= config.target;
      if (any)
        for (int s = 0; s < n; ++s) among[s] = totals[s] >= config.target;
    }
    double best = 0;
    bool seen = false;
    for (int s = 0; s < n; ++s)
      if (among[s] && (!seen || (reverse ? totals[s] < best : totals[s] > best))) {
        best = totals[s];
        seen = true;
      }
    int k = 0;
    for (int s = 0; s < n; ++s)
      if (among[s] && totals[s] == best) out[k++] = s;
    return k;
  }

  // -- hidden information ------------------------------------------------------------------------------------

  // game.py's resample: the other seats' hands and the pile dealt again from the cards `seat` cannot see, each
  // other seat getting a uniformly drawn hand of its size (hands are empty before every deal, so only this
  // deal's cards are hidden; the cards a seat played this deal are public and stay played)
  void resample(int seat, ludo::Rng &rng) {
    int8_t unseen[kKinds];
    std::memcpy(unseen, pile, kKinds);
    int pool = pile_size;
    const int n = config.players;
    for (int s = 0; s < n; ++s) {
      if (s == seat) continue;
      for (int k = 0; k < kKinds; ++k) unseen[k] = static_cast<int8_t>(unseen[k] + hands[s][k]);
      pool += hand_count[s];
    }
    for (int s = 0; s < n; ++s) {
      if (s == seat) continue;
      std::memset(hands[s], 0, kKinds);
      hand_kinds[s] = 0;
      for (int i = 0; i < hand_count[s]; ++i) {
        int pick = rng.below(pool--);
        int kind = 0;
        while ((pick -= unseen[kind]) >= 0) ++kind;
        --unseen[kind];
        ++hands[s][kind];
        hand_kinds[s] |= 1ULL << kind;
      }
    }
    std::memcpy(pile, unseen, kKinds);
  }

  // Everything `seat` has seen: this game's actions as the table saw them, the finished games, its own hand.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(public_hash);
    uint64_t low, high;
    pack(hands[seat], low, high);
    h.add(low);
    h.add(high ^ static_cast<uint64_t>(seat) << 60);
    return h.h;
  }

  // -- the heuristic (heuristics.py) -------------------------------------------------------------------------

  int heuristic(int seat, ludo::Rng &rng) const;
};

}  // namespace safaru

#include "safaru_heuristic.hpp"
