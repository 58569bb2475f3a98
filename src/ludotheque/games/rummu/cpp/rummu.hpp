// Rummü, compiled: the same rules as game.py and rules.py (DECISIONS rummu-1..11, all-1..4), the heuristic of
// heuristics.py move for move, held to them by tests/native/test_native_rummu.py.
//
// A card type is colour * 10 + number (0..49), as in rules.py; hands, the pile and what each seat showed are count
// vectors over the types, and a set of types is a 64-bit mask.  The action numbering is notation.py's.  Chance
// action t is a card of type t, dealt, turned up or drawn, with probability copies left / cards left.
//
// What only a view or an event shows (the log's words, the breakdown of finished hands) is left to the reference
// shadow (core/native.py): the state holds what the rules, the search and a determinization need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ludo/engine.hpp"

namespace rummu {

constexpr int kTypes = 50;
constexpr int kDeckSize = 60;
constexpr int kMaxSeats = 6;
constexpr int kColours = 5;
constexpr int kYellow = 1;  // rummu-1: yellow cards are always jokers
constexpr int kMaxCombos = 20;
constexpr int kMaxCombo = 10;  // a one-colour run of every number; sets and multicolour runs hold 5 at most
constexpr int kOutBonus = 10;  // rummu-8
constexpr int kTargetSingle = 200, kTargetTeam = 500;  // rummu-10
constexpr int kMaxRetries = 3;  // heuristics.MAX_RETRIES: the bot's own bound on restarts (rummu-11 sets none)

// notation.py's action layout
constexpr int kDraw = 0, kTake = 1, kStart = kTake + 60, kAdd = kStart + kTypes, kClose = kAdd + kTypes,
              kCancel = kClose + 1, kDiscard = kCancel + 1, kPut = kDiscard + kTypes,
              kSwap = kPut + kTypes * kMaxCombos, kNumActions = kSwap + kTypes * kMaxCombos;

enum Phase : int8_t { kDeal, kFlip, kDrawPhase, kDrawCard, kPlay, kOver };

constexpr int kAllColours = (1 << kColours) - 1;
constexpr int kAllNumbers = (1 << 10) - 1;

// rummu-1: two copies of the 1s and the 7s of each colour, one of the other numbers
inline int deck_count(int t) { return (t % 10 == 1 || t % 10 == 7) ? 2 : 1; }
inline bool is_joker(int t) { return t / 10 == kYellow; }

// rummu-2: cards dealt per player
inline int hand_size(int players) { return players == 3 ? 9 : players == 6 ? 7 : 8; }

inline uint64_t bit(int t) { return 1ULL << t; }

// the types whose colour is among the bits of `colours` and number among the bits of `numbers` (rules._spread)
inline uint64_t spread(int colours, int numbers) {
  uint64_t mask = 0;
  for (int k = 0; k < kColours; ++k)
    if (colours >> k & 1) mask |= static_cast<uint64_t>(numbers) << (10 * k);
  return mask;
}

// rules.is_valid (rummu-4): 3+ cards of one number (a set) or of consecutive numbers (a run), and either one colour
// (jokers aside) with more naturals than jokers, or no colour twice (yellow a colour: one joker at most); no two
// identical cards
inline bool is_valid(const int8_t *cards, int len) {
  if (len < 3) return false;
  uint64_t seen = 0;
  int colours = 0, colour_count[kColours] = {}, numbers = 0, low = 10, high = -1;
  bool set = true;
  for (int i = 0; i < len; ++i) {
    const int c = cards[i];
    if (seen & bit(c)) return false;  // two identical cards
    seen |= bit(c);
    ++colour_count[c / 10];
    colours |= 1 << (c / 10);
    set = set && c % 10 == cards[0] % 10;
    numbers |= 1 << (c % 10);
    low = std::min(low, c % 10);
    high = std::max(high, c % 10);
  }
  if (__builtin_popcount(colours) != len) {
    const int naturals = __builtin_popcount(colours & ~(1 << kYellow));
    const int jokers = colour_count[kYellow];
    if (!(naturals == 1 && len - jokers > jokers)) return false;
  }
  if (set) return true;
  return __builtin_popcount(numbers) == len && high - low + 1 == len;  // consecutive, no number twice
}

inline bool is_set(const int8_t *cards, int len) {
  for (int i = 1; i < len; ++i)
    if (cards[i] % 10 != cards[0] % 10) return false;
  return true;
}

// rummu-8: a set without joker, or a one-colour run without joker
inline bool is_pure(const int8_t *cards, int len) {
  int colours = 0;
  for (int i = 0; i < len; ++i) {
    if (is_joker(cards[i])) return false;
    colours |= 1 << (cards[i] / 10);
  }
  return is_set(cards, len) || __builtin_popcount(colours) == 1;
}

// rules.combo_points (rummu-8): what a combination on the table is worth to its owner
inline int combo_points(const int8_t *cards, int len) {
  const bool pure = is_pure(cards, len);
  if (is_set(cards, len)) {
    int points = len == 3 ? 0 : len == 4 ? (pure ? 30 : 10) : 50;
    if (cards[0] % 10 == 1 || cards[0] % 10 == 7) points /= 2;  // sets of 1s or 7s: half
    return points;
  }
  if (len == 3) return pure ? 10 : 0;
  if (len == 4) return pure ? 20 : 10;
  return (pure ? 40 : 20) + 10 * (len - 5);
}

// rules.opening_threshold (rummu-5): cards the opening combination needs; first: the match's first hand
inline int opening_threshold(bool first, int total, bool team) {
  if (first) return 4;
  if (total < 0) return 3;
  if (total < (team ? 200 : 100)) return 4;
  if (total < (team ? 400 : 150)) return 5;
  return 6;
}

// rules.addable_types (rummu-4, rummu-11): the types t for which some valid combination of at least min_size cards holds
// the cards and t.  Public on purpose: the legality of a laying step never depends on hidden cards.
inline uint64_t addable_types(const int8_t *cards, int len, int min_size) {
  const int need = std::max(3, min_size);
  if (need > 10) return 0;
  uint64_t seen = 0;
  int num_set = 0, col_set = 0, jokers = 0, low = 10, high = -1;
  for (int i = 0; i < len; ++i) {
    const int c = cards[i];
    if (seen & bit(c)) return 0;  // two identical cards already
    seen |= bit(c);
    num_set |= 1 << (c % 10);
    col_set |= 1 << (c / 10);
    jokers += c / 10 == kYellow;
    low = std::min(low, c % 10);
    high = std::max(high, c % 10);
  }
  const int free_cols = kAllColours & ~col_set;
  const bool cols_distinct = __builtin_popcount(col_set) == len;
  uint64_t mask = 0;
  if (__builtin_popcount(num_set) == 1 && cols_distinct && need <= kColours)
    mask |= spread(free_cols, 1 << (cards[0] % 10));  // a set can take one card of each colour
  if (__builtin_popcount(num_set) != len) return mask;  // two cards of one number: no run
  const int free_numbers = kAllNumbers & ~num_set;
  const int naturals = col_set & ~(1 << kYellow);
  const int natural_count = __builtin_popcount(naturals);
  int one_colour = 0;  // the colours whose card keeps a one-colour run (naturals outnumbering jokers)
  if (natural_count <= 1 && 10 - (jokers + 1) > jokers + 1) one_colour |= 1 << kYellow;
  if (10 - jokers > jokers) {
    if (natural_count == 0)
      one_colour |= kAllColours & ~(1 << kYellow);
    else if (natural_count == 1)
      one_colour |= naturals;
  }
  mask |= spread(one_colour, free_numbers);
  if (cols_distinct && need <= kColours && high - low < kColours) {
    // a multicolour run: a new colour, and a number keeping the run within five numbers
    const int near = kAllNumbers & ((1 << (low + 5)) - 1) & ~((1 << std::max(0, high - 4)) - 1);
    mask |= spread(free_cols & ~one_colour, free_numbers & near);
  }
  return mask;
}

// rules.extension_candidates: the types that can be added to a valid combination (an end of a run, a new colour
// of a set), as a mask
inline uint64_t extension_candidates(const int8_t *cards, int len) {
  int8_t with[kMaxCombo + 1];
  std::memcpy(with, cards, len);
  uint64_t out = 0;
  auto try_type = [&](int t) {
    with[len] = static_cast<int8_t>(t);
    if (is_valid(with, len + 1)) out |= bit(t);
  };
  if (is_set(cards, len)) {
    for (int c = 0; c < kColours; ++c) try_type(c * 10 + cards[0] % 10);
    return out;
  }
  int low = 10, high = -1;
  for (int i = 0; i < len; ++i) {
    low = std::min(low, cards[i] % 10);
    high = std::max(high, cards[i] % 10);
  }
  for (int n : {low - 1, high + 1})
    if (n >= 0 && n <= 9)
      for (int c = 0; c < kColours; ++c) try_type(c * 10 + n);
  return out;
}

// rules.swap_candidates (rummu-6): the naturals that can replace a joker of their number in a valid combination
inline uint64_t swap_candidates(const int8_t *cards, int len) {
  uint64_t out = 0;
  for (int i = 0; i < len; ++i) {
    const int joker = cards[i];
    if (!is_joker(joker)) continue;
    int8_t rest[kMaxCombo + 1];
    int r = 0;
    for (int k = 0; k < len; ++k)
      if (cards[k] != joker) rest[r++] = cards[k];
    for (int col = 0; col < kColours; ++col) {
      if (col == kYellow) continue;
      rest[r] = static_cast<int8_t>(col * 10 + joker % 10);
      if (is_valid(rest, r + 1)) out |= bit(col * 10 + joker % 10);
    }
  }
  return out;
}

inline uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

struct Config {
  int players = 3;
  bool partnerships = false;  // rummu-2/9: 4 or 6 players, opposite seats partners
  int target = kTargetSingle;  // rummu-10 (the option's 0 already replaced by the rulebook's target)
  int hands = 0;              // all-4: a tool's cap on hands, 0 for none
};

// A delivery of a card to a hand that nobody else saw (a deal, a draw), while the card is still in that hand
// unannounced (game.py's `hidden` without its revealed entries: a card leaving a hand face up reveals one).
struct Hidden {
  int32_t index;  // its chance action's place in the match's history
  int8_t seat, card;
  int16_t epoch;  // the pile generation it came from: the deck, then each reshuffle (rummu-3)
};

struct State {
  // the most legal actions at once: 50 starts, 50 discards, and the puts and swaps of 20 combinations
  static constexpr int kMaxActions = 1024;

  Config config;
  int totals[kMaxSeats] = {};  // each seat's own points over the match
  int hand_no = 0;             // finished hands
  int dealer = 0;              // all-2: seat 0 deals the first hand
  int8_t hands[kMaxSeats][kTypes];
  int8_t sizes[kMaxSeats];
  int8_t known[kMaxSeats][kTypes];  // the cards of each hand everybody saw go in
  int8_t pile[kTypes];
  int pile_size = 0;
  int8_t discard[kDeckSize];  // bottom to top
  int discard_len = 0;
  int8_t combos[kMaxCombos][kMaxCombo];  // sorted by number, then colour (game.py's _run_order)
  int8_t combo_len[kMaxCombos];
  int8_t owners[kMaxCombos];
  uint64_t extend[kMaxCombos];  // per combination: the types that may be put on it
  uint64_t swaps[kMaxCombos];   // per combination: the naturals that may replace one of its jokers
  int ncombos = 0;
  bool opened[kMaxSeats];
  int8_t needs[kMaxSeats];
  int8_t partial[kMaxCombo];  // the combination being laid, in the order laid
  int partial_len = 0;
  int cancels = 0;
  Phase phase = kDeal;
  int to_deal = 0;
  int current = 0;
  int epoch = 0;
  bool exhausted = false;
  Hidden hidden[kDeckSize];
  int nhidden = 0;
  int steps = 0;  // actions in the match so far (the history's length)
  uint64_t public_hash = 0;  // every action of the match as the table saw it, and the totals of finished hands

  explicit State(const Config &c) : config(c) {
    public_hash = mix(static_cast<uint64_t>(c.players));
    start_hand();
  }

  int players() const { return config.players; }
  int score_sign() const { return 1; }
  bool terminal() const { return phase == kOver; }
  bool chance() const { return phase == kDeal || phase == kFlip || phase == kDrawCard; }

  int team_of(int seat) const { return config.partnerships ? seat % (config.players / 2) : seat; }

  // the seat's total, or its team's in partnerships (rummu-5, rummu-9)
  int unit_total(int seat) const {
    if (!config.partnerships) return totals[seat];
    int sum = 0;
    for (int s = 0; s < config.players; ++s)
      if (team_of(s) == team_of(seat)) sum += totals[s];
    return sum;
  }

  // -- hand set-up ------------------------------------------------------------------------------------------

  void start_hand() {
    const int n = config.players;
    std::memset(hands, 0, sizeof hands);
    std::memset(sizes, 0, sizeof sizes);
    std::memset(known, 0, sizeof known);
    for (int t = 0; t < kTypes; ++t) pile[t] = static_cast<int8_t>(deck_count(t));
    pile_size = kDeckSize;
    discard_len = 0;
    ncombos = 0;
    for (int s = 0; s < n; ++s) {
      opened[s] = false;
      needs[s] = static_cast<int8_t>(opening_threshold(hand_no == 0, unit_total(s), config.partnerships));
    }
    partial_len = 0;
    cancels = 0;
    phase = kDeal;
    to_deal = hand_size(n) * n;
    current = (dealer + 1) % n;  // rummu-2: the player left of the dealer is dealt first and starts
    epoch = 0;
    exhausted = false;
    nhidden = 0;
  }

  // -- questions ----------------------------------------------------------------------------------------------

  int chance_outcomes(int *out) const {
    int k = 0;
    for (int t = 0; t < kTypes; ++t)
      if (pile[t]) out[k++] = t;
    return k;
  }

  // the next card, uniform over the pile's cards (game.py: a type with probability copies / cards)
  int sample_chance(ludo::Rng &rng) const {
    int pick = rng.below(pile_size);
    for (int t = 0; t < kTypes; ++t) {
      pick -= pile[t];
      if (pick < 0) return t;
    }
    return kTypes - 1;
  }

  bool deciding() const { return phase == kDrawPhase || phase == kPlay; }

  int actors(int *out) const {
    if (!deciding()) return 0;
    out[0] = current;
    return 1;
  }

  uint64_t hand_mask(int seat) const {
    uint64_t mask = 0;
    for (int t = 0; t < kTypes; ++t)
      if (hands[seat][t]) mask |= bit(t);
    return mask;
  }

  int need_of(int seat) const { return opened[seat] ? 3 : needs[seat]; }

  // game.py's _compute_legal: ascending, the action ranges in the order they are built
  int legal(int seat, int *out) const {
    if (!deciding() || seat != current) return 0;
    int k = 0;
    if (phase == kDrawPhase) {
      out[k++] = kDraw;
      for (int i = 0; i < discard_len; ++i) out[k++] = kTake + i;
      return k;
    }
    const uint64_t held = hand_mask(seat);
    const int size = sizes[seat];
    const int need = need_of(seat);
    if (partial_len) {
      // rummu-7: keep enough cards to finish the combination and still discard one
      if (size - 1 - std::max(0, need - partial_len - 1) >= 1) {
        const uint64_t addable = addable_types(partial, partial_len, need) & held;
        for (uint64_t m = addable; m; m &= m - 1) out[k++] = kAdd + __builtin_ctzll(m);
      }
      if (partial_len >= need && is_valid(partial, partial_len)) out[k++] = kClose;
      out[k++] = kCancel;
      return k;
    }
    if (size >= need + 1)  // rummu-11: however many cancels came before
      for (uint64_t m = held; m; m &= m - 1) out[k++] = kStart + __builtin_ctzll(m);
    for (uint64_t m = held; m; m &= m - 1) out[k++] = kDiscard + __builtin_ctzll(m);
    if (opened[seat] && ncombos) {
      if (size >= 2)
        for (int j = 0; j < ncombos; ++j)
          for (uint64_t m = extend[j] & held; m; m &= m - 1) out[k++] = kPut + j * kTypes + __builtin_ctzll(m);
      for (int j = 0; j < ncombos; ++j)
        for (uint64_t m = swaps[j] & held; m; m &= m - 1) out[k++] = kSwap + j * kTypes + __builtin_ctzll(m);
    }
    return k;
  }

  bool is_legal(int seat, int action) const {
    if (!deciding() || seat != current || action < 0 || action >= kNumActions) return false;
    int out[kMaxActions];
    const int count = legal(seat, out);
    for (int i = 0; i < count; ++i)
      if (out[i] == action) return true;
    return false;
  }

  bool is_chance_outcome(int action) const { return chance() && action >= 0 && action < kTypes && pile[action] > 0; }

  // -- card movements -----------------------------------------------------------------------------------------

  void hidden_receive(int seat, int card) {
    hidden[nhidden++] = {steps, static_cast<int8_t>(seat), static_cast<int8_t>(card), static_cast<int16_t>(epoch)};
    ++hands[seat][card];
    ++sizes[seat];
  }

  void receive_public(int seat, int card) {
    ++hands[seat][card];
    ++sizes[seat];
    ++known[seat][card];
  }

  // A card leaves a hand face up: counted against the cards everybody knew were there first, otherwise it
  // reveals the earliest hidden delivery of that card to that seat (game.py's _lose).
  void lose(int seat, int card) {
    --hands[seat][card];
    --sizes[seat];
    if (known[seat][card]) {
      --known[seat][card];
      return;
    }
    for (int i = 0; i < nhidden; ++i)
      if (hidden[i].seat == seat && hidden[i].card == card) {
        std::memmove(hidden + i, hidden + i + 1, sizeof(Hidden) * (nhidden - i - 1));
        --nhidden;
        return;
      }
  }

  static void sort_combo(int8_t *cards, int len) {
    std::sort(cards, cards + len, [](int8_t a, int8_t b) {
      return a % 10 != b % 10 ? a % 10 < b % 10 : a / 10 < b / 10;  // by number, then colour
    });
  }

  void combo_changed(int j) {
    sort_combo(combos[j], combo_len[j]);
    extend[j] = extension_candidates(combos[j], combo_len[j]);
    swaps[j] = swap_candidates(combos[j], combo_len[j]);
  }

  // -- applying actions ---------------------------------------------------------------------------------------

  void apply(int actor, int action) {
    if (actor == ludo::kChance) {
      // a card to a hand is hidden from the others: the public record keeps only where it went
      public_hash = mix(public_hash ^ (phase == kFlip ? 0x100u + action : 0x200u + phase));
      apply_chance(action);
      ++steps;
      return;
    }
    public_hash = mix(public_hash ^ (0x1000u + action));
    apply_move(actor, action);
    ++steps;
  }

  void apply_chance(int card) {
    --pile[card];
    --pile_size;
    if (phase == kDeal) {
      const int n = config.players;
      const int dealt = hand_size(n) * n - to_deal;
      hidden_receive((dealer + 1 + dealt) % n, card);
      if (--to_deal == 0) phase = kFlip;
    } else if (phase == kFlip) {
      discard[discard_len++] = static_cast<int8_t>(card);
      begin_turn(current);
    } else {
      hidden_receive(current, card);
      phase = kPlay;
      if (pile_size == 0) pile_emptied();
    }
  }

  void apply_move(int seat, int action) {
    if (action == kDraw) {
      phase = kDrawCard;
    } else if (action < kStart) {
      const int k = action - kTake + 1;
      for (int i = 0; i < k; ++i) receive_public(seat, discard[discard_len - 1 - i]);  // rummu-3: top first
      discard_len -= k;
      phase = kPlay;
    } else if (action < kAdd) {
      const int card = action - kStart;
      lose(seat, card);
      partial[0] = static_cast<int8_t>(card);
      partial_len = 1;
    } else if (action < kClose) {
      const int card = action - kAdd;
      lose(seat, card);
      partial[partial_len++] = static_cast<int8_t>(card);
    } else if (action == kClose) {
      const int j = ncombos++;
      std::memcpy(combos[j], partial, partial_len);
      combo_len[j] = static_cast<int8_t>(partial_len);
      owners[j] = static_cast<int8_t>(seat);
      combo_changed(j);
      partial_len = 0;
      opened[seat] = true;
    } else if (action == kCancel) {
      for (int i = 0; i < partial_len; ++i) receive_public(seat, partial[i]);
      partial_len = 0;
      ++cancels;
    } else if (action < kPut) {
      const int card = action - kDiscard;
      lose(seat, card);
      discard[discard_len++] = static_cast<int8_t>(card);
      if (sizes[seat] == 0)
        end_hand(seat);  // rummu-8: out by discarding the last card
      else if (exhausted)
        end_hand(-1);
      else
        begin_turn((seat + 1) % config.players);
    } else if (action < kSwap) {
      const int j = (action - kPut) / kTypes, card = (action - kPut) % kTypes;
      lose(seat, card);
      combos[j][combo_len[j]++] = static_cast<int8_t>(card);
      combo_changed(j);
    } else {
      const int j = (action - kSwap) / kTypes, card = (action - kSwap) % kTypes;
      const int joker = kYellow * 10 + card % 10;
      lose(seat, card);
      for (int i = 0; i < combo_len[j]; ++i)
        if (combos[j][i] == joker) combos[j][i] = static_cast<int8_t>(card);
      combo_changed(j);
      receive_public(seat, joker);
    }
  }

  void begin_turn(int seat) {
    current = seat;
    cancels = 0;
    phase = kDrawPhase;
  }

  // rummu-3: the last card drawn, the discard pile but its top becomes the new pile; if that leaves nothing to
  // draw, the hand ends with nobody out once the drawing player's turn is over
  void pile_emptied() {
    if (discard_len > 1) {
      for (int i = 0; i < discard_len - 1; ++i) ++pile[discard[i]];
      pile_size = discard_len - 1;
      discard[0] = discard[discard_len - 1];
      discard_len = 1;
      ++epoch;
    } else {
      exhausted = true;
    }
  }

  // rummu-8/9: each seat's points this hand (out: the seat that went out, or -1)
  void hand_points(int out, int *points) const {
    const int n = config.players;
    for (int s = 0; s < n; ++s) {
      // rummu-9: the partner of the player who went out pays nothing for their cards
      const bool waived = out >= 0 && s != out && config.partnerships && team_of(s) == team_of(out);
      int penalty = 0;
      if (!waived)
        for (int t = 0; t < kTypes; ++t) penalty += hands[s][t] * (is_joker(t) ? -10 : -5);
      points[s] = (s == out ? kOutBonus : 0) + penalty;
    }
    for (int j = 0; j < ncombos; ++j) points[owners[j]] += combo_points(combos[j], combo_len[j]);
  }

  // rummu-8/9/10: score the hand, then end the match or deal the next hand
  void end_hand(int out) {
    const int n = config.players;
    int points[kMaxSeats];
    hand_points(out, points);
    for (int s = 0; s < n; ++s) {
      totals[s] += points[s];
      public_hash = mix(public_hash ^ static_cast<uint64_t>(static_cast<uint32_t>(totals[s])));
    }
    ++hand_no;
    int top = unit_total(0);
    for (int s = 1; s < n; ++s) top = std::max(top, unit_total(s));
    if (top >= config.target || (config.hands && hand_no >= config.hands)) {
      phase = kOver;
      return;
    }
    dealer = (dealer + 1) % n;
    start_hand();
  }

  // -- results ------------------------------------------------------------------------------------------------

  // each seat's total; partners both get their team's (rummu-9)
  void returns(double *out) const {
    for (int s = 0; s < config.players; ++s) out[s] = unit_total(s);
  }

  // rummu-10: the highest total wins, seats sharing it share the win
  int winners(int *out) const {
    if (!terminal()) return 0;
    const int n = config.players;
    int top = unit_total(0);
    for (int s = 1; s < n; ++s) top = std::max(top, unit_total(s));
    int k = 0;
    for (int s = 0; s < n; ++s)
      if (unit_total(s) == top) out[k++] = s;
    return k;
  }

  // -- hidden information -------------------------------------------------------------------------------------

  // game.py's resample: within each pile generation (epoch), the cards delivered unseen to the other seats (and
  // for the current epoch the pile) are shuffled together and dealt back to the same deliveries; the observer
  // knows what each reshuffle put in the pile, so cards never cross epochs.  Each pool is put in kind order before
  // it is shuffled, so a determinization depends only on what `seat` has seen
  void resample(int seat, ludo::Rng &rng) {
    if (phase == kOver) return;
    for (int e = 0; e <= epoch; ++e) {
      int8_t cards[kDeckSize];
      int slots[kDeckSize];
      int count = 0, events = 0;
      for (int i = 0; i < nhidden; ++i)
        if (hidden[i].seat != seat && hidden[i].epoch == e) {
          slots[events++] = i;
          cards[count++] = hidden[i].card;
        }
      if (e == epoch)
        for (int t = 0; t < kTypes; ++t)
          for (int c = 0; c < pile[t]; ++c) cards[count++] = static_cast<int8_t>(t);
      if (count == 0) continue;
      // canonical order (game.py sorts the pool too): the draw must not depend on which seat holds which hidden
      // card, nor on the order they were delivered in
      std::sort(cards, cards + count);
      for (int i = count - 1; i > 0; --i) std::swap(cards[i], cards[rng.below(i + 1)]);
      for (int i = 0; i < events; ++i) --hands[hidden[slots[i]].seat][hidden[slots[i]].card];
      for (int i = 0; i < events; ++i) {
        Hidden &h = hidden[slots[i]];
        h.card = cards[i];
        ++hands[h.seat][h.card];
      }
      if (e == epoch) {
        std::memset(pile, 0, sizeof pile);
        for (int i = events; i < count; ++i) ++pile[cards[i]];
      }
    }
  }

  // Everything `seat` has seen: the match's actions as the table saw them, the totals, and its own hand.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(public_hash);
    uint64_t low = 0, high = 0;  // 2 bits a type: a hand holds at most the 2 copies of a type
    for (int t = 0; t < 32; ++t) low |= static_cast<uint64_t>(hands[seat][t]) << (2 * t);
    for (int t = 32; t < kTypes; ++t) high |= static_cast<uint64_t>(hands[seat][t]) << (2 * (t - 32));
    h.add(low);
    h.add(high ^ static_cast<uint64_t>(seat) << 40);
    return h.h;
  }

  // -- the heuristic (heuristics.py) --------------------------------------------------------------------------

  template <class Choose>
  int heuristic_with(int seat, Choose choose) const;

  int heuristic(int seat, ludo::Rng &rng) const {
    return heuristic_with(seat, [&rng](const int *xs, int n) { return xs[rng.below(n)]; });
  }
};

}  // namespace rummu

#include "rummu_heuristic.hpp"
