"""Remake the pictures in docs/ that the documentation shows, with the commands docs/guide/pictures.md lists.

Run from the repository root:  python scripts/make_docs_pictures.py
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The documentation's commands, word for word (``chesstours`` is run as ``python -m chesstours``).
COMMANDS = [
    "chesstours tour 8x8 --start a1 --closed --numbers -o docs/tour-8x8.svg",
    "chesstours tour 8x8 --start a1 --closed --size 280 --fps 6 -o docs/tour-8x8.gif",
    "chesstours trace 4x4 --start a1 --steps 24 --size 250 -o docs/trace-4x4.gif",
    "chesstours bishop 8x8 --shortest --numbers -o docs/bishop-8x8.svg",
    "chesstours bishop 8x8 --shortest --size 280 --fps 6 -o docs/bishop-8x8.gif",
]


def main() -> int:
    (ROOT / "docs").mkdir(exist_ok=True)
    for command in COMMANDS:
        words = shlex.split(command)
        print(command, flush=True)
        subprocess.run([sys.executable, "-m", "chesstours", *words[1:]], cwd=ROOT, check=True)
    for command in COMMANDS:
        out = ROOT / shlex.split(command)[-1]
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
