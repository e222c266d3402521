"""Errors raised by chesstours.

Every error a user can cause is a :class:`ChessToursError` whose message is one
sentence a person can act on. The command line prints that sentence on stderr
and exits with status 2 (status 1 for :class:`NoTour`, which is an answer, not
a mistake, or 4 for :class:`GaveUp`, when only a heuristic gave up; 3 for :class:`LimitReached`; 5
for :class:`ResourceError`, a problem of the machine rather than of the request).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ChessToursError",
    "InvalidBoard",
    "InvalidSquare",
    "InvalidPiece",
    "InvalidArgument",
    "NoTour",
    "GaveUp",
    "LimitReached",
    "ResourceError",
    "os_problem",
    "os_reason",
]


class ChessToursError(Exception):
    """Base class of every error chesstours raises on purpose."""


class InvalidBoard(ChessToursError, ValueError):
    """A board description that does not describe a board (``"0x5"``, ``"8x"``)."""


class InvalidSquare(ChessToursError, ValueError):
    """A square name or index that is not on the board, or is a hole."""


class InvalidPiece(ChessToursError, ValueError):
    """A piece that is not a leaper chesstours understands (``"0,0"``)."""


class InvalidArgument(ChessToursError, ValueError):
    """Any other argument out of range: a negative limit, an unknown method."""


class NoTour(ChessToursError):
    """No tour exists: a theorem, an argument or an exhaustive search says so.

    ``reason`` is the sentence to show; ``proof`` says how it is known
    (``"theorem"``, ``"colour"``, ``"connectivity"``, ``"exhaustive"``). A
    heuristic that finds none raises :class:`GaveUp` instead.
    """

    def __init__(self, reason: str, proof: str = "exhaustive", nodes: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.proof = proof
        self.nodes = nodes


class GaveUp(ChessToursError):
    """A heuristic (Warnsdorff's rule) found no tour, which does not mean that none exists.

    ``reason`` is the sentence to show, ``proof`` is ``"heuristic"``, ``nodes`` the squares it reached.
    Not a :class:`NoTour`: ``except NoTour`` never takes "stuck" for "impossible".
    """

    proof = "heuristic"

    def __init__(self, reason: str, nodes: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.nodes = nodes


class LimitReached(ChessToursError):
    """A time or node limit ran out before the search could answer.

    ``partial`` holds whatever was found so far (a count, a list of tours).
    """

    def __init__(self, message: str, partial: Any = None):
        super().__init__(message)
        self.partial = partial


class ResourceError(ChessToursError):
    """The machine could not do what was asked: a full disk, a permission refused, memory run out.

    Not a mistake in the request and not a bug: the same request may succeed
    with more room. ``errno`` is the system's error number when there is one.
    """

    def __init__(self, message: str, errno: int | None = None):
        super().__init__(message)
        self.errno = errno


def os_reason(exc: OSError) -> str:
    """What an :class:`OSError` is, in a few words to go inside a sentence: "the disk is full (no space left on
    device)", "permission denied"; the system's own words for the rest, never "None"."""
    import errno as codes

    words = {codes.ENOSPC: "the disk is full (no space left on device)",
             codes.EDQUOT: "the disk quota is used up",
             codes.EACCES: "permission denied",
             codes.EPERM: "the operation is not permitted",
             codes.EROFS: "the file system is read-only",
             codes.ENOMEM: "out of memory",
             codes.ELOOP: "its symbolic links loop"}
    if exc.errno in words:
        return words[exc.errno]
    text = exc.strerror or (str(exc) if str(exc) and str(exc) != "None" else type(exc).__name__)
    return text.rstrip(".").lower()


def os_problem(exc: OSError, sentence: str) -> ChessToursError:
    """``sentence`` as the error an :class:`OSError` stands for: a path that does not exist, names a folder, is
    too long or loops through symbolic links is the request's mistake (:class:`InvalidArgument`); anything else
    (a full disk, a refused permission) is the machine's (:class:`ResourceError`)."""
    import errno as codes

    if exc.errno in (codes.ENOENT, codes.ENOTDIR, codes.ENAMETOOLONG, codes.EISDIR, codes.ELOOP):
        return InvalidArgument(sentence)
    return ResourceError(sentence, exc.errno)
