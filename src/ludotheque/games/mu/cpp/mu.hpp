// Mü, compiled: the same rules as game.py and rules.py (DECISIONS mu-1..9, all-2), the heuristic of heuristics.py
// move for move and the resampler of sampling.py draw for draw in distribution, held to them by
// tests/native/test_native_mu.py.
//
// Cards are kinds (colour * 10 + number) counted per kind, as in rules.py.  The action numbering is notation.py's:
// 0..49 a card from the hand, 50..99 from the table, 100 done, 101 pass, 102..106 a colour trump, 107..116 a
// number trump, 117 no trump, 118..123 a partner; chance 0..49 deals a kind, 50..54 removes a colour.
//
// The finished hands' summaries (the view's "hands") live in a chain shared by copies: a playout or a
// determinization copies a pointer, and a hand's summary is written once, at its end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "ludo/engine.hpp"

namespace mu {

constexpr int kKinds = 50;
constexpr int kMaxSeats = 6;
constexpr int kMaxHand = 15;  // mu-1: 60 cards among 4
constexpr int kMaxTricks = 15;
constexpr int kMaxAuction = 448;  // lays <= 60, dones <= 60, passes < n per turn that laid (+1): at most 426
constexpr int kCopies[10] = {1, 2, 1, 1, 1, 1, 1, 2, 1, 1};    // mu-1: 0 1 1 2 3 4 5 6 7 7 8 9 per colour
constexpr int kTriangles[10] = {1, 0, 1, 1, 1, 1, 2, 2, 1, 0};  // mu-1, by number
constexpr int kCardsPerColour = 12;
constexpr int kNoTrump = -1;
constexpr int kTrumpCategory = 5;

// notation.py's action space
constexpr int kFromTable = 50, kDone = 100, kPass = 101, kTrumpColour = 102, kTrumpNumber = 107, kNoTrumpAction = 117,
              kPartner = 118, kNumActions = 124;
constexpr int kRemove = 50, kNumChance = 55;

enum Phase : int8_t { kRemovePhase, kDealPhase, kAuction, kViceTrump, kChiefTrump, kPartnerPhase, kPlay, kOver };

struct Config {
  int players = 3;
  int target = 200;  // mu-9
};

inline int triangles(int kind) { return kTriangles[kind % 10]; }
inline int cards_per_seat(int players) { return (players == 3 ? 36 : 60) / players; }  // mu-1
inline bool is_colour_trump(int trump) { return 0 <= trump && trump < 5; }
inline bool is_number_trump(int trump) { return 10 <= trump && trump < 20; }

inline bool in_trump(int kind, int trump) {
  if (0 <= trump && trump < 5) return kind / 10 == trump;
  if (10 <= trump && trump < 20) return kind % 10 == trump - 10;
  return false;
}

// mu-6, mu-7: the suit a card follows, 5 for trump
inline int category(int kind, int chief_trump, int vice_trump) {
  return in_trump(kind, chief_trump) || in_trump(kind, vice_trump) ? kTrumpCategory : kind / 10;
}

// rules._strength (mu-6, mu-7): 3xx both trumps, 2xx the chief's, 1xx the vice's, the number for the led colour,
// -1 otherwise; a number trump's cards rank equal
inline int strength(int kind, int chief_trump, int vice_trump, int led) {
  const bool chief = in_trump(kind, chief_trump), vice = in_trump(kind, vice_trump);
  const int number = kind % 10;
  if (chief && vice) return 300 + (is_colour_trump(chief_trump) && is_colour_trump(vice_trump) ? number : 0);
  if (chief) return 200 + (is_colour_trump(chief_trump) ? number : 0);
  if (vice) return 100 + (is_colour_trump(vice_trump) ? number : 0);
  if (kind / 10 == led) return number;
  return -1;
}

// mu-6: the first of equal keys wins
inline int trick_winner(const int8_t *kinds, int count, int chief_trump, int vice_trump) {
  const int led = category(kinds[0], chief_trump, vice_trump);
  int best = 0, best_key = strength(kinds[0], chief_trump, vice_trump, led);
  for (int i = 1; i < count; ++i) {
    const int key = strength(kinds[i], chief_trump, vice_trump, led);
    if (key > best_key) {
      best = i;
      best_key = key;
    }
  }
  return best;
}

// mu-8
inline int contract(int players, int bid) {
  static constexpr int base[7] = {0, 0, 0, 10, 28, 21, 16}, step[7] = {0, 0, 0, 2, 2, 3, 4};
  return base[players] + step[players] * bid;
}

inline int bonus(int bid, int chief_trump) {
  if (chief_trump == kNoTrump) return 10 * bid + 30;
  if (is_number_trump(chief_trump)) return 10 * bid + (chief_trump - 10 == 1 || chief_trump - 10 == 7 ? 10 : 20);
  return 10 * bid;
}

inline int shortfall(int players, int bid, int team) {
  int made = 0;
  for (int b = 1; b < bid; ++b)
    if (team >= contract(players, b)) made = b;
  return bid - made;
}

enum Result : int8_t { kRedeal, kEgalite, kMade, kMissed };

// A finished hand as game.py's log holds it (view["table"]["hands"], the hand_scored event).
struct Summary {
  int hand, dealer;
  Result result;
  int bids[kMaxSeats], deltas[kMaxSeats], scores[kMaxSeats], triangles[kMaxSeats];
  int tied_mask = 0, tie_maker = -1;  // egalite
  int chief = -1, vice = -1, partner = -1, chief_trump = kNoTrump, vice_trump = kNoTrump;
  int bid = 0, contract = 0, team = 0, bonus = 0, missing = 0;
  std::shared_ptr<const Summary> previous;
};

struct Trick {
  int8_t leader, winner;
  int8_t seat[kMaxSeats], kind[kMaxSeats];
  bool table[kMaxSeats];
};

inline uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

struct State {
  static constexpr int kMaxActions = kNumActions;

  Config config;
  // the match
  int scores[kMaxSeats] = {};
  int8_t dealer = 0;  // all-2: seat 0 deals the first hand
  int hands_done = 0;  // len(game.py's log)
  std::shared_ptr<const Summary> log;  // the last finished hand, chaining to the earlier ones
  uint64_t public_hash = 0;  // every action the table saw (the kinds dealt hidden)
  // the hand
  int hand_steps = 0;  // actions since this hand's first
  Phase phase = kRemovePhase;
  int8_t removed[2] = {};
  int8_t nremoved = 0;
  int8_t deck[kKinds];
  int8_t deck_left = 60;
  int8_t dealt = 0;
  int8_t deal_kinds[60];  // this hand's deal, in order
  int8_t hands[kMaxSeats][kKinds];
  int8_t hand_sizes[kMaxSeats];
  int8_t laid[kMaxSeats][kKinds];
  int8_t laid_order[kMaxSeats][kMaxHand];  // bids[seat] of them
  int8_t bids[kMaxSeats];
  int16_t auction_len = 0;
  uint8_t auction_seat[kMaxAuction], auction_action[kMaxAuction];
  int8_t turn = 0, turn_limit = 1, turn_laid = 0, passes = 0;
  int16_t last_move[kMaxSeats];  // each seat's last auction move that is not "done" (-1: none), for the heuristic
  int8_t chief = -1, vice = -1, partner = -1;
  int8_t chief_trump = kNoTrump, vice_trump = kNoTrump;
  int8_t leader = 0;
  int8_t trick_len = 0;
  int8_t trick_seat[kMaxSeats], trick_kind[kMaxSeats];
  bool trick_table[kMaxSeats];
  int8_t ntricks = 0;
  Trick tricks[kMaxTricks];
  int won[kMaxSeats];
  int8_t played[kKinds];
  int8_t cats[kKinds];  // category() of every kind under this hand's trumps: following asks it for every card
  // the kinds each seat holds in hand and on the table, and the kinds of each category, as bitmasks: the legal
  // moves and following (mu-7) read them at every move of a playout
  uint64_t hand_mask[kMaxSeats], laid_mask[kMaxSeats], cat_mask[6];

  explicit State(const Config &c) : config(c) { start_hand(); }

  int players() const { return config.players; }
  int score_sign() const { return 1; }
  bool terminal() const { return phase == kOver; }
  bool chance() const { return phase == kRemovePhase || phase == kDealPhase; }

  // game.py's _start_hand
  void start_hand() {
    hand_steps = 0;
    phase = config.players == 3 ? kRemovePhase : kDealPhase;
    nremoved = 0;
    for (int k = 0; k < kKinds; ++k) deck[k] = static_cast<int8_t>(kCopies[k % 10]);
    deck_left = 60;
    dealt = 0;
    std::memset(hands, 0, sizeof hands);
    std::memset(hand_sizes, 0, sizeof hand_sizes);
    std::memset(laid, 0, sizeof laid);
    std::memset(bids, 0, sizeof bids);
    auction_len = 0;
    for (auto &move : last_move) move = -1;
    turn = dealer;  // mu-2: the auction starts with the dealer
    turn_limit = 1;
    turn_laid = 0;
    passes = 0;
    chief = vice = partner = -1;
    chief_trump = vice_trump = kNoTrump;
    leader = 0;
    trick_len = 0;
    ntricks = 0;
    std::memset(won, 0, sizeof won);
    std::memset(played, 0, sizeof played);
    std::memset(hand_mask, 0, sizeof hand_mask);
    std::memset(laid_mask, 0, sizeof laid_mask);
    set_categories();
  }

  void set_categories() {
    std::memset(cat_mask, 0, sizeof cat_mask);
    for (int k = 0; k < kKinds; ++k) {
      cats[k] = static_cast<int8_t>(category(k, chief_trump, vice_trump));
      cat_mask[cats[k]] |= 1ULL << k;
    }
  }

  // -- chance -------------------------------------------------------------------------------------------------

  int chance_outcomes(int *out) const {
    int k = 0;
    if (phase == kRemovePhase) {
      for (int c = 0; c < 5; ++c)
        if (!was_removed(c)) out[k++] = kRemove + c;
    } else {
      for (int kind = 0; kind < kKinds; ++kind)
        if (deck[kind]) out[k++] = kind;
    }
    return k;
  }

  bool was_removed(int colour) const {
    for (int i = 0; i < nremoved; ++i)
      if (removed[i] == colour) return true;
    return false;
  }

  // all-1: a colour uniformly, a kind with probability copies left / cards left
  int sample_chance(ludo::Rng &rng) const {
    if (phase == kRemovePhase) {
      int pick = rng.below(5 - nremoved);
      for (int c = 0; c < 5; ++c)
        if (!was_removed(c) && pick-- == 0) return kRemove + c;
    }
    int pick = rng.below(deck_left);
    for (int kind = 0; kind < kKinds; ++kind) {
      pick -= deck[kind];
      if (pick < 0) return kind;
    }
    return -1;
  }

  bool is_chance_outcome(int action) const {
    if (phase == kRemovePhase) return kRemove <= action && action < kNumChance && !was_removed(action - kRemove);
    if (phase == kDealPhase) return 0 <= action && action < kRemove && deck[action] > 0;
    return false;
  }

  // -- decisions ----------------------------------------------------------------------------------------------

  int actor() const {
    switch (phase) {
      case kAuction:
        return turn;
      case kViceTrump:
        return vice;
      case kChiefTrump:
      case kPartnerPhase:
        return chief;
      default:
        return (leader + trick_len) % config.players;
    }
  }

  int actors(int *out) const {
    if (terminal() || chance()) return 0;
    out[0] = actor();
    return 1;
  }

  // mu-5: the colours, then the numbers, of the cards the seat laid
  int trump_actions(int seat, int *out) const {
    bool colours[5] = {}, numbers[10] = {};
    for (int i = 0; i < bids[seat]; ++i) {
      colours[laid_order[seat][i] / 10] = true;
      numbers[laid_order[seat][i] % 10] = true;
    }
    int k = 0;
    for (int c = 0; c < 5; ++c)
      if (colours[c]) out[k++] = kTrumpColour + c;
    for (int d = 0; d < 10; ++d)
      if (numbers[d]) out[k++] = kTrumpNumber + d;
    return k;
  }

  int led_category() const { return cats[trick_kind[0]]; }

  bool holds_category(int seat, int cat) const { return (hand_mask[seat] | laid_mask[seat]) & cat_mask[cat]; }

  int legal(int seat, int *out) const {
    if (terminal() || chance() || seat != actor()) return 0;
    int k = 0;
    switch (phase) {
      case kAuction:
        for (uint64_t m = hand_mask[seat]; m; m &= m - 1) out[k++] = __builtin_ctzll(m);
        out[k++] = turn_laid == 0 ? kPass : kDone;
        return k;
      case kViceTrump:
        return trump_actions(seat, out);
      case kChiefTrump:
        k = trump_actions(seat, out);
        out[k++] = kNoTrumpAction;
        return k;
      case kPartnerPhase:
        for (int s = 0; s < config.players; ++s)
          if (s != chief && s != vice) out[k++] = kPartner + s;
        return k;
      default:
        break;
    }
    // mu-7: from hand or table; a seat holding the led suit (trump or a colour) must play it
    uint64_t allowed = ~0ULL;
    if (trick_len && holds_category(seat, led_category())) allowed = cat_mask[led_category()];
    for (uint64_t m = hand_mask[seat] & allowed; m; m &= m - 1) out[k++] = __builtin_ctzll(m);
    for (uint64_t m = laid_mask[seat] & allowed; m; m &= m - 1) out[k++] = kFromTable + __builtin_ctzll(m);
    return k;
  }

  bool is_legal(int seat, int action) const {
    if (terminal() || chance() || seat != actor() || action < 0 || action >= kNumActions) return false;
    switch (phase) {
      case kAuction:
        if (action < kFromTable) return hands[seat][action] > 0;
        return action == (turn_laid == 0 ? kPass : kDone);
      case kViceTrump:
      case kChiefTrump: {
        if (action == kNoTrumpAction) return phase == kChiefTrump;
        if (action < kTrumpColour || action >= kNoTrumpAction) return false;
        const int trump = trump_of(action);
        for (int i = 0; i < bids[seat]; ++i)
          if (in_trump(laid_order[seat][i], trump)) return true;
        return false;
      }
      case kPartnerPhase: {
        const int s = action - kPartner;
        return 0 <= s && s < config.players && s != chief && s != vice;
      }
      default:
        break;
    }
    if (action >= kDone) return false;
    const bool from_table = action >= kFromTable;
    const int kind = from_table ? action - kFromTable : action;
    if (!(from_table ? laid : hands)[seat][kind]) return false;
    if (!trick_len) return true;
    const int led = led_category();
    return cats[kind] == led || !holds_category(seat, led);
  }

  static int trump_of(int action) {
    if (action == kNoTrumpAction) return kNoTrump;
    if (action < kTrumpNumber) return action - kTrumpColour;
    return 10 + action - kTrumpNumber;
  }

  // -- applying -----------------------------------------------------------------------------------------------

  void apply(int who, int action) {
    ++hand_steps;
    if (who == ludo::kChance) {
      apply_chance(action);
      return;
    }
    public_hash = mix(public_hash ^ (static_cast<uint64_t>(who) << 8 | static_cast<uint64_t>(action)));
    switch (phase) {
      case kAuction:
        apply_auction(who, action);
        return;
      case kViceTrump:
        vice_trump = static_cast<int8_t>(trump_of(action));
        set_categories();
        phase = kChiefTrump;
        return;
      case kChiefTrump:
        chief_trump = static_cast<int8_t>(trump_of(action));
        set_categories();
        phase = config.players >= 4 ? kPartnerPhase : kPlay;
        leader = static_cast<int8_t>(who);  // mu-7: the chief leads the first trick
        return;
      case kPartnerPhase:
        partner = static_cast<int8_t>(action - kPartner);
        phase = kPlay;
        return;
      default:
        apply_play(who, action);
    }
  }

  void apply_chance(int action) {
    const int n = config.players;
    if (phase == kRemovePhase) {  // mu-1: two colours out with 3 players
      public_hash = mix(public_hash ^ (0x1000u + action));
      const int colour = action - kRemove;
      removed[nremoved++] = static_cast<int8_t>(colour);
      for (int kind = colour * 10; kind < colour * 10 + 10; ++kind) deck[kind] = 0;
      deck_left = static_cast<int8_t>(deck_left - kCardsPerColour);
      if (nremoved == 2) phase = kDealPhase;
      return;
    }
    const int seat = (dealer + 1 + dealt) % n;  // dealing starts left of the dealer
    --deck[action];
    --deck_left;
    deal_kinds[dealt++] = static_cast<int8_t>(action);
    ++hands[seat][action];
    hand_mask[seat] |= 1ULL << action;
    ++hand_sizes[seat];
    if (deck_left == 0) {
      phase = kAuction;
      begin_turn(dealer);
    }
  }

  int top_bid() const {
    int top = bids[0];
    for (int s = 1; s < config.players; ++s) top = std::max<int>(top, bids[s]);
    return top;
  }

  void begin_turn(int seat) {
    turn = static_cast<int8_t>(seat);
    turn_laid = 0;
    turn_limit = static_cast<int8_t>(top_bid() + 1);  // mu-2: at most one above the highest total before the turn
  }

  void apply_auction(int seat, int action) {
    const int n = config.players;
    auction_seat[auction_len] = static_cast<uint8_t>(seat);
    auction_action[auction_len++] = static_cast<uint8_t>(action);
    if (action != kDone) last_move[seat] = static_cast<int16_t>(action);
    if (action == kPass) {
      if (++passes == n) {  // mu-2: everyone passed in a row
        end_auction();
      } else {
        begin_turn((seat + 1) % n);
      }
      return;
    }
    if (action != kDone) {  // mu-2: laid face up
      if (!--hands[seat][action]) hand_mask[seat] &= ~(1ULL << action);
      --hand_sizes[seat];
      ++laid[seat][action];
      laid_mask[seat] |= 1ULL << action;
      laid_order[seat][bids[seat]++] = static_cast<int8_t>(action);
      ++turn_laid;
      if (bids[seat] < turn_limit && hand_sizes[seat] > 0) return;  // the turn goes on
    }
    passes = 0;
    begin_turn((seat + 1) % n);
  }

  std::shared_ptr<Summary> new_summary(Result result) const {
    auto s = std::make_shared<Summary>();
    s->hand = hands_done + 1;
    s->dealer = dealer;
    s->result = result;
    for (int seat = 0; seat < config.players; ++seat) s->bids[seat] = bids[seat];
    return s;
  }

  void end_auction() {
    const int n = config.players;
    const int top = top_bid();
    if (top == 0) {  // mu-2: nobody bid, the same dealer deals again (our reading)
      auto s = new_summary(kRedeal);
      for (int seat = 0; seat < n; ++seat) {
        s->deltas[seat] = 0;
        s->scores[seat] = scores[seat];
      }
      s->previous = std::move(log);
      log = std::move(s);
      ++hands_done;
      start_hand();
      return;
    }
    int leaders = 0, first = -1;
    for (int seat = 0; seat < n; ++seat)
      if (bids[seat] == top) {
        if (first < 0) first = seat;
        ++leaders;
      }
    if (leaders > 1) {  // mu-3: égalité, the hand ends unplayed
      int maker = -1;
      for (int i = auction_len - 1; i >= 0 && maker < 0; --i)  // the top seat that laid a card last
        if (auction_action[i] < kFromTable && bids[auction_seat[i]] == top) maker = auction_seat[i];
      auto s = new_summary(kEgalite);
      int deltas[kMaxSeats] = {};
      for (int seat = 0; seat < n; ++seat)
        if (bids[seat] == top) {
          s->tied_mask |= 1 << seat;
          deltas[seat] = seat == maker ? -10 * top : 5 * top;
        }
      s->tie_maker = maker;
      finish_hand(std::move(s), deltas);
      return;
    }
    chief = static_cast<int8_t>(first);
    vice = static_cast<int8_t>(choose_vice());
    phase = vice >= 0 ? kViceTrump : kChiefTrump;
  }

  // mu-4: the second highest bid; ties go to the highest card laid, then the next...; else no vice
  int choose_vice() const {
    const int n = config.players;
    if (n == 3) return -1;
    int second = 0;
    for (int s = 0; s < n; ++s)
      if (s != chief && bids[s] > 0) second = std::max<int>(second, bids[s]);
    if (second == 0) return -1;
    int8_t keys[kMaxSeats][kMaxHand];
    int best = -1, holders = 0;
    for (int s = 0; s < n; ++s) {
      if (s == chief || bids[s] != second) continue;
      for (int i = 0; i < second; ++i) keys[s][i] = static_cast<int8_t>(laid_order[s][i] % 10);
      std::sort(keys[s], keys[s] + second, [](int8_t a, int8_t b) { return a > b; });
      const int cmp = best < 0 ? 1 : std::memcmp(keys[s], keys[best], second);  // int8 digits: bytewise order
      if (cmp > 0) {
        best = s;
        holders = 1;
      } else if (cmp == 0) {
        ++holders;
      }
    }
    return holders == 1 ? best : -1;
  }

  void apply_play(int seat, int action) {
    const bool from_table = action >= kFromTable;
    const int kind = from_table ? action - kFromTable : action;
    if (from_table) {
      if (!--laid[seat][kind]) laid_mask[seat] &= ~(1ULL << kind);
    } else {
      if (!--hands[seat][kind]) hand_mask[seat] &= ~(1ULL << kind);
      --hand_sizes[seat];
    }
    ++played[kind];
    trick_seat[trick_len] = static_cast<int8_t>(seat);
    trick_kind[trick_len] = static_cast<int8_t>(kind);
    trick_table[trick_len++] = from_table;
    const int n = config.players;
    if (trick_len < n) return;
    const int winner = trick_seat[trick_winner(trick_kind, n, chief_trump, vice_trump)];
    Trick &t = tricks[ntricks++];
    t.leader = leader;
    t.winner = static_cast<int8_t>(winner);
    for (int i = 0; i < n; ++i) {
      won[winner] += triangles(trick_kind[i]);
      t.seat[i] = trick_seat[i];
      t.kind[i] = trick_kind[i];
      t.table[i] = trick_table[i];
    }
    trick_len = 0;
    leader = static_cast<int8_t>(winner);
    if (ntricks == cards_per_seat(n)) score_hand();
  }

  // mu-8
  void score_hand() {
    const int n = config.players;
    const int bid = bids[chief];
    const int team = won[chief] + (partner >= 0 ? won[partner] : 0);
    const bool made = team >= contract(n, bid);
    auto s = new_summary(made ? kMade : kMissed);
    int deltas[kMaxSeats];
    for (int seat = 0; seat < n; ++seat) deltas[seat] = s->triangles[seat] = won[seat];
    if (made) {
      const int gain = bonus(bid, chief_trump);
      deltas[chief] += gain;
      if (partner >= 0) deltas[partner] += gain;
      s->bonus = gain;
    } else {
      const int missing = shortfall(n, bid, team);
      for (int seat = 0; seat < n; ++seat) {
        if (seat == chief)
          deltas[seat] -= 10 * missing;
        else if (seat != partner)
          deltas[seat] += 5 * missing;
      }
      s->missing = missing;
    }
    s->chief = chief;
    s->vice = vice;
    s->partner = partner;
    s->chief_trump = chief_trump;
    s->vice_trump = vice_trump;
    s->bid = bid;
    s->contract = contract(n, bid);
    s->team = team;
    finish_hand(std::move(s), deltas);
  }

  void finish_hand(std::shared_ptr<Summary> s, const int *deltas) {
    const int n = config.players;
    int top = 0;
    for (int seat = 0; seat < n; ++seat) {
      scores[seat] += deltas[seat];
      s->deltas[seat] = deltas[seat];
      s->scores[seat] = scores[seat];
      top = seat == 0 ? scores[0] : std::max(top, scores[seat]);
    }
    s->previous = std::move(log);
    log = std::move(s);
    ++hands_done;
    if (top >= config.target) {  // mu-9
      phase = kOver;
      return;
    }
    dealer = static_cast<int8_t>((dealer + 1) % n);  // all-2: the deal rotates clockwise
    start_hand();
  }

  // -- results ------------------------------------------------------------------------------------------------

  void returns(double *out) const {
    for (int s = 0; s < config.players; ++s) out[s] = scores[s];
  }

  // mu-9: the highest total wins; a shared highest total is a shared win
  int winners(int *out) const {
    if (!terminal()) return 0;
    int top = scores[0];
    for (int s = 1; s < config.players; ++s) top = std::max(top, scores[s]);
    int k = 0;
    for (int s = 0; s < config.players; ++s)
      if (scores[s] == top) out[k++] = s;
    return k;
  }

  // -- hidden information -------------------------------------------------------------------------------------

  // game.py's voids: the categories a seat showed it lacks by not following (mu-7), as a mask of categories
  void voids(int *out) const {
    for (int s = 0; s < config.players; ++s) out[s] = 0;
    const int n = config.players;
    for (int t = 0; t <= ntricks; ++t) {
      const int8_t *seat = t < ntricks ? tricks[t].seat : trick_seat;
      const int8_t *kind = t < ntricks ? tricks[t].kind : trick_kind;
      const int len = t < ntricks ? n : trick_len;
      if (!len) continue;
      const int led = cats[kind[0]];
      for (int i = 1; i < len; ++i)
        if (cats[kind[i]] != led) out[seat[i]] |= 1 << led;
    }
  }

  static void shuffle(int8_t *cards, int count, ludo::Rng &rng) {
    for (int i = count - 1; i > 0; --i) std::swap(cards[i], cards[rng.below(i + 1)]);
  }

  // sampling._feasible: Hall's condition over the categories still to place
  static bool feasible(const int *counts, const int *capacity, const int *bans, int slots) {
    int groups = 0;
    for (int g = 0; g < 6; ++g)
      if (counts[g] > 0) groups |= 1 << g;
    for (int subset = groups; subset; subset = (subset - 1) & groups) {
      int need = 0, room = 0;
      for (int g = 0; g < 6; ++g)
        if (subset >> g & 1) need += counts[g];
      for (int i = 0; i < slots; ++i)
        if (subset & ~bans[i]) room += capacity[i];
      if (need > room) return false;
    }
    return true;
  }

  // game.py's resample and sampling.split_cards: the cards `seat` has not seen (the other hands, the undealt deck)
  // split again among the other seats at their sizes, never a card of a suit a seat showed it lacks (plain
  // shuffles first, 30 tries, then card by card keeping Hall's condition); each other seat's deal rewritten as its
  // shown cards and its new hand in a shuffled order.
  void resample(int seat, ludo::Rng &rng) {
    if (terminal()) return;
    const int n = config.players;
    int others[kMaxSeats], slots = 0;
    int sizes[kMaxSeats + 1], bans[kMaxSeats + 1];
    int void_mask[kMaxSeats];
    voids(void_mask);
    int8_t pool[60];
    int pool_len = 0;
    bool banned = false;
    for (int s = 0; s < n; ++s) {
      if (s == seat) continue;
      others[slots] = s;
      sizes[slots] = hand_sizes[s];
      bans[slots] = void_mask[s];
      banned = banned || void_mask[s];
      ++slots;
    }
    // the unseen cards in kind order, whoever holds them: the draw must not depend on where the hidden cards lie
    // (the same determinizations for two games that differ only in cards hidden from the seat, as game.py's)
    for (int k = 0; k < kKinds; ++k) {
      int copies = deck[k];
      for (int s = 0; s < n; ++s)
        if (s != seat) copies += hands[s][k];
      for (int c = 0; c < copies; ++c) pool[pool_len++] = static_cast<int8_t>(k);
    }
    int assigned = 0;
    for (int i = 0; i < slots; ++i) assigned += sizes[i];
    sizes[slots] = pool_len - assigned;  // the undealt deck, unconstrained
    bans[slots] = 0;
    const int all_slots = slots + 1;
    int8_t drawn[kMaxSeats + 1][60];
    int drawn_len[kMaxSeats + 1];
    auto in_order = [&]() {
      shuffle(pool, pool_len, rng);
      int start = 0;
      for (int i = 0; i < all_slots; ++i) {
        std::memcpy(drawn[i], pool + start, sizes[i]);
        drawn_len[i] = sizes[i];
        start += sizes[i];
      }
    };
    auto fits = [&]() {
      for (int i = 0; i < slots; ++i)
        for (int c = 0; c < drawn_len[i]; ++c)
          if (bans[i] >> cats[drawn[i][c]] & 1) return false;
      return true;
    };
    bool done = false;
    if (!banned) {
      in_order();
      done = true;
    }
    for (int attempt = 0; attempt < 30 && !done; ++attempt) {
      in_order();
      done = fits();
    }
    if (!done) {  // sampling._deal_with_hall
      shuffle(pool, pool_len, rng);
      int counts[6] = {}, capacity[kMaxSeats + 1];
      for (int c = 0; c < pool_len; ++c) ++counts[cats[pool[c]]];
      for (int i = 0; i < all_slots; ++i) {
        capacity[i] = sizes[i];
        drawn_len[i] = 0;
      }
      for (int c = 0; c < pool_len; ++c) {
        const int group = cats[pool[c]];
        --counts[group];
        int8_t candidates[kMaxSeats + 1];
        int count = 0;
        for (int i = 0; i < all_slots; ++i)
          if (capacity[i] > 0 && !(bans[i] >> group & 1)) candidates[count++] = static_cast<int8_t>(i);
        shuffle(candidates, count, rng);
        for (int j = 0; j < count; ++j) {
          const int i = candidates[j];
          --capacity[i];
          if (feasible(counts, capacity, bans, all_slots)) {
            drawn[i][drawn_len[i]++] = pool[c];
            break;
          }
          ++capacity[i];
        }
      }
    }
    // the deal rewritten: each other seat's cards of this deal (those it showed, then its new hand) shuffled
    for (int i = 0; i < slots; ++i) {
      const int s = others[i];
      int8_t shown[kKinds];
      for (int k = 0; k < kKinds; ++k) shown[k] = static_cast<int8_t>(-hands[s][k]);
      int8_t sequence[kMaxHand];
      int len = 0;
      for (int d = 0; d < dealt; ++d)
        if ((dealer + 1 + d) % n == s) ++shown[deal_kinds[d]];
      // the shown cards in kind order: where they fell in the deal depends on the hidden ones (game.py sorts them)
      for (int k = 0; k < kKinds; ++k)
        for (int c = 0; c < shown[k]; ++c) sequence[len++] = static_cast<int8_t>(k);
      for (int k = 0; k < kKinds; ++k) {
        deck[k] = static_cast<int8_t>(deck[k] + hands[s][k]);
        hands[s][k] = 0;
      }
      hand_mask[s] = 0;
      for (int c = 0; c < drawn_len[i]; ++c) {
        hand_mask[s] |= 1ULL << drawn[i][c];
        ++hands[s][drawn[i][c]];
        --deck[drawn[i][c]];
        sequence[len++] = drawn[i][c];
      }
      shuffle(sequence, len, rng);
      int at = 0;
      for (int d = 0; d < dealt; ++d)
        if ((dealer + 1 + d) % n == s) deal_kinds[d] = sequence[at++];
    }
  }

  // What the seat has seen: every public action of the match, the deal's progress, its own hand.
  uint64_t info_key(int seat) const {
    ludo::Hasher h;
    h.add(public_hash);
    h.add(static_cast<uint64_t>(seat) << 32 | static_cast<uint64_t>(hands_done) << 8 | static_cast<uint64_t>(phase));
    h.add(static_cast<uint64_t>(dealt) << 8 | static_cast<uint64_t>(dealer));
    uint64_t word = 0;
    for (int k = 0; k < kKinds; ++k) {
      word = word << 2 | static_cast<uint64_t>(hands[seat][k]);
      if (k % 25 == 24) {
        h.add(word);
        word = 0;
      }
    }
    return h.h;
  }

  // -- the heuristic (heuristics.py, from the seat's view only) -----------------------------------------------

  int heuristic(int seat, ludo::Rng &rng) const;

  // the kinds held in hand then laid (heuristics.py's _held: the view's hand, then its laid cards)
  int held(int seat, int8_t *out) const {
    int k = 0;
    for (uint64_t m = hand_mask[seat]; m; m &= m - 1)
      for (int kind = __builtin_ctzll(m), c = 0; c < hands[seat][kind]; ++c) out[k++] = static_cast<int8_t>(kind);
    for (uint64_t m = laid_mask[seat]; m; m &= m - 1)
      for (int kind = __builtin_ctzll(m), c = 0; c < laid[seat][kind]; ++c) out[k++] = static_cast<int8_t>(kind);
    return k;
  }

  static double trump_value(int trump, const int8_t *held, int count) {
    double value = 0.0;
    for (int i = 0; i < count; ++i)
      if (in_trump(held[i], trump)) value += is_colour_trump(trump) ? 1.0 + (held[i] % 10) / 9.0 : 1.4;
    return value;
  }

  // the choice of the most value (the first of equal values: colours, then numbers, each in order); every choice's
  // value is summed over the held cards in their order, as trump_value sums it
  static int best_trump(const int8_t *held, int count) {
    double values[20] = {};
    bool present[20] = {};
    for (int i = 0; i < count; ++i) {
      const int colour = held[i] / 10, number = held[i] % 10;
      values[colour] += 1.0 + number / 9.0;
      values[10 + number] += 1.4;
      present[colour] = present[10 + number] = true;
    }
    int best = -1;
    for (int option = 0; option < 20; ++option)
      if (present[option] && (best < 0 || values[option] > values[best])) best = option;
    return best;
  }

  int desired_bid(const int8_t *held, int count, int trump) const {
    const int n = config.players;
    int trumps = 0;
    for (int i = 0; i < count; ++i) trumps += in_trump(held[i], trump);
    const int colours = n == 3 ? 3 : 5;
    const int total_trumps = is_colour_trump(trump) ? kCardsPerColour : colours * kCopies[trump % 10];
    const double share = static_cast<double>(total_trumps - trumps) / std::max(1, n - 1);
    double tricks = std::max(0.0, trumps - share) + 0.5 * trumps;
    double extra = 0;
    for (int i = 0; i < count; ++i) {
      if (in_trump(held[i], trump)) continue;
      const int number = held[i] % 10;
      extra += number == 9 ? 0.7 : number == 8 ? 0.3 : 0;
    }
    tricks += extra;
    tricks = std::min(tricks, static_cast<double>(count));
    const int deck = n == 3 ? 36 : 60;
    const double mine = 0.7 * tricks * n;
    const double team = mine + (n >= 4 ? 0.6 * deck / n : 0);
    int bid = 0;
    while (bid < count && contract(n, bid + 1) <= team - 2) ++bid;
    return bid;
  }

  int active_rivals(int seat) const {
    const int16_t *last = last_move;
    int count = 0;
    for (int s = 0; s < config.players; ++s)
      count += s != seat && hand_sizes[s] > 0 && last[s] >= 0 && last[s] != kPass;
    return count;
  }

  bool hot(int seat) const {
    const int n = config.players;
    const int16_t *last = last_move;
    const int top = top_bid();
    const int deck = n == 3 ? 36 : 60;
    if (contract(n, top) <= 0.8 * deck) return false;
    for (int s = 0; s < n; ++s)
      if (s != seat && last[s] >= 0 && last[s] != kPass && bids[s] >= top - 1) return true;
    return false;
  }

  int heuristic_bid(int seat) const {
    const int n = config.players;
    int8_t mine[kMaxHand];
    const int count = held(seat, mine);
    int others = 0;
    for (int s = 0; s < n; ++s)
      if (s != seat) others = std::max<int>(others, bids[s]);
    const int trump = best_trump(mine, count);
    int goal = std::min<int>(desired_bid(mine, count, trump), turn_limit);
    if (top_bid() == 0 && auction_len == n - 1) goal = std::max(goal, 1);  // open rather than force a redeal
    const bool war = others > goal && hot(seat);
    if (war) goal = turn_limit;
    goal = std::min<int>(goal, bids[seat] + hand_sizes[seat]);
    if (goal == others && !(war && active_rivals(seat) >= 2)) --goal;  // never end a turn tied at the top
    const int stop = turn_laid == 0 ? kPass : kDone;
    if (bids[seat] >= goal || hand_sizes[seat] == 0) return stop;
    bool laid_trump = false, hand_trump = false, hand_other = false;
    for (int k = 0; k < kKinds; ++k) {
      if (laid[seat][k] && in_trump(k, trump)) laid_trump = true;
      if (hands[seat][k]) (in_trump(k, trump) ? hand_trump : hand_other) = true;
    }
    // a card of the intended trump first (mu-5: a trump is named among laid cards), else the cheapest
    const int want = !laid_trump && hand_trump ? 1 : hand_other ? 0 : -1;
    int best = -1, best_key = 0;
    for (int k = 0; k < kKinds; ++k) {
      if (!hands[seat][k] || (want >= 0 && in_trump(k, trump) != (want == 1))) continue;
      const int key = triangles(k) * 10 + k % 10;
      if (best < 0 || key < best_key) {
        best = k;
        best_key = key;
      }
    }
    return best;
  }

  int heuristic_trump(int seat) const {
    int8_t mine[kMaxHand];
    const int count = held(seat, mine);
    int legal_actions[kMaxActions];
    const int k = legal(seat, legal_actions);
    int best = legal_actions[0];
    double best_value = -1.0;
    for (int i = 0; i < k; ++i) {
      if (legal_actions[i] == kNoTrumpAction) continue;
      const double value = trump_value(trump_of(legal_actions[i]), mine, count);
      if (value > best_value) {
        best = legal_actions[i];
        best_value = value;
      }
    }
    return best;
  }

  int heuristic_partner(int seat) const {
    int legal_actions[kMaxActions];
    const int k = legal(seat, legal_actions);
    int best = -1, best_key = 0;
    for (int i = 0; i < k; ++i) {
      const int s = legal_actions[i] - kPartner;
      int high = -1;
      for (int kind = 0; kind < kKinds; ++kind)
        if (laid[s][kind]) high = std::max(high, kind % 10);
      const int key = bids[s] * 100 + high;
      if (best < 0 || key > best_key) {
        best = legal_actions[i];
        best_key = key;
      }
    }
    return best;
  }

  // heuristics.py's cheap: (triangles, is trump, number)
  int cheap(int kind) const {
    return triangles(kind) * 100 + (cats[kind] == kTrumpCategory) * 10 + kind % 10;
  }

  int heuristic_play(int seat) const {
    const int n = config.players;
    int legal_actions[kMaxActions];
    const int count = legal(seat, legal_actions);
    const bool on_team = seat == chief || seat == partner;
    auto is_ally = [&](int s) { return on_team && s != seat && (s == chief || s == partner); };
    auto first_min = [&](auto key, auto keep) {
      int best = -1, best_key = 0;
      for (int i = 0; i < count; ++i) {
        if (!keep(legal_actions[i])) continue;
        const int v = key(legal_actions[i] % kKinds);
        if (best < 0 || v < best_key) {
          best = legal_actions[i];
          best_key = v;
        }
      }
      return best;
    };
    auto all = [](int) { return true; };
    auto cheap_key = [&](int kind) { return cheap(kind); };
    if (!trick_len) return heuristic_lead(seat, legal_actions, count, on_team);
    const int led = led_category();
    const int win_index = trick_winner(trick_kind, trick_len, chief_trump, vice_trump);
    const int best_key = strength(trick_kind[win_index], chief_trump, vice_trump, led);
    const int winner = trick_seat[win_index];
    int points = 0;
    for (int i = 0; i < trick_len; ++i) points += triangles(trick_kind[i]);
    const bool last = trick_len == n - 1;
    auto winning = [&](int action) { return strength(action % kKinds, chief_trump, vice_trump, led) > best_key; };
    bool any_winning = false, any_losing = false;
    int max_win_triangles = 0;
    for (int i = 0; i < count; ++i) {
      if (winning(legal_actions[i])) {
        any_winning = true;
        max_win_triangles = std::max(max_win_triangles, triangles(legal_actions[i] % kKinds));
      } else {
        any_losing = true;
      }
    }
    if (is_ally(winner)) {
      auto losing = [&](int action) { return !any_losing || !winning(action); };
      if (last || best_key >= 200)  // feed points: max (triangles, -number), the first of equal keys
        return first_min([](int kind) { return -(triangles(kind) * 100 + 9 - kind % 10); }, losing);
      return first_min(cheap_key, losing);
    }
    if (any_winning && (last || points + max_win_triangles >= 2))
      return first_min(
          [&](int kind) { return (strength(kind, chief_trump, vice_trump, led) + 1) * 1000 + cheap(kind); }, winning);
    return first_min(cheap_key, all);
  }

  int heuristic_lead(int seat, const int *legal_actions, int count, bool on_team) const {
    (void)seat;
    if (on_team) {  // the chief's team leads its strongest trump
      int best = -1, best_key = 0;
      for (int i = 0; i < count; ++i) {
        const int kind = legal_actions[i] % kKinds;
        if (cats[kind] != kTrumpCategory) continue;
        const int key = strength(kind, chief_trump, vice_trump, kTrumpCategory);
        if (best < 0 || key > best_key) {
          best = legal_actions[i];
          best_key = key;
        }
      }
      if (best >= 0) return best;
    }
    bool mine[kKinds] = {};
    for (int i = 0; i < count; ++i) mine[legal_actions[i] % kKinds] = true;
    // a master card of its colour (every higher card of the colour played or held), highest number first
    for (int number = 9; number >= 0; --number) {
      for (int i = 0; i < count; ++i) {
        const int kind = legal_actions[i] % kKinds;
        if (kind % 10 != number || cats[kind] == kTrumpCategory) continue;
        bool master = true;
        for (int k = kind + 1; k < kind / 10 * 10 + 10 && master; ++k)
          if (cats[k] == kind / 10)
            master = played[k] >= kCopies[k % 10] || mine[k];
        if (master) return legal_actions[i];
      }
    }
    int best = -1, best_key = 0;
    for (int i = 0; i < count; ++i) {
      const int key = cheap(legal_actions[i] % kKinds);
      if (best < 0 || key < best_key) {
        best = legal_actions[i];
        best_key = key;
      }
    }
    return best;
  }
};

inline int State::heuristic(int seat, ludo::Rng &rng) const {
  (void)rng;  // heuristics.py draws only for a move that is not legal, which it never makes
  switch (phase) {
    case kAuction:
      return heuristic_bid(seat);
    case kViceTrump:
    case kChiefTrump:
      return heuristic_trump(seat);
    case kPartnerPhase:
      return heuristic_partner(seat);
    default:
      return heuristic_play(seat);
  }
}

}  // namespace mu
