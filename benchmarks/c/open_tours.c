/* Count every open knight's tour of an R x C board: a yardstick for chesstours's backtracking.
 *
 * One thread, no symmetry reduction, every square as a start; the count is of
 * directed tours (6637920 on 6x6, 1728 on 5x5, 16 on 3x4). The search is the
 * one chesstours's kernel runs:
 *
 *   - a board padded with a border of 2 visited squares, so a move needs no bounds test;
 *   - degree[u], the unvisited neighbours of u, updated as squares are placed and removed;
 *   - exact pruning: after the move c -> x, an unvisited neighbour of x with no unvisited
 *     neighbour left can only be the next and last square, and an unvisited neighbour of c
 *     (never a neighbour of x: a knight's two neighbours have one colour) with none is a
 *     dead end, with one it must be the last square; two such forced ends are a dead end;
 *   - a tour ends only where the colours allow (a knight alternates colours): on a board with
 *     as many dark squares as light, on the colour the start does not have; with one more of
 *     a colour, on that colour. A forced last square elsewhere is a dead end;
 *   - children tried in Warnsdorff order (fewest onward moves first, ties in move order).
 *
 * A node is one square placed after the start, whether or not the pruning then drops it.
 *
 * Build: cc -O2 -o open_tours open_tours.c
 * Usage: open_tours [ROWS COLS]   (6 6 by default)
 * Prints: count N / nodes N / seconds S (the search, without the process start).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PAD 2
#define MAXSQ 1024

static int width;
static int offs[8];
static unsigned char visited[MAXSQ];
static unsigned char end_ok[MAXSQ];
static int degree[MAXSQ];
static long long count, nodes;

/* Place x; return 1 when an unvisited neighbour of x is left with no unvisited neighbour. */
static int place(int x)
{
    int stranded = 0;
    visited[x] = 1;
    for (int j = 0; j < 8; j++) {
        int u = x + offs[j];
        if (--degree[u] == 0 && !visited[u])
            stranded = 1;
    }
    return stranded;
}

static void unplace(int x)
{
    visited[x] = 0;
    for (int j = 0; j < 8; j++)
        degree[x + offs[j]]++;
}

/* ``c`` is the current square, ``left`` the squares still to place, ``forced`` the
 * square that must come last (-1 when none). */
static void search(int c, int left, int forced)
{
    int cand[8], n = 0;
    for (int j = 0; j < 8; j++) {
        int x = c + offs[j];
        if (visited[x])
            continue;
        int i = n++;
        while (i > 0 && degree[cand[i - 1]] > degree[x]) {
            cand[i] = cand[i - 1];
            i--;
        }
        cand[i] = x;
    }
    for (int i = 0; i < n; i++) {
        int x = cand[i];
        nodes++;
        if (left == 1) {
            count += end_ok[x];
            continue;
        }
        int f = forced;
        int dead = place(x) && left > 2;
        for (int j = 0; j < 8 && !dead; j++) {
            int u = c + offs[j];
            if (visited[u])
                continue;
            if (degree[u] == 0)
                dead = 1;
            else if (degree[u] == 1 && u != f) {
                if (f >= 0 || !end_ok[u])
                    dead = 1;
                else
                    f = u;
            }
        }
        if (!dead)
            search(x, left - 1, f);
        unplace(x);
    }
}

int main(int argc, char **argv)
{
    int rows = 6, cols = 6;
    if (argc == 3) {
        rows = atoi(argv[1]);
        cols = atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [ROWS COLS]\n", argv[0]);
        return 2;
    }
    width = cols + 2 * PAD;
    if (rows < 1 || cols < 1 || (rows + 2 * PAD) * width > MAXSQ) {
        fprintf(stderr, "board too large\n");
        return 2;
    }
    static const int dr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int dc[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    for (int j = 0; j < 8; j++)
        offs[j] = dr[j] * width + dc[j];
    int size = (rows + 2 * PAD) * width;
    for (int v = 0; v < size; v++)
        visited[v] = 1;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            visited[(r + PAD) * width + c + PAD] = 0;
    for (int v = 0; v < size; v++) {
        degree[v] = 0;
        if (visited[v])
            continue;
        for (int j = 0; j < 8; j++)
            degree[v] += !visited[v + offs[j]];
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int squares = rows * cols;
    if (squares == 1)
        count = 1;
    for (int r = 0; r < rows && squares > 1; r++)
        for (int c = 0; c < cols; c++) {
            int s = (r + PAD) * width + c + PAD;
            /* dark: the colour of a1, with the extra square of an odd board */
            int start_dark = (r + c) % 2 == 0;
            for (int rr = 0; rr < rows; rr++)
                for (int cc = 0; cc < cols; cc++) {
                    int dark = (rr + cc) % 2 == 0;
                    end_ok[(rr + PAD) * width + cc + PAD] = squares % 2 ? dark && start_dark : dark != start_dark;
                }
            /* The start's neighbours keep their link to it: nothing is forced yet,
             * except a square whose only neighbour is the start (an end, or next). */
            place(s);
            int forced = -1, dead = 0;
            for (int v = 0; v < size && !dead; v++) {
                if (visited[v] || degree[v] > 1)
                    continue;
                int next_to_start = 0;
                for (int j = 0; j < 8; j++)
                    next_to_start |= v == s + offs[j];
                int links = degree[v] + next_to_start;
                if (links == 0 || (links == 1 && next_to_start && squares > 2))
                    dead = 1;
                else if (links == 1 && !next_to_start) {
                    if (forced >= 0 || !end_ok[v])
                        dead = 1;
                    forced = v;
                }
            }
            if (!dead)
                search(s, squares - 1, forced);
            unplace(s);
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("count %lld\nnodes %lld\nseconds %.6f\n", count, nodes, seconds);
    return 0;
}
