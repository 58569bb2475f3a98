// What every compiled game shares: the random numbers, the small fixed-size containers a state copies without
// allocating, and the hashing of a seat's information set.  A game's state is a plain struct (copied by value:
// a determinization is a copy), with the methods listed in docs/architecture.md ("Writing a game natively").
#pragma once

#include <cstdint>
#include <cstring>

namespace ludo {

constexpr int kChance = -1;
constexpr int kMaxActors = 8;

// xoshiro256** seeded by splitmix64: fast, small, and the same on every machine for a seed.
struct Rng {
  uint64_t s[4];

  explicit Rng(uint64_t seed = 0) {
    for (auto &word : s) {
      seed += 0x9E3779B97F4A7C15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
  }

  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t next() {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  // uniform in [0, 1)
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for the small n games use)
  int below(int n) { return static_cast<int>((static_cast<unsigned __int128>(next()) * static_cast<uint64_t>(n)) >> 64); }
};

// FNV-1a over the words a game feeds it: the key of a seat's information set in the search's tree.
struct Hasher {
  uint64_t h = 1469598103934665603ULL;
  void add(uint64_t word) {
    for (int i = 0; i < 8; ++i) {
      h ^= (word >> (8 * i)) & 0xFF;
      h *= 1099511628211ULL;
    }
  }
};

// The index of the k-th set bit of a mask (k from 0): drawing a uniform card from a hand kept as a bitmask.
inline int nth_bit(uint32_t mask, int k) {
  for (int i = 0; i < k; ++i) mask &= mask - 1;
  return __builtin_ctz(mask);
}

inline int popcount(uint32_t mask) { return __builtin_popcount(mask); }

}  // namespace ludo
