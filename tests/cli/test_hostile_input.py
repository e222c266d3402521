"""Hostile input answered with one sentence and exit 2: deep JSON, numbers of thousands of digits, frontiers
too wide to plan, cluster addresses, unbounded files, options a command does not use, odd output paths."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import numpy as np
import pytest

from chesstours.cli import main
from chesstours.output import open_atomic, save_npy
from chesstours.reading import MAX_INPUT_BYTES

LONG = "1" * 5000


def one_sentence(capsys, args, status=2):
    """Run ``args``; assert the exit ``status`` and a single line on stderr without a traceback; return it."""
    code = main(list(args))
    _, err = capsys.readouterr()
    assert code == status, err
    assert "Traceback" not in err and "internal error" not in err
    assert len(err.splitlines()) == 1, err
    return err


@pytest.fixture(autouse=True)
def no_traceback_files(tmp_path, monkeypatch):
    """Tracebacks of bugs land in a folder of the test's own, which must stay empty."""
    folder = tmp_path / "tracebacks"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield
    assert list(folder.iterdir()) == []


def test_json_nested_deeper_than_the_parser_reaches(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text('{"board": ' + "[" * 100_000 + "]" * 100_000 + ', "path": []}')
    assert "too deeply" in one_sentence(capsys, ["check", str(path)])


@pytest.mark.parametrize("args", [
    ["tour", f"{LONG}x8"], ["tour", "8x8", "--start", f"a{LONG}"], ["tour", "8x8", "--holes", f"a{LONG}"],
    ["tour", "8x8", "--piece", f"1,{LONG}"], ["count", "--strip", "3", "--cols", f"1..{LONG}"],
    ["count", "5x5", "--where", f"a1={LONG}"], ["check", "-", "--board", f"{LONG}x1"],
])
def test_numbers_of_thousands_of_digits(capsys, monkeypatch, args):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("a1 c2"))
    assert "digits" in one_sentence(capsys, args)


@pytest.mark.parametrize("text", [f"a1 c{LONG}", '{"board": "8x8", "path": [' + LONG + "]}",
                                  '{"board": {"rows": ' + LONG + ', "cols": 8}, "path": []}'])
def test_numbers_of_thousands_of_digits_in_a_check_file(tmp_path, capsys, text):
    path = tmp_path / "t.json"
    path.write_text(text)
    assert "digits" in one_sentence(capsys, ["check", str(path)])


def test_a_long_wrong_word_is_quoted_short(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_text("x" * 100_000)
    err = one_sentence(capsys, ["check", str(path)])
    assert len(err) < 300 and "100,000 characters" in err


@pytest.mark.parametrize("args", [["count", "31x31", "--method", "frontier"], ["count", "--strip", "31", "--cols", "40"],
                                  ["count", "--strip", "40", "--cols", "3"]])
def test_frontiers_too_wide_to_plan(capsys, args):
    assert "at most 17" in one_sentence(capsys, args)


def test_the_plan_of_a_board_too_wide_for_the_frontier_says_why(capsys):
    assert main(["count", "31x31", "--plan"]) == 0
    out, _ = capsys.readouterr()
    assert "more than 62 squares" in out


@pytest.mark.parametrize("address", ["", "://", "tcp://127.0.0.1", "tcp://127.0.0.1:abc", "udp://x", "inproc://x",
                                     "tls://host:8786", "ucx://host:8786", "tcp://:8786", "tcp://h:0", "tcp://h:99999"])
def test_cluster_addresses_are_refused_before_connecting(capsys, address):
    assert "tcp://HOST:PORT" in one_sentence(capsys, ["count", "5x5", "--cluster", address])


def test_a_cluster_address_is_read_once_for_listing_too(capsys):
    assert "tcp://HOST:PORT" in one_sentence(capsys, ["tours", "5x5", "--cluster", "udp://x"])


def test_a_file_larger_than_the_cap_is_refused_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "sparse.txt"
    with open(path, "wb") as fh:
        fh.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk used
    assert "MiB" in one_sentence(capsys, ["check", str(path)])


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_an_endless_device_is_read_only_up_to_the_cap(capsys):
    assert "MiB" in one_sentence(capsys, ["check", "/dev/zero"])


def test_a_loop_of_symbolic_links_is_the_requests_mistake(tmp_path, capsys):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert "loop" in one_sentence(capsys, ["check", str(tmp_path / "a")])
    assert "loop" in one_sentence(capsys, ["tour", "5x5", "-o", str(tmp_path / "a")])


def test_a_name_of_the_longest_length_is_written_through_a_temporary_that_fits(tmp_path, capsys):
    name = tmp_path / ("x" * 250 + ".txt")  # 254 bytes: the temporary's name must be shorter than ".NAME.x.part"
    assert main(["tour", "5x5", "--format", "moves", "-o", str(name)]) == 0
    assert name.read_text().startswith("a1") or name.read_text().strip()
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [name.name]


def test_a_regular_file_under_a_device_folder_is_replaced_not_written_in_place(tmp_path, capsys, monkeypatch):
    """Only what is not a regular file is written in place: /dev/shm/x, or a new /dev/null.txt, is a file."""
    from chesstours import output

    written: list[str] = []
    monkeypatch.setattr(output, "write_in_place", lambda name, write: written.append(name))
    target = tmp_path / "old.txt"
    target.write_text("old")
    assert main(["tour", "5x5", "--format", "moves", "-o", str(target)]) == 0
    assert written == [] and target.read_text() != "old"
    if os.path.exists("/dev/null"):
        assert main(["tour", "5x5", "-o", "/dev/null"]) == 0
        assert written == ["/dev/null"]


@pytest.mark.parametrize("args, names", [
    (["--strip", "5", "--cols", "5..8", "--plan"], ["--plan"]),
    (["--strip", "5", "--cols", "5..8", "--jobs", "2", "--where", "symmetric"], ["--jobs", "--where"]),
    (["--strip", "5", "--cols", "5..8", "-w", "2"], ["-w/--workers"]),
    (["--strip", "5", "--cols", "5..8", "-j", "2"], ["--jobs"]),
    (["--strip", "5", "--cols", "5..8", "--split-on", "2"], ["--split-on"]),
    (["--strip", "5", "--cols", "5..8", "--method", "backtrack"], ["--method"]),
    (["5x5", "--plan", "--where", "symmetric"], ["--where"]),
])
def test_options_a_strip_count_or_a_plan_does_not_use_are_refused(capsys, args, names):
    err = one_sentence(capsys, ["count", *args])
    assert all(name in err for name in names)


@pytest.mark.parametrize("args, word", [
    (["--strip", "5", "--cols", "5..8", "--plan", "-w", "-1", "--jobs", "0", "--split-on", "-3", "--where", "x",
      "--checkpoint", "/nonexistent/x"], "--workers"),
    (["5x5", "--jobs", "0"], "--jobs"), (["5x5", "-w", "-1"], "--workers"), (["5x5", "--split-on", "-3"], "--split-on"),
    (["5x5", "--plan", "--jobs", "0"], "--jobs"), (["5x5", "--plan", "--checkpoint", "/nonexistent/x"], "/nonexistent"),
])
def test_invalid_values_are_refused_with_one_sentence(capsys, args, word):
    assert word in one_sentence(capsys, ["count", *args])


def test_a_full_disk_writing_npy_says_the_disk_is_full(tmp_path):
    """numpy's own writer loses the error number; save_npy writes through the file object, which keeps it."""
    class Full:
        def __init__(self):
            self.written = 0

        def write(self, data):
            self.written += len(data)
            if self.written > 1000:
                raise OSError(errno.ENOSPC, "No space left on device")
            return len(data)

    with pytest.raises(OSError) as info:
        save_npy(Full(), np.zeros(10_000, np.int32))  # type: ignore[arg-type]
    assert info.value.errno == errno.ENOSPC
    path = tmp_path / "t.npy"
    open_atomic(path, lambda fh: save_npy(fh, np.arange(5)))
    assert np.load(path).tolist() == [0, 1, 2, 3, 4]


def test_the_reason_of_an_error_without_an_error_number_is_never_none():
    from chesstours.errors import os_reason

    assert os_reason(OSError(errno.ENOSPC, "No space left on device")).startswith("the disk is full")
    assert "none" not in os_reason(OSError()).lower()


def test_a_spill_folder_out_of_space_says_the_disk_is_full(tmp_path, monkeypatch):
    from chesstours.errors import ResourceError
    from chesstours.frontier import disk

    def full(path, array):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(disk, "write_array", full)
    layers = disk.Layers(tmp_path)
    with pytest.raises(ResourceError) as info:
        layers.write([np.arange(4, dtype=np.uint64)])
    assert "the disk is full" in str(info.value) and "None" not in str(info.value)


def test_npy_tours_are_read_back_within_the_cap(tmp_path, capsys):
    path = tmp_path / "t.npy"
    assert main(["tour", "5x5", "--format", "npy", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["check", str(path), "--board", "5x5"]) == 0
    assert Path(path).stat().st_size < MAX_INPUT_BYTES
