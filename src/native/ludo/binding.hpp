// The Python face of a compiled game state, the same for every game: the protocol's questions, a checked
// apply, determinization, the heuristic, playouts, the search and a batch of whole games.  A game's module.cpp
// entry adds its configuration and its view.  Checked calls raise ValueError: the Python wrapper
// (core/native.py) turns a refusal into the reference's own error by asking the reference path.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <tuple>
#include <vector>

#include "ludo/engine.hpp"
#include "ludo/search.hpp"

namespace nb = nanobind;

namespace ludo {

template <class S>
using Array = nb::ndarray<nb::numpy, double, nb::ndim<2>>;

template <class T>
nb::ndarray<nb::numpy, T> owned_array(std::vector<T> &&data, std::initializer_list<size_t> shape) {
  auto *heap = new std::vector<T>(std::move(data));
  nb::capsule owner(heap, [](void *p) noexcept { delete static_cast<std::vector<T> *>(p); });
  return nb::ndarray<nb::numpy, T>(heap->data(), shape.size(), shape.begin(), owner);
}

template <class S>
void check_seat(const S &s, int seat) {
  if (seat < 0 || seat >= s.players()) throw std::invalid_argument("seat out of range");
}

// every seat's share of random moves: one share for all, or one per seat
template <class S>
std::vector<double> shares(const S &s, const std::vector<double> &eps) {
  if (eps.size() != 1 && eps.size() != static_cast<size_t>(s.players()))
    throw std::invalid_argument("eps: one share for every seat, or one per seat");
  for (double e : eps)
    if (!(e >= 0 && e <= 1)) throw std::invalid_argument("eps: shares within [0, 1]");
  std::vector<double> out(kMaxActors, eps[0]);
  for (size_t i = 0; i < eps.size(); ++i) out[i] = eps[i];
  return out;
}

template <class S>
nb::ndarray<nb::numpy, double> playouts(const S &s, int n, const std::vector<double> &eps_given, uint64_t seed,
                                        int max_steps) {
  if (n < 0) throw std::invalid_argument("n >= 0");
  const std::vector<double> eps = shares(s, eps_given);
  std::vector<double> out(static_cast<size_t>(n) * s.players());
  Rng rng(seed);
  {
    nb::gil_scoped_release release;
    for (int i = 0; i < n; ++i) {
      S copy = s;
      play_out(copy, rng, eps.data(), max_steps);
      copy.returns(out.data() + static_cast<size_t>(i) * s.players());
    }
  }
  return owned_array(std::move(out), {static_cast<size_t>(n), static_cast<size_t>(s.players())});
}

template <class S, class Config>
std::pair<nb::ndarray<nb::numpy, double>, nb::ndarray<nb::numpy, int64_t>> simulate(
    const Config &config, int n, const std::vector<double> &eps_given, uint64_t seed, int max_steps) {
  if (n < 0) throw std::invalid_argument("n >= 0");
  const S initial(config);
  const std::vector<double> eps = shares(initial, eps_given);
  const int p = initial.players();
  std::vector<double> returns(static_cast<size_t>(n) * p);
  std::vector<int64_t> lengths(n);
  Rng rng(seed);
  {
    nb::gil_scoped_release release;
    for (int i = 0; i < n; ++i) {
      S s = initial;
      lengths[i] = play_out(s, rng, eps.data(), max_steps);
      s.returns(returns.data() + static_cast<size_t>(i) * p);
    }
  }
  return {owned_array(std::move(returns), {static_cast<size_t>(n), static_cast<size_t>(p)}),
          owned_array(std::move(lengths), {static_cast<size_t>(n)})};
}

template <class S>
nb::class_<S> bind_state(nb::module_ &m, const char *name) {
  nb::class_<S> cls(m, name);
  cls.def("clone", [](const S &s) { return S(s); })
      .def("players", &S::players)
      .def("is_terminal", &S::terminal)
      .def("is_chance_node", &S::chance)
      .def("chance_actions",
           [](const S &s) {
             int out[S::kMaxActions];
             const int k = s.chance() ? s.chance_outcomes(out) : 0;
             return std::vector<int>(out, out + k);
           })
      .def("current_players",
           [](const S &s) {
             int out[kMaxActors];
             const int k = s.terminal() || s.chance() ? 0 : s.actors(out);
             return std::vector<int>(out, out + k);
           })
      .def("legal_actions",
           [](const S &s, int seat) {
             check_seat(s, seat);
             int out[S::kMaxActions];
             const int k = s.terminal() || s.chance() ? 0 : s.legal(seat, out);
             return std::vector<int>(out, out + k);
           })
      .def("is_legal", [](const S &s, int seat, int action) { return seat >= 0 && seat < s.players() && s.is_legal(seat, action); })
      .def("is_chance_outcome", &S::is_chance_outcome)
      // a seat's move or chance's (seat -1); false, and nothing changed, when it is not legal here
      .def("play",
           [](S &s, int actor, int action) {
             if (actor == kChance) {
               if (!s.is_chance_outcome(action)) return false;
             } else if (actor < 0 || actor >= s.players() || !s.is_legal(actor, action)) {
               return false;
             }
             s.apply(actor, action);
             return true;
           })
      .def("returns",
           [](const S &s) {
             double out[kMaxActors];
             s.returns(out);
             return std::vector<double>(out, out + s.players());
           })
      .def("winners",
           [](const S &s) {
             int out[kMaxActors];
             const int k = s.winners(out);
             return std::vector<int>(out, out + k);
           })
      .def("resample",
           [](const S &s, int seat, uint64_t seed) {
             check_seat(s, seat);
             S twin = s;
             Rng rng(seed);
             twin.resample(seat, rng);
             return twin;
           })
      .def("heuristic",
           [](const S &s, int seat, uint64_t seed) {
             check_seat(s, seat);
             if (s.terminal() || s.chance()) throw std::invalid_argument("no decision here");
             int legal[S::kMaxActions];
             if (!s.legal(seat, legal)) throw std::invalid_argument("the seat does not act here");
             Rng rng(seed);
             return s.heuristic(seat, rng);
           })
      .def("info_key", [](const S &s, int seat) { return s.info_key(seat); })
      .def("playouts", &playouts<S>, nb::arg("n"), nb::arg("eps"), nb::arg("seed"), nb::arg("max_steps") = 100000)
      .def(
          "search",
          [](const S &s, int seat, int iterations, double eps, int max_steps, bool halving, uint64_t seed,
             double time_limit, bool determinize, nb::list pool, std::vector<double> weights) {
            check_seat(s, seat);
            if (s.terminal() || s.chance()) throw std::invalid_argument("no decision here");
            int legal[S::kMaxActions];
            if (!s.legal(seat, legal)) throw std::invalid_argument("the seat does not act here");
            if (!(eps >= 0 && eps <= 1)) throw std::invalid_argument("eps within [0, 1]");
            Ismcts<S> search;
            for (double &share : search.eps) share = eps;
            search.max_steps = max_steps;
            search.time_limit = time_limit;
            search.determinize = determinize;
            if (pool.size() != weights.size()) throw std::invalid_argument("one weight per pooled state");
            double total = 0;
            for (size_t i = 0; i < weights.size(); ++i) {
              if (!(weights[i] >= 0)) throw std::invalid_argument("weights are non-negative");
              total += weights[i];
              search.pool.push_back(&nb::cast<const S &>(pool[i]));
              search.cumulative.push_back(total);
            }
            if (!search.pool.empty() && !(total > 0)) throw std::invalid_argument("the pool's weights sum to 0");
            Rng rng(seed);
            SearchResult result;
            {
              nb::gil_scoped_release release;
              result = search.search(s, seat, iterations, rng, halving);
            }
            return std::make_tuple(result.chosen, result.actions, result.visits, result.iterations, result.nodes);
          },
          nb::arg("seat"), nb::arg("iterations"), nb::arg("eps"), nb::arg("max_steps"), nb::arg("halving"),
          nb::arg("seed"), nb::arg("time_limit") = 0.0, nb::arg("determinize") = true, nb::arg("pool") = nb::list(),
          nb::arg("weights") = std::vector<double>());
  return cls;
}

}  // namespace ludo
