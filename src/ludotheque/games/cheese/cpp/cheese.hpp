// Cheese Rescue, compiled: the same rules as game.py and rules.py (DECISIONS cheese-1..5, all-2), the heuristic
// of heuristics.py move for move, held to them by tests/native/test_native_cheese.py.
//
// The board is game.py's frame of F x F cells, F = 2N - 1, centred on the start card (2 and 4 players) or on the
// first card placed (3 players).  Seat action kind * F*F + cell places a card of that kind (dog, cat, mouse,
// cheese 1..3) from the hand; chance action a gives the next drawn animal (dog, cat, mouse) to the seat that
// draws.  Identical animals are one outcome weighted by how many are left (game.py's merged draws).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "ludo/engine.hpp"

namespace cheese {

constexpr int kDog = 0, kCat = 1, kMouse = 2, kCheese1 = 3, kCheese3 = 5;
constexpr int kKinds = 6;
constexpr int kStart = 6;
constexpr int kEmpty = -1;
constexpr int kAnimals = 3;
constexpr int kMaxSeats = 4;
constexpr int kPlacements = 12;       // cheese-3: every seat places 12 cards
constexpr int kDealtAnimals = 2;      // cheese-4: two animals each before the first turn
constexpr int kMaxFrame = 13;         // 4 players: 2 * 7 - 1
constexpr int kMaxCells = kMaxFrame * kMaxFrame;
constexpr int kAllAnimals[kAnimals] = {6, 12, 18};  // cheese-1
constexpr int kCheeseSet[3] = {3, 2, 1};            // cheese-1: cheeses worth 1, 2, 3 per seat

// heuristics.py's survival estimates
constexpr double kExposed = 0.72;
constexpr double kEaten = 0.12;
constexpr double kInHand = 0.45;

inline int value_of(int kind) { return kind >= kCheese1 ? kind - kCheese1 + 1 : 0; }
inline bool is_cheese(int kind) { return kind >= kCheese1 && kind <= kCheese3; }

// cheese-1: the animals set aside by player count
inline int set_aside(int players, int animal) {
  static constexpr int table[3][kAnimals] = {{3, 6, 9}, {2, 3, 4}, {0, 0, 0}};
  return table[players - 2][animal];
}
inline int side_of(int players) { return players + 3; }  // cheese-2: 5, 6, 7
inline bool has_start_card(int players) { return players != 3; }  // cheese-2

// The cells sharing a side with each cell of a frame (cheese-3, cheese-5), in rules.neighbours' order.
struct Near {
  int8_t count[kMaxCells];
  int16_t cell[kMaxCells][4];
};

inline const Near &neighbours(int frame) {
  static Near tables[3];
  static bool made[3] = {false, false, false};
  const int index = (frame - 9) / 2;
  if (!made[index]) {
    Near &t = tables[index];
    for (int c = 0; c < frame * frame; ++c) {
      const int row = c / frame, col = c % frame;
      int k = 0;
      if (row > 0) t.cell[c][k++] = static_cast<int16_t>(c - frame);
      if (col > 0) t.cell[c][k++] = static_cast<int16_t>(c - 1);
      if (col < frame - 1) t.cell[c][k++] = static_cast<int16_t>(c + 1);
      if (row < frame - 1) t.cell[c][k++] = static_cast<int16_t>(c + frame);
      t.count[c] = static_cast<int8_t>(k);
    }
    made[index] = true;
  }
  return tables[index];
}

// kExposed ** k as Python computes it (float ** int calls the C library's pow; k = 0 gives 1.0 exactly): called
// at run time, not folded by the compiler, so that both engines read the very same doubles
inline const double *exposed_powers() {
  static const double *table = [] {
    static double t[5];
    volatile double base = kExposed;
    t[0] = 1.0;
    for (int k = 1; k < 5; ++k) t[k] = std::pow(base, static_cast<double>(k));
    return t;
  }();
  return table;
}

struct Config {
  int players = 2;
};

// 169 bits: the frontier (empty cells sharing a side with a card), read in ascending order
struct CellSet {
  uint64_t w[3] = {0, 0, 0};
  void set(int c) { w[c >> 6] |= 1ULL << (c & 63); }
  void clear(int c) { w[c >> 6] &= ~(1ULL << (c & 63)); }
  bool has(int c) const { return (w[c >> 6] >> (c & 63)) & 1ULL; }
};

inline uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// cheese-5's cascade: every cat next to a dog goes; then every mouse next to a cat that stayed; then every cheese
// next to a mouse that stayed, each step all at once.  Marks the removed cells (1 cat, 2 mouse, 3 cheese).
inline void cascade(const int8_t *cells, int frame, int8_t *removed) {
  const Near &near = neighbours(frame);
  const int size = frame * frame;
  std::memset(removed, 0, size);
  for (int i = 0; i < size; ++i) {
    if (cells[i] != kCat) continue;
    for (int k = 0; k < near.count[i]; ++k)
      if (cells[near.cell[i][k]] == kDog) {
        removed[i] = 1;
        break;
      }
  }
  for (int i = 0; i < size; ++i) {
    if (cells[i] != kMouse) continue;
    for (int k = 0; k < near.count[i]; ++k) {
      const int j = near.cell[i][k];
      if (cells[j] == kCat && !removed[j]) {
        removed[i] = 2;
        break;
      }
    }
  }
  for (int i = 0; i < size; ++i) {
    if (!is_cheese(cells[i])) continue;
    for (int k = 0; k < near.count[i]; ++k) {
      const int j = near.cell[i][k];
      if (cells[j] == kMouse && !removed[j]) {
        removed[i] = 3;
        break;
      }
    }
  }
}

struct State {
  // the most legal placements at once: a kind of each of the six by every cell
  static constexpr int kMaxActions = kKinds * kMaxCells;

  Config config;
  int side = 5, frame = 9, size = 81, centre = 40;
  int8_t cells[kMaxCells];   // the kind on each cell (kStart, kEmpty)
  int8_t owners[kMaxCells];  // who placed it (-1: the start card, empty)
  int8_t hands[kMaxSeats][kKinds];
  int8_t pile[kAnimals];
  int pile_total = 0;
  int8_t queue[2 * kMaxSeats];  // the seats that draw next (game.py's to_draw)
  int8_t queue_pos = 0, queue_len = 0;
  int turn = 0;  // all-2: seat 0 starts
  int8_t placed[kMaxSeats];
  int16_t order[kMaxSeats * kPlacements][3];  // (cell, kind, seat) in placement order
  int norder = 0;
  CellSet frontier;
  bool has_box = false;
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;  // rows and columns spanned by the cards
  int points[kMaxSeats];               // cheese-5, once terminal
  int cheese_cards[kMaxSeats];
  uint64_t public_hash = 0;  // every placement so far (the draws' seats follow from them; the animals are hidden)

  explicit State(const Config &c) : config(c) {
    const int n = c.players;
    side = side_of(n);
    frame = 2 * side - 1;
    size = frame * frame;
    centre = (frame / 2) * frame + frame / 2;
    std::memset(cells, kEmpty, sizeof cells);
    std::memset(owners, -1, sizeof owners);
    std::memset(hands, 0, sizeof hands);
    for (int s = 0; s < n; ++s)
      for (int v = 0; v < 3; ++v) hands[s][kCheese1 + v] = static_cast<int8_t>(kCheeseSet[v]);
    pile_total = 0;
    for (int a = 0; a < kAnimals; ++a) {
      pile[a] = static_cast<int8_t>(kAllAnimals[a] - set_aside(n, a));
      pile_total += pile[a];
    }
    // cheese-4: two animals each, seat 0 first, round after round
    queue_len = 0;
    for (int r = 0; r < kDealtAnimals; ++r)
      for (int s = 0; s < n; ++s) queue[queue_len++] = static_cast<int8_t>(s);
    std::memset(placed, 0, sizeof placed);
    std::memset(points, 0, sizeof points);
    std::memset(cheese_cards, 0, sizeof cheese_cards);
    public_hash = mix(static_cast<uint64_t>(n));
    if (has_start_card(n)) put(centre, kStart, -1);
  }

  int players() const { return config.players; }
  int score_sign() const { return 1; }
  bool terminal() const { return norder == kPlacements * config.players; }
  bool chance() const { return queue_pos < queue_len; }

  // -- the board ---------------------------------------------------------------------------------------------

  void put(int cell, int kind, int seat) {
    cells[cell] = static_cast<int8_t>(kind);
    owners[cell] = static_cast<int8_t>(seat);
    frontier.clear(cell);
    const Near &near = neighbours(frame);
    for (int k = 0; k < near.count[cell]; ++k) {
      const int j = near.cell[cell][k];
      if (cells[j] == kEmpty) frontier.set(j);
    }
    const int row = cell / frame, col = cell % frame;
    if (!has_box) {
      has_box = true;
      r0 = r1 = row;
      c0 = c1 = col;
    } else {
      r0 = std::min(r0, row);
      r1 = std::max(r1, row);
      c0 = std::min(c0, col);
      c1 = std::max(c1, col);
    }
  }

  // cheese-3: the cards plus one on `cell` still fit in an N x N square
  bool fits(int cell) const {
    if (!has_box) return true;
    const int row = cell / frame, col = cell % frame;
    return r1 - side < row && row < r0 + side && c1 - side < col && col < c0 + side;
  }

  // cheese-3: empty, sharing a side with a card, inside some N x N square with all the cards; with 3 players the
  // first card goes anywhere, by translation the frame's centre.  Ascending, as game.py's legal_cells.
  int legal_cells(int *out) const {
    if (!has_box) {
      out[0] = centre;
      return 1;
    }
    int k = 0;
    for (int w = 0; w < 3; ++w)
      for (uint64_t m = frontier.w[w]; m; m &= m - 1) {
        const int cell = w * 64 + __builtin_ctzll(m);
        if (fits(cell)) out[k++] = cell;
      }
    return k;
  }

  bool legal_cell(int cell) const {
    if (cell < 0 || cell >= size) return false;
    if (!has_box) return cell == centre;
    return frontier.has(cell) && fits(cell);
  }

  // -- questions ---------------------------------------------------------------------------------------------

  int chance_outcomes(int *out) const {
    int k = 0;
    for (int a = 0; a < kAnimals; ++a)
      if (pile[a]) out[k++] = a;
    return k;
  }

  // the next animal, uniform over the cards left: a kind with probability copies / cards (cheese-1, cheese-4)
  int sample_chance(ludo::Rng &rng) const {
    int pick = rng.below(pile_total);
    for (int a = 0; a < kAnimals; ++a) {
      pick -= pile[a];
      if (pick < 0) return a;
    }
    return kAnimals - 1;
  }

  int actors(int *out) const {
    if (terminal() || chance()) return 0;
    out[0] = turn;
    return 1;
  }

  // game.py's _legal_actions: kind by kind, each over the legal cells
  int legal(int seat, int *out) const {
    if (terminal() || chance() || seat != turn) return 0;
    int cellbuf[kMaxCells];
    const int count = legal_cells(cellbuf);
    int k = 0;
    for (int kind = 0; kind < kKinds; ++kind) {
      if (!hands[seat][kind]) continue;
      for (int i = 0; i < count; ++i) out[k++] = kind * size + cellbuf[i];
    }
    return k;
  }

  bool is_legal(int seat, int action) const {
    if (terminal() || chance() || seat != turn || action < 0 || action >= kKinds * size) return false;
    const int kind = action / size, cell = action % size;
    return hands[seat][kind] > 0 && legal_cell(cell);
  }

  bool is_chance_outcome(int action) const { return chance() && action >= 0 && action < kAnimals && pile[action] > 0; }

  // -- applying actions --------------------------------------------------------------------------------------

  void apply(int actor, int action) {
    if (actor == ludo::kChance) {
      const int seat = queue[queue_pos++];
      if (queue_pos == queue_len) queue_pos = queue_len = 0;
      --pile[action];
      --pile_total;
      ++hands[seat][action];
      return;
    }
    const int kind = action / size, cell = action % size;
    --hands[actor][kind];
    put(cell, kind, actor);
    ++placed[actor];
    order[norder][0] = static_cast<int16_t>(cell);
    order[norder][1] = static_cast<int16_t>(kind);
    order[norder][2] = static_cast<int16_t>(actor);
    ++norder;
    public_hash = mix(public_hash ^ static_cast<uint64_t>(action + 1));
    if (pile_total) queue[queue_len++] = static_cast<int8_t>(actor);  // cheese-4: draw while the pile lasts
    turn = (turn + 1) % config.players;
    if (terminal()) score();
  }

  // cheese-5: each seat's remaining cheeses, their points and their count
  void score() {
    int8_t removed[kMaxCells];
    cascade(cells, frame, removed);
    for (int c = 0; c < size; ++c) {
      if (!is_cheese(cells[c]) || removed[c]) continue;
      points[owners[c]] += value_of(cells[c]);
      cheese_cards[owners[c]] += 1;
    }
  }

  // -- results -----------------------------------------------------------------------------------------------

  void returns(double *out) const {
    for (int s = 0; s < config.players; ++s) out[s] = terminal() ? points[s] : 0.0;
  }

  // cheese-5: most points; tied, most remaining cheese cards; still tied, a shared win.  None before the end.
  int winners(int *out) const {
    if (!terminal()) return 0;
    const int n = config.players;
    int best = points[0];
    for (int s = 1; s < n; ++s) best = std::max(best, points[s]);
    int most = -1;
    for (int s = 0; s < n; ++s)
      if (points[s] == best) most = std::max(most, cheese_cards[s]);
    int k = 0;
    for (int s = 0; s < n; ++s)
      if (points[s] == best && cheese_cards[s] == most) out[k++] = s;
    return k;
  }

  // -- hidden information ------------------------------------------------------------------------------------

  // game.py's resample: the animals `seat` has not seen (the other hands' and the pile's) dealt again, each other
  // seat (ascending) drawing as many as it holds uniformly from them, the rest making the pile.  The reference
  // shuffles the same cards into the same hand sizes, so the hands come with the same law; cheeses in hand are
  // public (cheeses are told apart by shape) and stay.
  void resample(int seat, ludo::Rng &rng) {
    const int n = config.players;
    int unseen[kAnimals];
    int pool = 0;
    for (int a = 0; a < kAnimals; ++a) {
      unseen[a] = pile[a];
      for (int s = 0; s < n; ++s)
        if (s != seat) unseen[a] += hands[s][a];
      pool += unseen[a];
    }
    for (int s = 0; s < n; ++s) {
      if (s == seat) continue;
      int count = 0;
      for (int a = 0; a < kAnimals; ++a) {
        count += hands[s][a];
        hands[s][a] = 0;
      }
      for (int i = 0; i < count; ++i) {
        int pick = rng.below(pool--);
        int a = 0;
        while ((pick -= unseen[a]) >= 0) ++a;
        --unseen[a];
        ++hands[s][a];
      }
    }
    for (int a = 0; a < kAnimals; ++a) pile[a] = static_cast<int8_t>(unseen[a]);
  }

  // Everything `seat` has seen that its view shows: the placements in order (the draws' seats and the pile
  // follow from them) and its own hand.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(public_hash);
    uint64_t word = static_cast<uint64_t>(seat) << 56;
    for (int k = 0; k < kKinds; ++k) word |= static_cast<uint64_t>(hands[seat][k]) << (8 * k);
    h.add(word);
    return h.h;
  }

  // -- the heuristic (heuristics.py) -------------------------------------------------------------------------

  // The best placements by heuristics.py's estimate, in legal order (ties within 1e-9 of the first best, as
  // there); the heuristic plays one of them drawn uniformly.
  int heuristic_best(int seat, int *best) const;

  int heuristic(int seat, ludo::Rng &rng) const {
    int best[kMaxActions];
    const int count = heuristic_best(seat, best);
    return best[count == 1 ? 0 : rng.below(count)];
  }

  // the board as heuristics.py reads it: the worth of the cheese on `cell` (its _cheese_worth)
  double cheese_worth(const int8_t *board, int cell) const;
};

// heuristics._cheese_worth: a mouse next to the cheese stays unless a cat next to it stays, which it does unless a
// dog is next to it; a cheese next to a staying mouse survives (kEaten) only if every such mouse still has an
// empty side; otherwise every empty side is a risk (kExposed each)
inline double State::cheese_worth(const int8_t *board, int cell) const {
  const Near &near = neighbours(frame);
  bool staying = false, open_mouse = true;
  for (int a = 0; a < near.count[cell]; ++a) {
    const int j = near.cell[cell][a];
    if (board[j] != kMouse) continue;
    bool caught = false;
    for (int b = 0; b < near.count[j] && !caught; ++b) {
      const int k = near.cell[j][b];
      if (board[k] != kCat) continue;
      bool dog = false;
      for (int d = 0; d < near.count[k]; ++d)
        if (board[near.cell[k][d]] == kDog) {
          dog = true;
          break;
        }
      caught = !dog;
    }
    if (caught) continue;
    staying = true;
    bool open = false;
    for (int b = 0; b < near.count[j]; ++b)
      if (board[near.cell[j][b]] == kEmpty) {
        open = true;
        break;
      }
    open_mouse = open_mouse && open;
  }
  double survival;
  if (staying) {
    survival = open_mouse ? kEaten : 0.0;
  } else {
    int empty = 0;
    for (int a = 0; a < near.count[cell]; ++a) empty += board[near.cell[cell][a]] == kEmpty;
    survival = exposed_powers()[empty];
  }
  return value_of(board[cell]) * survival;
}

// heuristics.CheeseHeuristicBot.choose: every legal placement valued one ply ahead, the sums taken in its order
// (the board's cheeses in placement order, then the cheese placed), its memo of the board's worth per cell and kind
// of card (the three cheeses alike) and its tie rule
inline int State::heuristic_best(int seat, int *best) const {
  const int n = config.players;
  const Near &near = neighbours(frame);
  int8_t board[kMaxCells];
  std::memcpy(board, cells, size);
  int cheeses[kMaxSeats * kPlacements];
  int ncheeses = 0;
  for (int i = 0; i < norder; ++i)
    if (is_cheese(order[i][1])) cheeses[ncheeses++] = order[i][0];
  double worth_now[kMaxSeats * kPlacements];
  for (int i = 0; i < ncheeses; ++i) worth_now[i] = cheese_worth(board, cheeses[i]);
  const int turns_after = kPlacements - placed[seat] - 1;

  int cellbuf[kMaxCells];
  const int ncells = legal_cells(cellbuf);
  int cell_index[kMaxCells];
  for (int i = 0; i < ncells; ++i) cell_index[cellbuf[i]] = i;
  // board_worth: per legal cell and kind of card (dog, cat, mouse, cheese), the board's cheeses' sum per seat
  static thread_local double memo[kMaxCells][4][kMaxSeats];
  bool memo_done[kMaxCells][4];
  std::memset(memo_done, 0, sizeof(bool) * 4 * ncells);
  double in_hand[kKinds];
  bool in_hand_done[kKinds] = {false, false, false, false, false, false};
  uint8_t changed[kMaxCells];
  std::memset(changed, 0, size);
  double best_score = -HUGE_VAL;
  int nbest = 0;
  for (int kind = 0; kind < kKinds; ++kind) {
    if (!hands[seat][kind]) continue;
    const bool cheese = is_cheese(kind);
    const int kclass = cheese ? 3 : kind;
    for (int ci = 0; ci < ncells; ++ci) {
      const int cell = cellbuf[ci];
      const int action = kind * size + cell;
      board[cell] = static_cast<int8_t>(kind);
      double *summed = memo[cell_index[cell]][kclass];
      if (!memo_done[ci][kclass]) {
        memo_done[ci][kclass] = true;
        // _affected: the cell's neighbours; the neighbours of a mouse next to it; for a dog, the neighbours of a
        // mouse next to a cat next to it
        for (int a = 0; a < near.count[cell]; ++a) {
          const int j = near.cell[cell][a];
          changed[j] = 1;
          if (board[j] == kMouse) {
            for (int b = 0; b < near.count[j]; ++b) changed[near.cell[j][b]] = 1;
          } else if (kind == kDog && board[j] == kCat) {
            for (int b = 0; b < near.count[j]; ++b) {
              const int m = near.cell[j][b];
              if (board[m] == kMouse)
                for (int d = 0; d < near.count[m]; ++d) changed[near.cell[m][d]] = 1;
            }
          }
        }
        for (int s = 0; s < n; ++s) summed[s] = 0.0;
        for (int i = 0; i < ncheeses; ++i) {
          const int c = cheeses[i];
          summed[owners[c]] += changed[c] ? cheese_worth(board, c) : worth_now[i];
        }
        // clear the marks (the same walk)
        for (int a = 0; a < near.count[cell]; ++a) {
          const int j = near.cell[cell][a];
          changed[j] = 0;
          if (board[j] == kMouse) {
            for (int b = 0; b < near.count[j]; ++b) changed[near.cell[j][b]] = 0;
          } else if (kind == kDog && board[j] == kCat) {
            for (int b = 0; b < near.count[j]; ++b) {
              const int m = near.cell[j][b];
              if (board[m] == kMouse)
                for (int d = 0; d < near.count[m]; ++d) changed[near.cell[m][d]] = 0;
            }
          }
        }
      }
      double worth[kMaxSeats];
      for (int s = 0; s < n; ++s) worth[s] = summed[s];
      if (cheese) worth[seat] += cheese_worth(board, cell);
      board[cell] = kEmpty;
      if (!in_hand_done[kind]) {
        in_hand_done[kind] = true;
        // cheeses kept in hand: only as many as turns remain can still reach the board, the most valuable first
        int kept = 0, taken = 0;
        for (int k = kCheese3; k >= kCheese1 && taken < turns_after; --k) {
          const int copies = hands[seat][k] - (k == kind);
          for (int c = 0; c < copies && taken < turns_after; ++c, ++taken) kept += value_of(k);
        }
        in_hand[kind] = kInHand * kept;
      }
      double score = worth[seat] + in_hand[kind];
      double others = 0.0;
      for (int s = 0; s < n; ++s)
        if (s != seat) others += worth[s];
      score -= others / (n - 1);
      if (score > best_score + 1e-9) {
        best_score = score;
        best[0] = action;
        nbest = 1;
      } else if (std::fabs(score - best_score) <= 1e-9) {
        best[nbest++] = action;
      }
    }
  }
  return nbest;
}

}  // namespace cheese
