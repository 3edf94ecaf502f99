/* The time one read of a random memory line takes, by the size of the memory read from: what a
 * probe of the hash table waits for when nothing asked for its entry in time, at each `Hash`
 * (figures.md, "Kinds of nodes and the memory they wait for"). Each read's address comes from
 * the line read before it, so the reads cannot overlap: the figure is the latency, not the
 * bandwidth. The memory is asked for huge pages as the engine's table is (`MADV_HUGEPAGE`), or
 * for small ones with `small` as the last argument. Linux only. Build and run:
 *   cc -O2 -o /tmp/memory_latency bench/memory_latency.c && /tmp/memory_latency 1 4 16 256
 *   /tmp/memory_latency 256 small
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define HUGE_PAGE (2u << 20)
#define READS 20000000L

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift64: the order the lines are chained in. */
static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Nanoseconds a read over `mib` MiB, or a negative number when the memory cannot be had. */
static double latency(size_t mib, int huge) {
    size_t bytes = mib << 20, lines = bytes / LINE;
    /* One huge page spare, to start on a huge page boundary. */
    char *map = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return -1;
    char *mem = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    madvise(mem, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    size_t *order = malloc(lines * sizeof *order);
    if (!order) {
        munmap(map, bytes + HUGE_PAGE);
        return -1;
    }
    for (size_t i = 0; i < lines; i++) order[i] = i;
    uint64_t s = 88172645463325252ULL;
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = next_random(&s) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* Each line holds the offset of the next one in the shuffled order: one cycle through all. */
    for (size_t i = 0; i < lines; i++)
        *(size_t *)(mem + order[i] * LINE) = order[(i + 1) % lines] * LINE;
    size_t at = order[0] * LINE;
    free(order);
    for (size_t i = 0; i < lines; i++) at = *(volatile size_t *)(mem + at); /* warm up */
    double start = seconds();
    for (long i = 0; i < READS; i++) at = *(volatile size_t *)(mem + at);
    double ns = (seconds() - start) / READS * 1e9;
    munmap(map, bytes + HUGE_PAGE);
    return at == SIZE_MAX ? 0 : ns; /* `at` used, so the chain is not optimized away */
}

int main(int argc, char **argv) {
    int huge = !(argc > 1 && strcmp(argv[argc - 1], "small") == 0);
    int sizes = argc - 1 - !huge;
    if (sizes < 1) {
        fprintf(stderr, "usage: %s MIB... [small]\n", argv[0]);
        return 2;
    }
    for (int i = 1; i <= sizes; i++) {
        char *end;
        long mib = strtol(argv[i], &end, 10);
        if (*end || mib < 1 || mib > 65536) {
            fprintf(stderr, "%s: not a size in MiB from 1 to 65536\n", argv[i]);
            return 2;
        }
        double ns = latency((size_t)mib, huge);
        if (ns < 0) {
            fprintf(stderr, "%ld MiB: cannot allocate\n", mib);
            return 1;
        }
        printf("%5ld MiB, %s pages: %6.1f ns a read\n", mib, huge ? "huge" : "small", ns);
    }
    return 0;
}
