"""Tours as NumPy archives: ``-o FILE.npz`` holds the board, and ``check FILE.npz`` needs no --board."""

import io
import zipfile

import numpy as np
import pytest

from chesstours.cli import main
from chesstours.reading import MAX_INPUT_BYTES


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def arrays(**changed):
    base = {"path": np.array([0, 11, 18, 9, 2, 5, 16, 13, 4, 7, 14, 3, 6, 15, 12, 19, 8, 1, 10, 17], np.int32),
            "board": np.array([4, 5]), "holes": np.zeros(0, np.int32), "leap": np.array([1, 2]),
            "closed": np.array(False)}
    base.update(changed)
    return {k: v for k, v in base.items() if v is not None}


def archive(tmp_path, **changed):
    target = tmp_path / "t.npz"
    np.savez(target, **arrays(**changed))
    return target


def test_a_tour_written_as_npz_is_checked_without_the_board(capsys, tmp_path):
    target = tmp_path / "t.npz"
    assert run(capsys, "tour", "6x6", "--closed", "--holes", "", "-o", target)[0] == 0
    code, out, err = run(capsys, "check", target)
    assert code == 0 and out.startswith("valid: closed knight's tour of 6x6, 36 squares"), err


def test_the_npz_keeps_holes_piece_and_closedness(capsys, tmp_path):
    target = tmp_path / "w.npz"
    assert run(capsys, "tour", "3x3", "--holes", "b2", "--piece", "wazir", "--closed", "--format", "npz",
               "-o", target)[0] == 0
    with np.load(target, allow_pickle=False) as saved:
        assert saved["board"].tolist() == [3, 3] and saved["holes"].tolist() == [4]
        assert saved["leap"].tolist() == [0, 1] and bool(saved["closed"]) is True
        assert saved["path"].dtype == np.int32 and len(saved["path"]) == 8
    code, out, _ = run(capsys, "check", target)
    assert code == 0 and out.startswith("valid: closed wazir's tour of 3x3 without b2")


def test_an_npz_on_standard_input_is_read_by_its_first_bytes(capsys, tmp_path, monkeypatch):
    data = archive(tmp_path).read_bytes()

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr("sys.stdin", Stdin)
    code, out, _ = run(capsys, "check", "-")
    assert code == 0 and out.startswith("valid: open knight's tour of 4x5")


def test_npy_still_needs_the_board(capsys, tmp_path):
    target = tmp_path / "p.npy"
    assert run(capsys, "tour", "5x5", "-o", target)[0] == 0
    code, _, err = run(capsys, "check", target)
    assert code == 2 and "--board" in err and ".npz" in err
    assert run(capsys, "check", target, "--board", "5x5")[0] == 0


def test_an_illegal_step_in_an_npz_is_status_1(capsys, tmp_path):
    path = arrays()["path"].copy()
    path[[1, 2]] = path[[2, 1]]
    code, _, err = run(capsys, "check", archive(tmp_path, path=path))
    assert code == 1 and err.startswith("chesstours: invalid:")


@pytest.mark.parametrize("changed, words", [
    ({"path": None}, "lacks 'path'"),
    ({"board": np.array([4])}, "holds 1 numbers, not 2"),
    ({"board": np.array([4.0, 5.0])}, "not a list of whole numbers"),
    ({"board": np.array([0, 5])}, "at least one row"),
    ({"board": np.array([10**9, 10**9])}, "at most"),
    ({"holes": np.array([99], np.int32)}, "99"),
    ({"leap": np.array([0, 0])}, "does not move"),
    ({"closed": np.array([True, False])}, "not one boolean"),
    ({"path": np.array([[0, 1]])}, "not a list of whole numbers"),
    ({"path": np.array([0, 2**40])}, "not on any board"),
    ({"path": np.array(["a1"], dtype=object)}, "a pickle"),
])
def test_a_wrong_npz_is_one_sentence_and_status_2(capsys, tmp_path, changed, words):
    target = tmp_path / "t.npz"
    np.savez(target, allow_pickle=True, **arrays(**changed))
    code, out, err = run(capsys, "check", target)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("chesstours: "), err
    assert words in err and "Traceback" not in err


def test_an_npz_that_unpacks_past_the_cap_is_refused_before_it_is_read(capsys, tmp_path):
    target = tmp_path / "bomb.npz"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("path.npy", "w", force_zip64=True) as fh:
            chunk = bytes(1 << 20)
            for _ in range((MAX_INPUT_BYTES >> 20) + 1):
                fh.write(chunk)
    assert target.stat().st_size < MAX_INPUT_BYTES // 100
    code, _, err = run(capsys, "check", target)
    assert code == 2 and "unpacks to more than" in err


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04broken"])
def test_a_file_named_npz_that_is_no_archive_is_refused(capsys, tmp_path, content):
    target = tmp_path / "t.npz"
    target.write_bytes(content)
    code, _, err = run(capsys, "check", target)
    assert code == 2 and "is not a tour's NumPy archive" in err


@pytest.mark.parametrize("args, words", [
    (["--board", "4x5"], "holds its own board"),
    (["--closed"], "holds an open tour"),
    (["--piece", "zebra"], "not of the zebra"),
])
def test_options_that_contradict_the_npz_are_refused(capsys, tmp_path, args, words):
    code, _, err = run(capsys, "check", archive(tmp_path), *args)
    assert code == 2 and words in err


def test_npz_needs_a_file(capsys):
    code, out, err = run(capsys, "tour", "4x5", "--format", "npz")
    assert code == 2 and out == "" and "-o FILE" in err
