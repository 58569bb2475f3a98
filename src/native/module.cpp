// ludotheque._native: one extension for every compiled game.  CMakeLists.txt finds each game's
// games/<id>/cpp/<id>.cpp, which defines bind_<id>, and lists them in games.inc.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

#define LUDO_GAME(id) void bind_##id(nb::module_ &m);
#include "games.inc"
#undef LUDO_GAME

NB_MODULE(_native, m) {
  m.doc() = "ludotheque's compiled engines (docs/architecture.md, 'The native core')";
  nb::list games;
#define LUDO_GAME(id)   \
  bind_##id(m);         \
  games.append(#id);
#include "games.inc"
#undef LUDO_GAME
  m.attr("games") = games;
}
