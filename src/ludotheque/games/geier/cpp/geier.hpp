// Hol's der Geier, compiled: the same rules as game.py (DECISIONS geier-1..5), held to it by
// tests/native/test_native_engines.py.  Seat action c-1 plays card c (1..15); chance action i turns POINT_CARDS[i].
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ludo/engine.hpp"

namespace geier {

constexpr int kPointCards[15] = {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
constexpr uint16_t kFullHand = 0xFFFE;  // bits 1..15
constexpr uint16_t kAllPoints = 0x7FFF;  // bits 0..14
constexpr int kMaxSeats = 5;

struct Config {
  int players = 2;
  int tie_rule = 0;   // 0 cascade, 1 single (geier-3)
  int final_tie = 0;  // 0 next-best, 1 highest-mouse (geier-5)
  double spread = 0;  // the heuristic's spread (heuristics.py)
};

struct Round {
  int8_t pot[15];
  int8_t pot_len;
  int8_t played[kMaxSeats];
  int8_t taker;  // -1: nobody took the pot
};

struct State {
  static constexpr int kMaxActions = 15;

  Config config;
  uint16_t hands[kMaxSeats];
  uint16_t deck = kAllPoints;
  int8_t pot[15];
  int8_t pot_len = 0;
  int8_t chosen[kMaxSeats];
  int points[kMaxSeats];
  int8_t won[kMaxSeats][15];
  int8_t won_len[kMaxSeats];
  Round rounds[15];
  int8_t nrounds = 0;
  int8_t lost[15];
  int8_t lost_len = 0;
  bool awaiting_card = true;

  explicit State(const Config &c) : config(c) {
    for (int s = 0; s < kMaxSeats; ++s) {
      hands[s] = kFullHand;
      chosen[s] = 0;
      points[s] = 0;
      won_len[s] = 0;
    }
  }

  int players() const { return config.players; }
  int score_sign() const { return 1; }
  bool terminal() const { return awaiting_card && deck == 0; }
  bool chance() const { return awaiting_card && deck != 0; }

  int chance_outcomes(int *out) const {
    int k = 0;
    for (uint32_t m = deck; m; m &= m - 1) out[k++] = __builtin_ctz(m);
    return k;
  }
  int sample_chance(ludo::Rng &rng) const { return ludo::nth_bit(deck, rng.below(ludo::popcount(deck))); }

  int actors(int *out) const {
    if (awaiting_card) return 0;
    int k = 0;
    for (int s = 0; s < config.players; ++s)
      if (!chosen[s]) out[k++] = s;
    return k;
  }

  int legal(int seat, int *out) const {
    if (awaiting_card || chosen[seat]) return 0;
    int k = 0;
    for (uint32_t m = hands[seat] >> 1; m; m &= m - 1) out[k++] = __builtin_ctz(m);
    return k;
  }

  bool is_legal(int seat, int action) const {
    return !awaiting_card && !chosen[seat] && action >= 0 && action < 15 && (hands[seat] >> (action + 1) & 1);
  }
  bool is_chance_outcome(int action) const { return chance() && action >= 0 && action < 15 && (deck >> action & 1); }

  void apply(int actor, int action) {
    if (actor == ludo::kChance) {
      deck ^= static_cast<uint16_t>(1u << action);
      pot[pot_len++] = static_cast<int8_t>(kPointCards[action]);
      awaiting_card = false;
      return;
    }
    hands[actor] ^= static_cast<uint16_t>(2u << action);
    chosen[actor] = static_cast<int8_t>(action + 1);
    for (int s = 0; s < config.players; ++s)
      if (!chosen[s]) return;
    resolve_round();
  }

  // geier-3: the highest (lowest, for a negative pot) card played by exactly one seat takes the pot; cascade
  // looks past every tied value, single only past the tied best one.
  int pot_taker(int pot_sum) const {
    const int n = config.players;
    int order[kMaxSeats];
    int distinct = 0;
    for (int s = 0; s < n; ++s) {
      bool seen = false;
      for (int i = 0; i < distinct; ++i) seen = seen || order[i] == chosen[s];
      if (!seen) order[distinct++] = chosen[s];
    }
    if (pot_sum >= 0)
      std::sort(order, order + distinct, [](int a, int b) { return a > b; });
    else
      std::sort(order, order + distinct);
    if (config.tie_rule == 1 && distinct > 2) distinct = 2;
    for (int i = 0; i < distinct; ++i) {
      int count = 0, at = -1;
      for (int s = 0; s < n; ++s)
        if (chosen[s] == order[i]) {
          ++count;
          if (at < 0) at = s;
        }
      if (count == 1) return at;
    }
    return -1;
  }

  void resolve_round() {
    const int n = config.players;
    int pot_sum = 0;
    for (int i = 0; i < pot_len; ++i) pot_sum += pot[i];
    const int taker = pot_taker(pot_sum);
    Round &r = rounds[nrounds++];
    std::copy(pot, pot + pot_len, r.pot);
    r.pot_len = pot_len;
    std::copy(chosen, chosen + n, r.played);
    r.taker = static_cast<int8_t>(taker);
    if (taker >= 0) {
      points[taker] += pot_sum;
      for (int i = 0; i < pot_len; ++i) won[taker][won_len[taker]++] = pot[i];
      pot_len = 0;
    } else if (!deck) {
      std::copy(pot, pot + pot_len, lost);  // geier-4: nobody took the last pot
      lost_len = pot_len;
      pot_len = 0;
    }
    for (int s = 0; s < n; ++s) chosen[s] = 0;
    awaiting_card = true;
  }

  void returns(double *out) const {
    for (int s = 0; s < config.players; ++s) out[s] = points[s];
  }

  int best_mouse(int seat) const {
    int best = 0;
    for (int i = 0; i < won_len[seat]; ++i) best = std::max<int>(best, won[seat][i]);
    return best;
  }

  // geier-5; none before the end
  int winners(int *out) const {
    if (!terminal()) return 0;
    const int n = config.players;
    int top = points[0];
    for (int s = 1; s < n; ++s) top = std::max(top, points[s]);
    int leaders[kMaxSeats], nl = 0;
    for (int s = 0; s < n; ++s)
      if (points[s] == top) leaders[nl++] = s;
    if (nl == 1) {
      out[0] = leaders[0];
      return 1;
    }
    if (config.final_tie == 0) {  // next-best: the best score held by exactly one seat
      int best = -1;
      for (int s = 0; s < n; ++s) {
        int count = 0;
        for (int t = 0; t < n; ++t) count += points[t] == points[s];
        if (count == 1 && (best < 0 || points[s] > points[best])) best = s;
      }
      if (best < 0) return 0;
      out[0] = best;
      return 1;
    }
    int highest = 0;
    for (int i = 0; i < nl; ++i) highest = std::max(highest, best_mouse(leaders[i]));
    if (highest == 0) return 0;
    int k = 0;
    for (int i = 0; i < nl; ++i)
      if (best_mouse(leaders[i]) == highest) out[k++] = leaders[i];
    return k;
  }

  // Only the other seats' face-down cards of this round are hidden: each goes back to its hand and one is
  // drawn from it, uniformly (game.py's resample).
  void resample(int seat, ludo::Rng &rng) {
    for (int s = 0; s < config.players; ++s) {
      if (s == seat || !chosen[s]) continue;
      uint16_t hand = static_cast<uint16_t>(hands[s] | (1u << chosen[s]));
      const int card = ludo::nth_bit(hand, rng.below(ludo::popcount(hand)));
      hands[s] = static_cast<uint16_t>(hand & ~(1u << card));
      chosen[s] = static_cast<int8_t>(card);
    }
  }

  // heuristics.py: bid the card whose rank in hand matches the pot's rank among what is left
  int heuristic(int seat, ludo::Rng &rng) const {
    int pot_sum = 0;
    for (int i = 0; i < pot_len; ++i) pot_sum += pot[i];
    const int worth = std::abs(pot_sum);
    int below = 0, equal = 1, others = 0;
    for (uint32_t m = deck; m; m &= m - 1) {
      const int v = std::abs(kPointCards[__builtin_ctz(m)]);
      below += v < worth;
      equal += v == worth;
      ++others;
    }
    const double fraction = (below + (equal - 1) / 2.0) / std::max(1, others);
    const int cards = ludo::popcount(hands[seat]);
    const double position = fraction * (cards - 1);
    int index;
    if (config.spread == 0) {
      index = static_cast<int>(std::nearbyint(position));  // ties to even, as Python's round
    } else {
      double weights[15], total = 0;
      for (int i = 0; i < cards; ++i) {
        const double z = (i - position) / config.spread;
        total += weights[i] = std::exp(-0.5 * z * z);
      }
      double pick = rng.uniform() * total;
      index = cards - 1;
      for (int i = 0; i < cards; ++i) {
        pick -= weights[i];
        if (pick < 0) {
          index = i;
          break;
        }
      }
    }
    return ludo::nth_bit(hands[seat], index) - 1;
  }

  static uint64_t pack(const int8_t *cards, int len) {
    uint64_t word = 0;
    for (int i = 0; i < len; ++i) word = word << 4 | static_cast<uint64_t>(cards[i] + 5);
    return word;
  }

  // What the seat has seen: every resolved round, the pot, who has chosen, its own face-down card.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(static_cast<uint64_t>(seat) << 8 | static_cast<uint64_t>(awaiting_card));
    h.add(deck);
    for (int r = 0; r < nrounds; ++r) {
      uint64_t word = static_cast<uint8_t>(rounds[r].taker);
      for (int s = 0; s < config.players; ++s) word = word << 4 | static_cast<uint64_t>(rounds[r].played[s] & 15);
      h.add(word << 8 | static_cast<uint64_t>(rounds[r].pot_len));
      h.add(pack(rounds[r].pot, rounds[r].pot_len));
    }
    h.add(pack(pot, pot_len));
    uint64_t flags = static_cast<uint64_t>(chosen[seat]);
    for (int s = 0; s < config.players; ++s) flags = flags << 1 | (chosen[s] != 0);
    h.add(flags << 8 | static_cast<uint64_t>(pot_len));
    return h.h;
  }
};

}  // namespace geier
