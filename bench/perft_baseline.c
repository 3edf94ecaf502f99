/* A straightforward oware perft in C, the baseline `awari perft` is measured against
 * (README, "Figures"). Plain copy-make arrays, every leaf move played, repetition checked by
 * comparing boards since the last capture. Build and run:
 *   cc -O2 -o /tmp/perft_baseline bench/perft_baseline.c && /tmp/perft_baseline 11
 * bench/perft_speed.sh builds it and times it against `awari perft`, alternated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int h[12]; int s[2]; int turn; } Pos;

static Pos hist[64];

static int row(const Pos *p, int side) {
    int n = 0;
    for (int i = 0; i < 6; i++) n += p->h[side * 6 + i];
    return n;
}

/* Plays house `m` (0-11) of the side to move; returns 1 if it captured. */
static int play(Pos *p, int m) {
    int seeds = p->h[m], pos = m, me = p->turn;
    p->h[m] = 0;
    while (seeds > 0) {
        pos = (pos + 1) % 12;
        if (pos == m) continue;
        p->h[pos]++;
        seeds--;
    }
    int captured = 0;
    if (pos / 6 != me) {
        int first = (1 - me) * 6, i = pos, sum = 0;
        while (i >= first && (p->h[i] == 2 || p->h[i] == 3)) sum += p->h[i--];
        if (sum > 0 && sum != row(p, 1 - me)) { /* not a grand slam */
            for (int j = pos; j > i; j--) p->h[j] = 0;
            p->s[me] += sum;
            captured = 1;
        }
    }
    p->turn = 1 - me;
    return captured;
}

static int legal(const Pos *p, int m) {
    int me = p->turn, c = m - me * 6;
    if (p->h[m] == 0) return 0;
    if (row(p, 1 - me) == 0) return p->h[m] + c >= 6;
    return 1;
}

static long long perft(const Pos *p, int depth, int ply, int since) {
    if (depth == 0) return 1;
    if (2 * p->s[0] > 48 || 2 * p->s[1] > 48 || (p->s[0] == 24 && p->s[1] == 24)) return 0;
    for (int k = since; k < ply; k++)
        if (!memcmp(&hist[k], p, sizeof(Pos))) return 0;
    hist[ply] = *p;
    long long total = 0;
    for (int i = 0; i < 6; i++) {
        int m = p->turn * 6 + i;
        if (!legal(p, m)) continue;
        Pos q = *p;
        int cap = play(&q, m);
        total += perft(&q, depth - 1, ply + 1, cap ? ply + 1 : since);
    }
    return total;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 11;
    Pos start = {{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, {0, 0}, 0};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    long long n = perft(&start, depth, 0, 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("baseline oware depth %d: %lld leaves in %.3f s (%.0f leaves/s)\n", depth, n, s, n / s);
    return 0;
}
