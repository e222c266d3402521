"""Reading what a person gives chesstours: numbers written in digits, JSON, and files of a bounded size.

One place for the limits of input, so that a board size, a square, a hole, a
leap, a tour file and a checkpoint are read under the same rules:

- a number is at most :data:`LONGEST_NUMBER` digits long: no size, square or
  leap chesstours handles needs more, and Python refuses to convert numbers of
  thousands of digits (its guard against slow conversions) with an error that
  names none of this;
- JSON is read with the same bound on its numbers, and a document nested too
  deeply for the parser is refused with a sentence rather than a RecursionError;
- a file is read in pieces, at most :data:`MAX_INPUT_BYTES` of it, whatever it
  is (a regular file, a pipe, ``/dev/zero``), so that a wrong file fails at once
  instead of filling the memory.

Examples
--------
>>> from chesstours.errors import InvalidBoard
>>> whole_number("0012", InvalidBoard, "A board side")
12
>>> whole_number("9" * 40, InvalidBoard, "A board side")
Traceback (most recent call last):
...
chesstours.errors.InvalidBoard: A board side has 40 digits; chesstours reads numbers of at most 30.
>>> shown(1234567), shown(10**100)
('1,234,567', 'a number of 101 digits')
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any, BinaryIO

from .errors import ChessToursError, InvalidArgument, os_problem, os_reason

__all__ = ["LONGEST_NUMBER", "MAX_INPUT_BYTES", "whole_number", "shown", "quoted", "positive_count", "load_json", "read_input"]

#: Most digits of a number chesstours reads: every size, square and leap it handles has at most 19.
LONGEST_NUMBER = 30
#: Most bytes of a file chesstours reads (a tour, a route): a tour of the largest board it handles, written out
#: as moves or JSON, is a few hundred million bytes at most; anything larger is not such a file.
MAX_INPUT_BYTES = 256 << 20
#: Bytes read at a time.
_PIECE = 1 << 20


def whole_number(digits: str, error: type[ChessToursError], what: str) -> int:
    """``digits`` (an optional sign, then decimal digits) as an int.

    :raises error: naming ``what`` when the number has more than :data:`LONGEST_NUMBER` digits.
    """
    text = digits.strip()
    significant = text.lstrip("+-").lstrip("0")
    if len(significant) > LONGEST_NUMBER:
        raise error(f"{what} has {len(significant):,} digits; chesstours reads numbers of at most "
                    f"{LONGEST_NUMBER}.")
    return int(text)


def positive_count(value: object, option: str, what: str) -> None:
    """Refuse a count of things (threads, processes, squares) that is not a whole number of at least one.

    :raises InvalidArgument: naming the ``option`` (``--jobs``) and ``what`` it counts (with the library's
        argument), such as "processes (jobs=)".
    """
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgument(f"{option} must be at least 1, not {value!r}: it is a whole number of {what}.")


def shown(n: int) -> str:
    """``n`` with thousands separators, or "a number of N digits" for one too long to write out in a message."""
    n = int(n)
    if abs(n).bit_length() <= 100:
        return f"{n:,}"
    digits = int(math.log10(abs(n))) + 1  # log10 of an int of any size; the exact count matters little
    return f"a number of {digits:,} digits"


def quoted(text: str, longest: int = 40) -> str:
    """``repr(text)`` for a message, cut to about ``longest`` characters: a sentence quotes a wrong word, not
    a whole wrong file.

    >>> quoted("a1"), quoted("x" * 100)
    ("'a1'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100 characters)")
    """
    if len(text) <= longest:
        return repr(text)
    return f"{text[:longest - 2]!r}"[:-1] + f"...' ({len(text):,} characters)"


def load_json(text: str, error: type[ChessToursError], what: str) -> Any:
    """``text`` parsed as JSON, each whole number at most :data:`LONGEST_NUMBER` digits.

    :raises error: naming ``what`` (such as "The tour") when the text is not JSON, nests too deeply, or holds
        too long a number.
    """
    def number(digits: str) -> int:
        return whole_number(digits, error, f"A number in {what[:1].lower()}{what[1:]}")

    try:
        return json.loads(text, parse_int=number)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno}.") from None
    except RecursionError:
        raise error(f"{what} nests lists or objects too deeply to be read (more than about "
                    f"{sys.getrecursionlimit():,} levels).") from None


def read_input(name: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the file ``name`` (``-``: standard input), at most ``limit`` of them, read in pieces.

    :raises InvalidArgument: for a file longer than ``limit`` (before reading a regular file whose size says
        so), or one that cannot be read (missing, a folder, a loop of symbolic links).
    :raises ResourceError: when the machine refuses (permission denied).
    """
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream standing in for standard input (a test's, an embedding program's)
            text = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise InvalidArgument(_too_long("Standard input", limit))
            return text.encode("utf-8")
        return _bounded(stream, "Standard input", limit)
    try:
        fh = open(name, "rb")
    except OSError as exc:
        raise os_problem(exc, f"Cannot read {name}: {os_reason(exc)}.") from None
    with fh:
        try:
            size = os.fstat(fh.fileno()).st_size if os.path.isfile(name) else 0
            if size > limit:
                raise InvalidArgument(_too_long(name, limit))
            return _bounded(fh, name, limit)
        except OSError as exc:
            raise os_problem(exc, f"Cannot read {name}: {os_reason(exc)}.") \
                from None


def _bounded(fh: BinaryIO, name: str, limit: int) -> bytes:
    """At most ``limit`` bytes of ``fh``, read a piece at a time.

    :raises InvalidArgument: when there are more.
    """
    pieces: list[bytes] = []
    total = 0
    while True:
        piece = fh.read(min(_PIECE, limit + 1 - total))
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        total += len(piece)
        if total > limit:
            raise InvalidArgument(_too_long(name, limit))


def _too_long(name: str, limit: int) -> str:
    return (f"{name} holds more than {limit >> 20:,} MiB, more than any tour chesstours reads; "
            "give a tour as moves, JSON or .npy.")
