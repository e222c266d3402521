/* Warnsdorff's rule with Roth's tie-break on an n x n board from a1: a yardstick for
 * chesstours's compiled walk, ``warnsdorff(Board(n, n), 0, tiebreak="roth")``.
 *
 * The same walk, square for square: a board padded with a frame of 3 blocked squares,
 * each free square's weight (its free neighbours) kept incrementally, and at each step
 * the free neighbour of least weight; among equal weights the one farthest from the
 * centre of the board (Euclidean), and among those the first in the knight's move
 * order (2,1), (1,2), (-1,2), (-2,1), (-2,-1), (-1,-2), (1,-2), (2,-1) as (row, col).
 * Every leap has the same length, so "farthest from the centre" needs no square root:
 * it is the largest dot product of the leap with the vector from the centre to the
 * current square; one integer key, weight first, orders both.
 *
 * Build: cc -O2 -o warnsdorff warnsdorff.c
 * Usage: warnsdorff [N [PATH_FILE]]   (N = 1000 by default; PATH_FILE receives the
 *        squares, row * n + col, one a line)
 * Prints: complete yes|no / squares N / setup S / walk S (seconds, without the process start).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define FRAME 3
#define BLOCKED 100
#define FREE_BELOW 64

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    const char *out = argc > 2 ? argv[2] : NULL;
    if (n < 1 || n > 100000 || argc > 3) {
        fprintf(stderr, "usage: %s [N [PATH_FILE]]\n", argv[0]);
        return 2;
    }
    static const int dr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int dc[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    double t0 = now();
    long width = n + 2 * FRAME;
    long cells = width * width;
    long offs[8];
    for (int j = 0; j < 8; j++)
        offs[j] = dr[j] * width + dc[j];
    signed char *weight = malloc((size_t)cells);
    int32_t *path = malloc((size_t)(n * n) * sizeof *path);
    if (!weight || !path) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long v = 0; v < cells; v++)
        weight[v] = BLOCKED;
    for (long r = 0; r < n; r++)
        for (long c = 0; c < n; c++) {
            long v = (r + FRAME) * width + c + FRAME;
            int w = 0;
            for (int j = 0; j < 8; j++) {
                long rr = r + dr[j], cc = c + dc[j];
                w += rr >= 0 && rr < n && cc >= 0 && cc < n;
            }
            weight[v] = (signed char)w;
        }

    double t1 = now();
    long total = n * n, placed = total;
    long r = 0, c = 0;
    long cur = (r + FRAME) * width + c + FRAME;
    weight[cur] = BLOCKED;
    for (int j = 0; j < 8; j++)
        weight[cur + offs[j]]--;
    path[0] = (int32_t)(r * n + c);
    const int64_t big = (int64_t)1 << 40;
    for (long step = 1; step < total; step++) {
        int64_t x = 2 * r - n + 1, y = 2 * c - n + 1; /* twice the vector from the centre */
        int64_t best_key = big * FREE_BELOW;
        int best = -1;
        for (int j = 0; j < 8; j++) {
            int w = weight[cur + offs[j]];
            if (w >= FREE_BELOW)
                continue;
            int64_t key = w * big - (x * dr[j] + y * dc[j]);
            if (key < best_key) {
                best = j;
                best_key = key;
            }
        }
        if (best < 0) {
            placed = step;
            break;
        }
        cur += offs[best];
        r += dr[best];
        c += dc[best];
        weight[cur] = BLOCKED;
        for (int j = 0; j < 8; j++)
            weight[cur + offs[j]]--;
        path[step] = (int32_t)(r * n + c);
    }
    double t2 = now();

    printf("complete %s\nsquares %ld\nsetup %.6f\nwalk %.6f\n", placed == total ? "yes" : "no", placed,
           t1 - t0, t2 - t1);
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            perror(out);
            return 1;
        }
        for (long i = 0; i < placed; i++)
            fprintf(f, "%ld\n", (long)path[i]);
        fclose(f);
    }
    free(weight);
    free(path);
    return 0;
}
