// heuristics.py's RummuHeuristicBot, compiled, with the same candidates in the same order and the same tie-breaks;
// its one random choice (among the equally loose discards) goes through `choose`, a uniform pick in a playout.
#pragma once

#include <algorithm>

namespace rummu {

struct Combo {
  int8_t cards[kMaxCombo];
  int8_t len;
};

// heuristics._run_card: what a one-colour run of `col` holds at number n: the natural, else the joker, else -1
inline int run_card(int col, int n, uint64_t avail, uint64_t fixed) {
  const int natural = col * 10 + n, joker = kYellow * 10 + n;
  if ((fixed >> natural & 1) || ((avail >> natural & 1) && !(fixed >> joker & 1))) return natural;
  if (avail >> joker & 1) return joker;
  return -1;
}

// heuristics._first_multicolour: the first run (colours ascending, number by number) over first.. with no colour
// twice, each number's colours among the bits of options
inline bool first_multicolour(int first, const int *options, int count, int at, int used, int8_t *chosen) {
  if (at == count) return true;
  const int bits = options[at] & ~used;
  for (int col = 0; col < kColours; ++col)
    if (bits >> col & 1) {
      chosen[at] = static_cast<int8_t>(col * 10 + first + at);
      if (first_multicolour(first, options, count, at + 1, used | 1 << col, chosen)) return true;
    }
  return false;
}

// heuristics._candidates: the valid combinations of the cards of `avail` (holding `fixed`) that contain `fixed`:
// the sets of each number (colours ascending), then by span of numbers the one-colour runs (red, green, blue,
// black) and, up to five numbers, the first multicolour run
inline int candidates(uint64_t avail, uint64_t fixed, Combo *out) {
  int k = 0;
  int fixed_numbers = 0;
  int forced[10] = {};  // per number, the colours of the fixed cards
  for (uint64_t m = fixed; m; m &= m - 1) {
    const int card = __builtin_ctzll(m);
    fixed_numbers |= 1 << (card % 10);
    forced[card % 10] |= 1 << (card / 10);
  }
  int column[10];  // per number, the colours available
  for (int n = 0; n < 10; ++n) {
    column[n] = 0;
    for (int c = 0; c < kColours; ++c)
      if (avail >> (c * 10 + n) & 1) column[n] |= 1 << c;
  }
  if (__builtin_popcount(fixed_numbers) <= 1) {  // a set holds one number
    for (int n = 0; n < 10; ++n) {
      if (fixed_numbers && !(fixed_numbers >> n & 1)) continue;
      int cols[kColours], ncols = 0;
      for (int c = 0; c < kColours; ++c)
        if (column[n] >> c & 1) cols[ncols++] = c;
      for (int size = 3; size <= ncols; ++size) {
        // itertools.combinations(cols, size), in lexicographic order
        int idx[kColours];
        for (int i = 0; i < size; ++i) idx[i] = i;
        while (true) {
          uint64_t mask = 0;
          Combo combo;
          combo.len = static_cast<int8_t>(size);
          for (int i = 0; i < size; ++i) {
            combo.cards[i] = static_cast<int8_t>(cols[idx[i]] * 10 + n);
            mask |= bit(combo.cards[i]);
          }
          if (!(fixed & ~mask)) out[k++] = combo;
          int i = size - 1;
          while (i >= 0 && idx[i] == i + ncols - size) --i;
          if (i < 0) break;
          ++idx[i];
          for (int r = i + 1; r < size; ++r) idx[r] = idx[r - 1] + 1;
        }
      }
    }
  }
  constexpr int kRunColours[4] = {0, 2, 3, 4};  // yellow cards are the runs' jokers
  // the runs by span (a * 10 + b), in the order found: the colours' one-colour runs, then the multicolour one
  struct Entry {
    int8_t key, a, len, row;
  };
  Entry entries[512];
  int8_t multi[100][5];
  int ne = 0;
  int fill[4][10];
  for (int r = 0; r < 4; ++r)
    for (int n = 0; n < 10; ++n) fill[r][n] = run_card(kRunColours[r], n, avail, fixed);
  for (int r = 0; r < 4; ++r)
    for (int a = 0; a < 8; ++a) {
      if (fill[r][a] < 0) continue;
      int jokers = 0;
      uint64_t bits = 0;
      for (int b = a; b < 10; ++b) {
        const int card = fill[r][b];
        if (card < 0) break;
        if (is_joker(card)) ++jokers;
        bits |= bit(card);
        if (b >= a + 2 && 2 * jokers < b - a + 1 && !(fixed & ~bits))
          entries[ne++] = {static_cast<int8_t>(a * 10 + b), static_cast<int8_t>(a), static_cast<int8_t>(b - a + 1),
                           static_cast<int8_t>(r)};
      }
    }
  bool multicolour = true;  // a run holds one card of a number: two fixed cards of one number leave none
  int options[10];
  for (int n = 0; n < 10; ++n) {
    multicolour = multicolour && !(forced[n] & (forced[n] - 1));
    options[n] = forced[n] ? forced[n] : column[n];
  }
  if (multicolour) {
    const int low_fixed = fixed_numbers ? __builtin_ctz(fixed_numbers) : 10;
    const int high_fixed = fixed_numbers ? 31 - __builtin_clz(fixed_numbers) : -1;
    int reach[11];  // from each number on, the first without any card (10: none missing)
    reach[10] = 10;
    for (int n = 9; n >= 0; --n) reach[n] = options[n] ? reach[n + 1] : n;
    for (int a = 0; a < std::min(8, low_fixed + 1); ++a)
      for (int b = std::max(a + 2, high_fixed); b < std::min(a + 5, reach[a]); ++b) {
        int8_t chosen[5];
        if (first_multicolour(a, options + a, b - a + 1, 0, 0, chosen)) {
          std::memcpy(multi[a * 10 + b], chosen, b - a + 1);
          entries[ne++] = {static_cast<int8_t>(a * 10 + b), static_cast<int8_t>(a), static_cast<int8_t>(b - a + 1),
                           -1};
        }
      }
  }
  std::stable_sort(entries, entries + ne, [](const Entry &x, const Entry &y) { return x.key < y.key; });
  for (int i = 0; i < ne; ++i) {
    const Entry &e = entries[i];
    Combo combo;
    combo.len = e.len;
    for (int j = 0; j < e.len; ++j)
      combo.cards[j] = e.row < 0 ? multi[static_cast<int>(e.key)][j] : static_cast<int8_t>(fill[e.row][e.a + j]);
    out[k++] = combo;
  }
  return k;
}

// heuristics.best_combo: the best combination holding `partial` (mask `fixed`, `laid` cards) with at most `spare`
// cards of the hand `avail`: more cards, then more points, then fewer jokers; the first of equals
inline bool best_combo(uint64_t avail, uint64_t fixed, int laid, int need, int spare, Combo &best) {
  static thread_local Combo found[512];
  const int count = candidates(avail | fixed, fixed, found);
  bool any = false;
  int best_len = -1, best_points = -1, best_jokers = 0;
  for (int i = 0; i < count; ++i) {
    const Combo &c = found[i];
    if (c.len < need || c.len - laid > spare) continue;
    const int points = combo_points(c.cards, c.len);
    int jokers = 0;
    for (int j = 0; j < c.len; ++j) jokers -= is_joker(c.cards[j]);
    if (c.len > best_len || (c.len == best_len && (points > best_points ||
                                                    (points == best_points && jokers > best_jokers)))) {
      best = c;
      best_len = c.len;
      best_points = points;
      best_jokers = jokers;
      any = true;
    }
  }
  return any;
}

inline bool combo_holds(const Combo &c, int card) {
  for (int j = 0; j < c.len; ++j)
    if (c.cards[j] == card) return true;
  return false;
}

// heuristics.connectivity: how many natural cards of the hand could share a combination with `card`
inline int connectivity(int card, const int8_t *counts) {
  const int n = card % 10, col = card / 10;
  int score = 0;
  for (int other = 0; other < kTypes; ++other) {
    if (!counts[other] || other == card || is_joker(other)) continue;
    const int m = other % 10, c = other / 10;
    const int d = m > n ? m - n : n - m;
    if (m == n && c != col)
      score += 2;
    else if (d <= 2 && (col == c || col == kYellow))
      score += d == 1 ? 2 : 1;
  }
  return score;
}

template <class Choose>
int State::heuristic_with(int seat, Choose choose) const {
  int legal_actions[kMaxActions];
  const int count = legal(seat, legal_actions);
  auto has = [&](int action) {
    for (int i = 0; i < count; ++i)
      if (legal_actions[i] == action) return true;
    return false;
  };
  const uint64_t held = hand_mask(seat);
  const int size = sizes[seat];
  const int need = need_of(seat);
  if (phase == kDrawPhase) {
    // take discards only to lay one of them this very turn: the fewest top cards that complete a combination
    for (int k = 1; k <= std::min(discard_len, 10); ++k) {
      if (!has(kTake + k - 1)) break;
      uint64_t with = held;
      for (int i = discard_len - k; i < discard_len; ++i) with |= bit(discard[i]);
      Combo plan;
      if (best_combo(with, 0, 0, need, size + k - 1, plan) && combo_holds(plan, discard[discard_len - k]))
        return kTake + k - 1;
    }
    // once opened, the top discard when it fits a table combination
    bool fits = false;
    if (discard_len)
      for (int j = 0; j < ncombos; ++j) fits = fits || (extend[j] >> discard[discard_len - 1] & 1);
    if (fits && opened[seat] && has(kTake)) return kTake;
    return kDraw;
  }
  if (partial_len) {
    uint64_t fixed = 0;
    for (int i = 0; i < partial_len; ++i) fixed |= bit(partial[i]);
    Combo plan;
    if (best_combo(held, fixed, partial_len, need, size - 1, plan)) {
      if (plan.len == partial_len && has(kClose)) return kClose;
      for (int j = 0; j < plan.len; ++j)
        if (!(fixed >> plan.cards[j] & 1) && has(kAdd + plan.cards[j])) return kAdd + plan.cards[j];
    }
    return has(kClose) ? kClose : kCancel;
  }
  Combo plan;
  // the bot's own bound, not a rule (rummu-11): a plan it had to cancel would be planned again the same way
  if (best_combo(held, 0, 0, need, size - 1, plan) && has(kStart + plan.cards[0]) && cancels < kMaxRetries)
    return kStart + plan.cards[0];
  for (int i = 0; i < count; ++i)
    if (legal_actions[i] >= kPut && legal_actions[i] < kSwap) return legal_actions[i];
  if (size >= 3)
    for (int i = 0; i < count; ++i)
      if (legal_actions[i] >= kSwap) return legal_actions[i];
  uint64_t fits_table = 0;
  for (int j = 0; j < ncombos; ++j) fits_table |= extend[j];
  // the loosest card; among equals, one that cannot feed a table combination, then the costlier yellow
  int lowest = 1 << 30;
  int ties[kTypes], nties = 0;
  for (int i = 0; i < count; ++i) {
    const int action = legal_actions[i];
    if (action < kDiscard || action >= kPut) continue;
    const int card = action - kDiscard;
    const int value = connectivity(card, hands[seat]) * 4 + (fits_table >> card & 1) * 2 + (is_joker(card) ? 0 : 1);
    if (value < lowest) {
      lowest = value;
      nties = 0;
    }
    if (value == lowest) ties[nties++] = action;
  }
  if (!nties) return choose(legal_actions, count);
  return choose(ties, nties);  // random among equals: it breaks cycles of two such bots
}

}  // namespace rummu
