"""Tours as NumPy files: ``.npy`` holds the path alone, ``.npz`` the path with everything needed to check it.

A ``.npz`` file (``--format npz``, or ``-o FILE.npz``) is NumPy's archive of
named arrays, written without pickles and read with ``allow_pickle=False``:

- ``path``: the squares in visiting order (``int32``, ``r * cols + c``);
- ``board``: its rows and columns (two whole numbers);
- ``holes``: the squares removed from the board (``int32``, maybe none);
- ``leap``: the piece's leap ``(a, b)``, ``(1, 2)`` for the knight;
- ``closed``: whether the tour is closed (one boolean).

``chesstours check FILE.npz`` needs no ``--board``. A ``.npy`` file holds only
the path, so it is read with ``--board`` (and ``--holes``, ``--piece``,
``--closed`` where they apply). Both are read under the bounds of
:mod:`chesstours.reading`: the file at most :data:`~chesstours.reading.MAX_INPUT_BYTES`
long, and an archive's arrays at most as much once unpacked.
"""

from __future__ import annotations

import io
import zipfile
from typing import IO, Optional

import numpy as np

from ..board import Board
from ..errors import InvalidArgument
from ..output import save_npy, save_npz
from ..pieces import Leaper, parse_piece
from ..reading import MAX_INPUT_BYTES
from ..tour import InvalidTour, Tour, path_array

__all__ = ["NPZ_ARRAYS", "tour_arrays", "save_tour_array", "is_npz", "is_npy", "npy_tour", "npz_tour"]

#: The arrays of a tour's ``.npz`` file, each with what it holds.
NPZ_ARRAYS = {
    "path": "the squares in visiting order",
    "board": "the board's rows and columns",
    "holes": "the squares removed from the board",
    "leap": "the piece's leap (a, b)",
    "closed": "whether the tour is closed",
}


def tour_arrays(tour: Tour) -> dict[str, np.ndarray]:
    """The arrays of ``tour``'s ``.npz`` file (:data:`NPZ_ARRAYS`)."""
    board = tour.board
    return {"path": np.asarray(tour.path, dtype=np.int32),
            "board": np.array([board.rows, board.cols], dtype=np.int64),
            "holes": np.array(sorted(board.holes), dtype=np.int32),
            "leap": np.array(tour.piece.leap, dtype=np.int64),
            "closed": np.array(bool(tour.closed))}


def is_npz(data: bytes) -> bool:
    """Whether ``data`` is a zip archive, as a ``.npz`` file is."""
    return data.startswith(b"PK\x03\x04")


def is_npy(data: bytes) -> bool:
    """Whether ``data`` begins as a ``.npy`` file does."""
    return data.startswith(b"\x93NUMPY")


def npy_tour(file: str, board: Optional[str], holes: str, piece: Optional[str], closed: Optional[bool],
             data: bytes) -> Tour:
    """A tour saved with ``--format npy``, read into ``data``: the path alone, so the board must be given.

    :raises InvalidArgument: without ``board``, or for a file that is not an array of squares.
    """
    if board is None:
        raise InvalidArgument(f"{file} holds only the squares of a path; give the board with --board ROWSxCOLS "
                              "(a .npz file, --format npz, holds its board).")
    try:
        path = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError):
        raise InvalidArgument(f"{file} is not a NumPy array file (.npy) of square numbers.") from None
    if not isinstance(path, np.ndarray) or path.ndim != 1 or not np.issubdtype(path.dtype, np.integer):
        raise InvalidArgument(f"{file} is not a path: a one-dimensional array of square numbers.")
    return Tour(Board.parse(board, holes), parse_piece(piece or "knight"), path_array(path), bool(closed))


def npz_tour(file: str, data: bytes, piece: Optional[str], closed: Optional[bool]) -> Tour:
    """A tour saved with ``--format npz``, read from ``data``: its board, holes, piece and closedness with it.

    ``piece`` and ``closed``, where given, must agree with the file's (as with a JSON tour's own).

    :raises InvalidArgument: for a file that is not such an archive, or one that holds a pickle, an array of
        another kind or shape, or more than :data:`~chesstours.reading.MAX_INPUT_BYTES` unpacked.
    """
    arrays = _npz_arrays(file, data)
    rows, cols = (int(v) for v in _whole_numbers(file, arrays, "board", 2))
    a, b = (int(v) for v in _whole_numbers(file, arrays, "leap", 2))
    own_closed = arrays["closed"]
    if own_closed.shape != () or own_closed.dtype != np.bool_:
        raise InvalidArgument(f"{file}: 'closed' is not one boolean.")
    board = Board(rows, cols, [int(v) for v in _whole_numbers(file, arrays, "holes", None)])
    leaper = Leaper(a, b)
    if piece is not None and parse_piece(piece) != leaper:
        raise InvalidArgument(f"{file} holds a tour of the {leaper.name}, not of the {parse_piece(piece).name} "
                              "--piece names.")
    if closed is not None and closed != bool(own_closed):
        raise InvalidArgument(f"{file} holds {'a closed' if own_closed else 'an open'} tour; --closed/--open "
                              "asks for the other.")
    path = _whole_numbers(file, arrays, "path", None)
    try:
        squares = path_array(path)
    except InvalidTour as exc:
        raise InvalidArgument(f"{file}: {exc}") from None
    return Tour(board, leaper, squares, bool(own_closed))


def _npz_arrays(file: str, data: bytes) -> dict[str, np.ndarray]:
    """The arrays of a ``.npz`` archive, each checked to unpack within the bound on input before it is read."""
    not_npz = f"{file} is not a tour's NumPy archive (.npz, as --format npz writes)."
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = {info.filename: info for info in archive.infolist()}
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise InvalidArgument(not_npz) from None
    if sum(info.file_size for info in members.values()) > MAX_INPUT_BYTES:
        raise InvalidArgument(f"{file} unpacks to more than {MAX_INPUT_BYTES >> 20:,} MiB, more than any tour "
                              "chesstours reads.")
    missing = [name for name in NPZ_ARRAYS if f"{name}.npy" not in members]
    if missing:
        raise InvalidArgument(f"{file} lacks {', '.join(repr(m) for m in missing)}: a tour's .npz holds "
                              f"{', '.join(NPZ_ARRAYS)}.")
    arrays = {}
    for name in NPZ_ARRAYS:
        try:
            with archive.open(members[f"{name}.npy"]) as fh:
                arrays[name] = np.lib.format.read_array(fh, allow_pickle=False)
        except ValueError as exc:
            what = "a pickle, which chesstours never reads" if "pickle" in str(exc).lower() else "not an array"
            raise InvalidArgument(f"{file}: '{name}' is {what}.") from None
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError):
            raise InvalidArgument(not_npz) from None
    return arrays


def _whole_numbers(file: str, arrays: dict[str, np.ndarray], name: str, count: int | None) -> np.ndarray:
    """The array ``name``: one-dimensional whole numbers, ``count`` of them where it says."""
    array = arrays[name]
    if array.ndim != 1 or array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise InvalidArgument(f"{file}: '{name}' ({NPZ_ARRAYS[name]}) is not a list of whole numbers.")
    if count is not None and array.size != count:
        raise InvalidArgument(f"{file}: '{name}' ({NPZ_ARRAYS[name]}) holds {array.size} numbers, not {count}.")
    return array


def save_tour_array(fh: IO[bytes], tour: Tour, fmt: str) -> None:
    """Write ``tour`` as ``fmt``: ``npy`` (the path) or ``npz`` (the path and its board, piece and closedness)."""
    if fmt == "npz":
        save_npz(fh, tour_arrays(tour))
    else:
        save_npy(fh, tour.path)
