/* Reference xoshiro256** and splitmix64 (Blackman & Vigna, public domain, prng.di.unimi.it),
 * used by tests/core/test_rng.py to check brutal_sim.toolbox.rng bit for bit.
 * Prints, for each (seed, duel index) given on the command line, the first 8 outputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t sm_state;
static uint64_t splitmix64(void) {
    uint64_t z = (sm_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t s[4];
static uint64_t next(void) {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int main(int argc, char **argv) {
    for (int a = 1; a + 1 < argc; a += 2) {
        uint64_t seed = strtoull(argv[a], NULL, 10), index = strtoull(argv[a + 1], NULL, 10);
        sm_state = seed;
        uint64_t key = splitmix64();            /* mix(seed) */
        sm_state = key + 4 * index * 0x9e3779b97f4a7c15ULL; /* skip to the duel's 4 outputs */
        for (int j = 0; j < 4; j++) s[j] = splitmix64();
        for (int j = 0; j < 8; j++) printf("%llu%c", (unsigned long long)next(), j == 7 ? '\n' : ' ');
    }
    return 0;
}
