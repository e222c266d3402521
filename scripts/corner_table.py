"""Print the table of the decision problem: from the lower-left corner of n x n, can the knight visit every square?

Each row is computed here by :func:`chesstours.tour_exists`, with how the answer is known.

Usage::

    python scripts/corner_table.py            # n = 1..10, Markdown
    python scripts/corner_table.py --up-to 20
"""

from __future__ import annotations

import argparse

from chesstours import Board, tour_exists


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--up-to", type=int, default=10, help="largest n (default 10)")
    args = parser.parse_args()
    print("| n | tour from a1? | proof | how it is known |")
    print("|---|---|---|---|")
    for n in range(1, args.up_to + 1):
        answer = tour_exists(Board(n, n), start="a1", time_limit=60)
        if answer.theorem:
            how = answer.theorem
        elif answer.proof == "construction":
            how = answer.certificate.stats["how"] if answer.certificate is not None else "a tour"
            how = f"a tour found by {how}" if n > 1 else "the one square"
        else:
            how = answer.reason.split(": ", 1)[-1].split(".")[0]
        print(f"| {n} | {answer.word} | {answer.proof} | {how} |")


if __name__ == "__main__":
    main()
