// The search's inner loop, compiled for any game state S of engine.hpp's shape: playouts with the heuristic
// policy (a share eps of random moves), and ISMCTS as bots/ismcts.py runs it (PUCT with the heuristic's move as
// prior and availability counts, nodes keyed by the acting seat's information set, or sequential halving at the
// root).  Python chooses the budget and reads the visits; bots/ismcts.py is the reference it is measured against.
#pragma once

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <unordered_map>
#include <vector>

#include "ludo/engine.hpp"

namespace ludo {

constexpr double kExploration = 1.0;
constexpr double kPriorBias = 0.5;
constexpr double kWinWeight = 0.8;

// One rollout move of `seat`: forced, the heuristic's, or (a share eps) a uniform one.
template <class S>
int policy_move(const S &s, int seat, const int *legal, int count, Rng &rng, double eps) {
  if (count == 1) return legal[0];
  if (eps < 1.0 && rng.uniform() >= eps) {
    const int action = s.heuristic(seat, rng);
    for (int i = 0; i < count; ++i)
      if (legal[i] == action) return action;
  }
  return legal[rng.below(count)];
}

// Plays s on to the end (or max_steps seat moves), as bots/ismcts.py's _rollout: the seats acting at a decision
// move one after the other, seat i with its share eps[i] of random moves.  Returns the seat moves made.
template <class S>
int play_out(S &s, Rng &rng, const double *eps, int max_steps) {
  int steps = 0;
  int actors[kMaxActors];
  int legal[S::kMaxActions];
  while (steps < max_steps && !s.terminal()) {
    if (s.chance()) {
      s.apply(kChance, s.sample_chance(rng));
      continue;
    }
    const int acting = s.actors(actors);
    for (int i = 0; i < acting; ++i) {
      const int seat = actors[i];
      const int count = s.legal(seat, legal);
      s.apply(seat, policy_move(s, seat, legal, count, rng, eps[seat]));
      ++steps;
      if (s.terminal() || s.chance()) break;
    }
  }
  return steps;
}

// bots/ismcts.py's reward: mostly the win (a shared win split), the rest the points relative to the others'.
struct Evaluator {
  int sign = 1;
  bool solo_seen = false;
  double solo_low = 0, solo_high = 0;

  template <class S>
  void operator()(const S &s, double *out) {
    const int n = s.players();
    double points[kMaxActors];
    s.returns(points);
    double low = points[0], high = points[0];
    if (n == 1) {
      if (!solo_seen) solo_low = solo_high = points[0];
      solo_seen = true;
      solo_low = std::min(solo_low, points[0]);
      solo_high = std::max(solo_high, points[0]);
      low = solo_low;
      high = solo_high;
    } else {
      for (int i = 1; i < n; ++i) {
        low = std::min(low, points[i]);
        high = std::max(high, points[i]);
      }
    }
    const double spread = high - low;
    for (int i = 0; i < n; ++i) {
      double relative = spread == 0 ? 0.5 : (points[i] - low) / spread;
      out[i] = sign < 0 ? 1.0 - relative : relative;
    }
    if (!s.terminal()) return;
    int winners[kMaxActors];
    const int w = s.winners(winners);
    const double share = w ? 1.0 / w : 0.0;
    for (int i = 0; i < n; ++i) {
      bool won = false;
      for (int k = 0; k < w; ++k) won = won || winners[k] == i;
      out[i] = kWinWeight * (won ? share : 0.0) + (1 - kWinWeight) * out[i];
    }
  }
};

struct SearchResult {
  std::vector<int> actions;
  std::vector<int> visits;
  int iterations = 0;
  int nodes = 0;
  int chosen = -1;
};

// The CPU time of the searching thread: a level's budget is seconds of CPU (bots/levels.py), the same on a busy
// server as on an idle one, and other threads' work (another table's search) does not count against it.
inline double thread_cpu_seconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

template <class S>
class Ismcts {
 public:
  double eps[kMaxActors] = {0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15};
  int max_steps = 400;
  double time_limit = 0;  // seconds of the thread's CPU; 0: the iterations only
  // false: every iteration walks the state it was given (the oracle's perfect-information search, a measurement
  // only: bots at a table always determinize)
  bool determinize = true;
  // Weighted determinizations chosen in Python (bots/inference.py: hands weighted by how likely the other seats'
  // moves were under a model of them): each iteration draws one by weight instead of resampling.  The states
  // belong to the caller and outlive the search.
  std::vector<const S *> pool;
  std::vector<double> cumulative;  // running sums of the pool's weights

  SearchResult search(const S &truth, int seat, int iterations, Rng &rng, bool halving) {
    evaluate_.sign = truth.score_sign();
    int legal[S::kMaxActions];
    const int count = truth.legal(seat, legal);
    SearchResult result;
    result.actions.assign(legal, legal + count);
    result.visits.assign(count, 0);
    if (count == 1) {
      result.chosen = legal[0];
      return result;
    }
    start_ = thread_cpu_seconds();
    if (halving)
      run_halving(truth, seat, iterations, rng, result);
    else
      run_tree(truth, seat, iterations, rng, result);
    return result;
  }

 private:
  struct Stat {
    int action;
    double n, w, available;
  };
  struct Node {
    std::vector<Stat> stats;
    int hint = -1;
  };

  std::unordered_map<uint64_t, Node> tree_;
  Evaluator evaluate_;
  double start_ = 0;

  // The iteration's determinization: one of the pool by weight, a resample of the truth, or (the oracle) the truth.
  S drawn(const S &truth, int seat, Rng &rng) const {
    if (!pool.empty()) {
      const double u = rng.uniform() * cumulative.back();
      const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
      return *pool[std::min<size_t>(static_cast<size_t>(at), pool.size() - 1)];
    }
    S state = truth;
    if (determinize) state.resample(seat, rng);
    return state;
  }

  bool out_of_time(int done) const {
    return time_limit > 0 && done > 0 && thread_cpu_seconds() - start_ >= time_limit;
  }

  static Stat &entry(Node &node, int action) {
    for (auto &stat : node.stats)
      if (stat.action == action) return stat;
    node.stats.push_back({action, 0, 0, 0});
    return node.stats.back();
  }

  // ``Q + c P(a) sqrt(availability) / (1 + n)``, untried actions valued at the mean of the tried (bots/ismcts.py)
  static int puct(Node &node, const int *legal, int count) {
    double visits = 0, total = 0;
    Stat *entries[S::kMaxActions];
    for (int i = 0; i < count; ++i) {
      entries[i] = &entry(node, legal[i]);
      visits += entries[i]->n;
      total += entries[i]->w;
    }
    const double fpu = visits > 0 ? total / visits : 0.5;
    const double bias = node.hint >= 0 ? kPriorBias : 0.0;
    const double spread = kExploration * (1.0 - bias) / count;
    const double boosted = spread + kExploration * bias;
    int best = legal[0];
    double best_score = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
      const Stat &s = *entries[i];
      const double prior = legal[i] == node.hint ? boosted : spread;
      const double score = (s.n > 0 ? s.w / s.n : fpu) + prior * std::sqrt(s.available) / (1.0 + s.n);
      if (score > best_score) {
        best_score = score;
        best = legal[i];
      }
    }
    return best;
  }

  void run_tree(const S &truth, int root_seat, int iterations, Rng &rng, SearchResult &result) {
    tree_.clear();
    Node &root = tree_[truth.info_key(root_seat)];
    int done = 0;
    int legal[S::kMaxActions];
    double rewards[kMaxActors];
    struct Step {
      Node *node;
      int action, seat;
    };
    std::vector<Step> path;
    while (done < iterations && !out_of_time(done)) {
      S state = drawn(truth, root_seat, rng);
      if (root.hint < 0) root.hint = state.heuristic(root_seat, rng);
      Node *node = &root;
      int seat = root_seat;
      int count = state.legal(seat, legal);
      path.clear();
      while (true) {
        for (int i = 0; i < count; ++i) entry(*node, legal[i]).available += 1;
        const int action = puct(*node, legal, count);
        const bool untried = entry(*node, action).n == 0;
        path.push_back({node, action, seat});  // nodes are stable in the map; their stats vectors may grow
        state.apply(seat, action);
        if (untried) break;
        bool decision = false;
        int actors[kMaxActors];
        while (!state.terminal()) {
          if (state.chance()) {
            state.apply(kChance, state.sample_chance(rng));
            continue;
          }
          state.actors(actors);
          seat = actors[0];
          count = state.legal(seat, legal);
          if (count > 1) {
            decision = true;
            break;
          }
          state.apply(seat, legal[0]);
        }
        if (!decision) break;
        auto [it, fresh] = tree_.try_emplace(state.info_key(seat));
        if (fresh) it->second.hint = state.heuristic(seat, rng);
        node = &it->second;
      }
      play_out(state, rng, eps, max_steps);
      evaluate_(state, rewards);
      for (const Step &step : path) {
        Stat &stat = entry(*step.node, step.action);
        stat.n += 1;
        stat.w += rewards[step.seat];
      }
      ++done;
    }
    result.iterations = done;
    result.nodes = static_cast<int>(tree_.size());
    int best = -1;
    for (size_t i = 0; i < result.actions.size(); ++i) {
      for (auto &stat : root.stats)
        if (stat.action == result.actions[i]) result.visits[i] = static_cast<int>(stat.n);
      if (best < 0 || result.visits[i] > result.visits[best]) best = static_cast<int>(i);
    }
    result.chosen = result.visits[best] > 0 ? result.actions[best] : truth_hint(truth, root_seat, rng);
  }

  static int truth_hint(const S &truth, int seat, Rng &rng) { return truth.heuristic(seat, rng); }

  // Flat Monte Carlo at the root spent by sequential halving over paired determinizations (bots/ismcts.py).
  void run_halving(const S &truth, int seat, int iterations, Rng &rng, SearchResult &result) {
    const int hint = truth.heuristic(seat, rng);
    const int count = static_cast<int>(result.actions.size());
    std::vector<double> sums(count, 0.0);
    std::vector<int> plays(count, 0);
    std::vector<int> candidates(count);
    for (int i = 0; i < count; ++i) candidates[i] = i;
    double rewards[kMaxActors];
    int done = 0;
    auto rank_less = [&](int a, int b) {
      const double ma = sums[a] / plays[a], mb = sums[b] / plays[b];
      if (ma != mb) return ma > mb;
      const bool ha = result.actions[a] == hint, hb = result.actions[b] == hint;
      if (ha != hb) return ha;
      return result.actions[a] < result.actions[b];
    };
    bool stopped = false;
    while (candidates.size() > 1 && done < iterations && !stopped) {
      const int k = static_cast<int>(candidates.size());
      const int rounds_left = std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(k)))));
      const int samples = std::max(1, (iterations - done) / (k * rounds_left));
      for (int n = 0; n < samples; ++n) {
        if (out_of_time(done)) {
          stopped = true;
          break;
        }
        S determinization = drawn(truth, seat, rng);
        const uint64_t seed = rng.next();
        for (int index : candidates) {
          S state = determinization;
          state.apply(seat, result.actions[index]);
          Rng paired(seed);
          play_out(state, paired, eps, max_steps);
          evaluate_(state, rewards);
          sums[index] += rewards[seat];
          plays[index] += 1;
          ++done;
        }
      }
      bool all_played = true;
      for (int index : candidates) all_played = all_played && plays[index] > 0;
      if (!all_played) break;
      std::sort(candidates.begin(), candidates.end(), rank_less);
      candidates.resize((candidates.size() + 1) / 2);
    }
    result.iterations = done;
    for (int i = 0; i < count; ++i) result.visits[i] = plays[i];
    int best = -1;
    for (int index : candidates)
      if (plays[index] > 0 && (best < 0 || rank_less(index, best))) best = index;
    result.chosen = best >= 0 ? result.actions[best] : hint;
  }
};

}  // namespace ludo
