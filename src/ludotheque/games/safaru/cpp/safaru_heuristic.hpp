// Safarü's heuristic (heuristics.py), compiled move for move: the same options in the same order (a walk over the
// table's kinds ascending, cut at 300), the same ranking (a stable sort by worth, the best 25 of each method), the
// same plan search and the same tie-breaks.  Worths are multiples of a half, so every sum is exact and the order
// of additions cannot change a comparison.  Included by safaru.hpp.
#pragma once

#include <array>
#include <limits>

namespace safaru {
namespace heuristic {

constexpr int kMaxOptions = 300;  // heuristics.MAX_OPTIONS
constexpr int kRanked = 25;       // best_plan keeps each method's 25 best options
constexpr int kMaxCards = 24;     // an option's cards: sums to at most 17, with at most 5 zeros and 10 ones

// heuristics.worth: what a caught card is worth to its catcher
inline double worth(int kind, bool reverse) {
  const int n = kind % 10, colour = kind / 10;
  if (reverse) return -(1.0 + kTriangles[n] + (colour == kYellow ? 1.5 : 0.0));
  double value = kTriangles[n];
  if (n == 0) value += kBabyMalus;
  if (colour == kBlue) value += 3.0;
  if (colour == kYellow) value -= 1.5;
  return value;
}

inline const double *values(bool reverse) {
  static const std::array<std::array<double, kKinds>, 2> table = [] {
    std::array<std::array<double, kKinds>, 2> t{};
    for (int r = 0; r < 2; ++r)
      for (int k = 0; k < kKinds; ++k) t[r][k] = worth(k, r == 1);
    return t;
  }();
  return table[reverse ? 1 : 0].data();
}

struct Option {
  int8_t kinds[kMaxCards];  // ascending
  int8_t len;
  double score;
};

struct Options {
  int count = 0;
  Option items[kMaxOptions];
};

// heuristics._subsets: the sub-multisets of the table summing to `need` that complete the fixed cards to a valid
// adding / seventeen set, in the order of the walk (each kind ascending, 0, 1, ... copies), at most 300
struct SubsetWalk {
  int kinds[kKinds], copies[kKinds], last = 0;
  int room[kKinds + 1];
  int fixed_len = 0;
  bool fixed_zero = false;
  int min_size = 0;
  bool zero_required = false;
  const double *value = nullptr;
  int8_t chosen[kMaxCards];
  int chosen_len = 0, chosen_zeros = 0;
  Options *out = nullptr;

  void walk(int i, int left) {
    if (out->count >= kMaxOptions) return;
    if (i == last) {
      if (left == 0 && fixed_len + chosen_len >= min_size && (!zero_required || fixed_zero || chosen_zeros > 0)) {
        Option &o = out->items[out->count++];
        o.len = static_cast<int8_t>(chosen_len);
        o.score = 0.0;
        for (int c = 0; c < chosen_len; ++c) {
          o.kinds[c] = chosen[c];
          o.score += value[chosen[c]];
        }
      }
      return;
    }
    if (left > room[i]) return;
    const int kind = kinds[i], number = kind % 10;
    const int len0 = chosen_len, zeros0 = chosen_zeros;
    for (int take = 0; take <= copies[i]; ++take) {
      if (take * number > left) break;
      if (take > 0) {
        chosen[chosen_len++] = static_cast<int8_t>(kind);
        chosen_zeros += number == 0;
      }
      walk(i + 1, left - take * number);
    }
    chosen_len = len0;
    chosen_zeros = zeros0;
  }
};

// heuristics.method_options: the options of `method` for a card numbered `played` (fixed: the cards already
// taken into the catch being built)
inline void method_options(int method, int played, const int8_t *table, uint64_t table_kinds, bool zero_required,
                           const int8_t *fixed, int fixed_len, const double *value, Options &out) {
  out.count = 0;
  if (method == kPair) {
    for (int kind = played; kind < kKinds; kind += 10)
      if (table[kind]) {
        Option &o = out.items[out.count++];
        o.kinds[0] = static_cast<int8_t>(kind);
        o.len = 1;
        o.score = value[kind];
      }
    return;
  }
  int need, min_size;
  method_target(method, played, need, min_size);
  bool fixed_zero = false;
  for (int i = 0; i < fixed_len; ++i) {
    need -= fixed[i] % 10;
    fixed_zero = fixed_zero || fixed[i] % 10 == 0;
  }
  if (need < 0) return;
  SubsetWalk w;
  for (uint64_t m = table_kinds; m; m &= m - 1) {
    const int kind = __builtin_ctzll(m);
    w.kinds[w.last] = kind;
    w.copies[w.last++] = table[kind];
  }
  w.room[w.last] = 0;
  for (int i = w.last - 1; i >= 0; --i) w.room[i] = w.room[i + 1] + w.kinds[i] % 10 * w.copies[i];
  w.fixed_len = fixed_len;
  w.fixed_zero = fixed_zero;
  w.min_size = min_size;
  w.zero_required = zero_required;
  w.value = value;
  w.out = &out;
  w.walk(0, need);
}

// heuristics.best_plan: the best disjoint choice of at most one option per method (at least one when mandatory);
// chosen[i] is the option of the i-th method given, -1 for none
struct Plan {
  double total = -std::numeric_limits<double>::infinity();
  int chosen[3] = {-1, -1, -1};
};

struct PlanSearch {
  int n = 0;
  const int *methods = nullptr;
  const Options *const *options = nullptr;
  const int8_t *table = nullptr;
  bool mandatory = false;
  double pair_bonus = 0;
  int ranked[3][kRanked];
  int ranked_len[3];
  int8_t taken[kKinds];
  int current[3];
  int picked = 0;
  Plan best;

  bool take(const Option &o) {
    int i = 0;
    for (; i < o.len; ++i)
      if (++taken[o.kinds[i]] > table[o.kinds[i]]) break;
    if (i == o.len) return true;
    for (int j = 0; j <= i; ++j) --taken[o.kinds[j]];
    return false;
  }

  void give_back(const Option &o) {
    for (int i = 0; i < o.len; ++i) --taken[o.kinds[i]];
  }

  void walk(int i, double total) {
    if (i == n) {
      if ((picked || !mandatory) && total > best.total) {
        best.total = total;
        for (int m = 0; m < n; ++m) best.chosen[m] = current[m];
      }
      return;
    }
    walk(i + 1, total);
    const Options &opts = *options[i];
    for (int r = 0; r < ranked_len[i]; ++r) {
      const Option &o = opts.items[ranked[i][r]];
      if (!take(o)) continue;
      current[i] = ranked[i][r];
      ++picked;
      walk(i + 1, total + o.score + (methods[i] == kPair ? pair_bonus : 0.0));
      --picked;
      current[i] = -1;
      give_back(o);
    }
  }
};

inline Plan best_plan(const int *methods, const Options *const *options, int n, const int8_t *table, bool mandatory,
                      double pair_bonus) {
  PlanSearch search;
  search.n = n;
  search.methods = methods;
  search.options = options;
  search.table = table;
  search.mandatory = mandatory;
  search.pair_bonus = pair_bonus;
  std::memset(search.taken, 0, sizeof search.taken);
  for (int i = 0; i < n; ++i) {
    const Options &opts = *options[i];
    // sorted(opts, key=score, reverse=True)[:25]: a stable sort, the best first (equal worths in their order)
    int order[kMaxOptions];
    for (int j = 0; j < opts.count; ++j) order[j] = j;
    const int keep = std::min(opts.count, kRanked);
    std::partial_sort(order, order + keep, order + opts.count, [&](int a, int b) {
      const double sa = opts.items[a].score, sb = opts.items[b].score;
      return sa > sb || (sa == sb && a < b);
    });
    search.ranked_len[i] = keep;
    std::copy(order, order + keep, search.ranked[i]);
    search.current[i] = -1;
  }
  search.walk(0, 0.0);
  return search.best;
}

// the first of the options with the best worth, or -1 for none
inline int first_best(const Options &opts) {
  int best = -1;
  for (int j = 0; j < opts.count; ++j)
    if (best < 0 || opts.items[j].score > opts.items[best].score) best = j;
  return best;
}

struct Workspace {
  Options options[3];
};

inline Workspace &workspace() {
  static thread_local Workspace space;
  return space;
}

// SafaruHeuristicBot._play: for every card held, the best catch it allows against the cost of releasing it
inline int play_choice(const State &s, const int *legal, int count, const double *value) {
  const bool reverse = s.config.reverse;
  const bool zero_required = s.tnum[0] > 0;
  Options *options = workspace().options;
  int best_kind = -1;
  double best_score = 0;
  for (int i = 0; i < count; ++i) {
    const int kind = legal[i], played = kind % 10;
    int methods[3];
    const Options *given[3];
    int n = 0;
    for (int m = 0; m < 3; ++m) {
      method_options(m, played, s.table, s.table_kinds, zero_required, nullptr, 0, value, options[m]);
      if (options[m].count) {
        methods[n] = m;
        given[n++] = &options[m];
      }
    }
    double score;
    if (!n) {
      // a release leaves the card to the others; a 0 released forces babies on them (safaru-3)
      score = -0.5 * value[kind] - (reverse ? 0.0 : 0.5) + (played == 0 && !reverse ? 1.0 : 0.0);
    } else if (reverse) {
      score = std::numeric_limits<double>::infinity();
      for (int j = 0; j < n; ++j) {
        const Options &opts = *given[j];
        const double method_score = opts.items[first_best(opts)].score + (methods[j] == kPair ? value[kind] : 0.0);
        score = std::min(score, method_score);
      }
    } else {
      score = best_plan(methods, given, n, s.table, true, value[kind]).total;
    }
    if (best_kind < 0 || score > best_score) {  // ties: the lowest kind
      best_kind = kind;
      best_score = score;
    }
  }
  return best_kind;
}

inline int choose(const State &s, const int *legal, int count) {
  const bool reverse = s.config.reverse;
  const double *value = values(reverse);
  if (s.phase == kPlayPhase) return play_choice(s, legal, count, value);
  const int played_kind = s.played, played = played_kind % 10;
  const bool zero_required = s.zero_required;
  Options *options = workspace().options;
  if (s.phase == kPickPhase) {  // the neighbour's choice: the method whose best catch is worst for the player
    int best_action = -1;
    double best_score = 0;
    for (int i = 0; i < count; ++i) {
      const int m = legal[i] - kChoose;
      method_options(m, played, s.table, s.table_kinds, zero_required, nullptr, 0, value, options[0]);
      const int top = first_best(options[0]);
      const double score = (top < 0 ? -std::numeric_limits<double>::infinity() : options[0].items[top].score) +
                           (m == kPair ? value[played_kind] : 0.0);
      if (best_action < 0 || score < best_score) {
        best_action = legal[i];
        best_score = score;
      }
    }
    return best_action;
  }
  int methods[3];
  const Options *given[3];
  int n = 0;
  if (s.phase == kBuildPhase) {
    const int current = s.method;
    method_options(current, played, s.table, s.table_kinds, zero_required, s.build, s.build_len, value, options[0]);
    methods[n] = current;
    given[n++] = &options[0];
    if (!reverse)
      for (int m = 0; m < 3; ++m)
        if (!(s.used >> m & 1) && m != current) {
          method_options(m, played, s.table, s.table_kinds, zero_required, nullptr, 0, value, options[n]);
          methods[n] = m;
          given[n] = &options[n];
          ++n;
        }
    const Plan plan = best_plan(methods, given, n, s.table, false, value[played_kind]);
    // the catch under way must be finished: the plan's option for it, or its best completion
    const int step = plan.chosen[0] >= 0 ? plan.chosen[0] : first_best(options[0]);
    if (step < 0 || options[0].items[step].len == 0) return kClose;
    return kTake + options[0].items[step].kinds[0];
  }
  if (s.phase == kPairPhase) {
    method_options(kPair, played, s.table, s.table_kinds, zero_required, nullptr, 0, value, options[0]);
    return kPairWith + options[0].items[first_best(options[0])].kinds[0];
  }
  for (int m = 0; m < 3; ++m)
    if (!(s.used >> m & 1)) {
      method_options(m, played, s.table, s.table_kinds, zero_required, nullptr, 0, value, options[n]);
      if (options[n].count) {
        methods[n] = m;
        given[n] = &options[n];
        ++n;
      }
    }
  const Plan plan = best_plan(methods, given, n, s.table, s.used == 0, value[played_kind]);
  int chosen[3] = {-1, -1, -1};  // by method: the plan's option
  int pair_card = -1;
  for (int i = 0; i < n; ++i) {
    chosen[methods[i]] = plan.chosen[i];
    if (methods[i] == kPair && plan.chosen[i] >= 0) pair_card = given[i]->items[plan.chosen[i]].kinds[0];
  }
  if (pair_card >= 0) return kPairWith + pair_card;
  if (chosen[kAdd] >= 0) return kBeginAdd;
  if (chosen[kSeventeen] >= 0) return kBegin17;
  return kDone;
}

}  // namespace heuristic

inline int State::heuristic(int seat, ludo::Rng &rng) const {
  int legal_actions[kMaxActions];
  const int count = legal(seat, legal_actions);
  if (!count) return -1;
  const int action = heuristic::choose(*this, legal_actions, count);
  int close = -1;
  for (int i = 0; i < count; ++i) {
    if (legal_actions[i] == action) return action;
    if (legal_actions[i] == kClose) close = kClose;
  }
  return close >= 0 ? close : legal_actions[rng.below(count)];
}

}  // namespace safaru
