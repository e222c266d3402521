"""-o/--output: files a user can trust, whatever the name names."""

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from chesstours.cli import main
from chesstours.errors import InvalidArgument
from chesstours.output import open_atomic, write_atomic

MOVES = ["tour", "5x5", "--format", "moves"]


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part") or p.name.startswith("."))


@pytest.fixture
def umask():
    """Set a umask for the test, and put the old one back after."""
    old = os.umask(0o022)
    os.umask(old)

    def use(mask: int) -> None:
        os.umask(mask)

    yield use
    os.umask(old)


def test_dash_is_standard_output(capsys):
    code, out, err = run(capsys, *MOVES, "-o", "-")
    assert code == 0 and err == "" and len(out.split()) == 25


def test_dash_writes_a_binary_picture_to_standard_output(capfdbinary):
    code = main(["tour", "5x5", "--format", "png", "-o", "-"])
    out, err = capfdbinary.readouterr()
    assert code == 0 and err == b"" and out.startswith(b"\x89PNG\r\n\x1a\n")


def test_tours_dash_lists_to_standard_output(capsys):
    code, out, _ = run(capsys, "tours", "5x5", "--limit", "2", "-o", "-")
    assert code == 0 and len(out.splitlines()) == 2


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_a_new_file_honours_the_umask(tmp_path, capsys, umask, mask):
    umask(mask)
    target = tmp_path / "tour.txt"
    code, out, _ = run(capsys, *MOVES, "-o", str(target))
    assert code == 0 and out == ""
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    assert len(target.read_text().split()) == 25
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755])
def test_an_existing_file_is_replaced_keeping_its_mode(tmp_path, capsys, umask, mode):
    umask(0o022)
    target = tmp_path / "tour.txt"
    target.write_text("old\n")
    target.chmod(mode)
    inode = target.stat().st_ino
    code, _, _ = run(capsys, *MOVES, "-o", str(target))
    assert code == 0
    assert stat.S_IMODE(target.stat().st_mode) == mode
    assert len(target.read_text().split()) == 25
    assert target.stat().st_ino != inode  # replaced by a rename, not rewritten in place
    assert leftovers(tmp_path) == []


def test_a_symlink_is_followed_and_kept(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "tour.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    code, _, _ = run(capsys, *MOVES, "-o", str(link))
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(target.read_text().split()) == 25
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == [] and leftovers(real) == []


def test_a_chain_of_symlinks_and_a_dangling_one(tmp_path, capsys):
    target = tmp_path / "final.txt"
    (tmp_path / "b.txt").symlink_to(target)  # dangling until written
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    code, _, _ = run(capsys, *MOVES, "-o", str(tmp_path / "a.txt"))
    assert code == 0 and (tmp_path / "a.txt").is_symlink() and (tmp_path / "b.txt").is_symlink()
    assert len(target.read_text().split()) == 25


def test_a_fifo_is_written_in_place(tmp_path, capsys):
    fifo = tmp_path / "tour.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, _, err = run(capsys, *MOVES, "-o", str(fifo))
    reader.join(timeout=30)
    assert code == 0 and err == ""
    assert len(got[0].split()) == 25
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the FIFO, not replaced by a file
    assert leftovers(tmp_path) == []


def test_a_character_device_is_written_in_place(capsys):
    code, _, err = run(capsys, *MOVES, "-o", "/dev/null")
    assert code == 0 and err == ""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dev_stdout_is_the_standard_output_already_open(capfd):
    code = main([*MOVES, "-o", "/dev/stdout"])
    out, err = capfd.readouterr()
    assert code == 0 and err == "" and len(out.split()) == 25


def test_dev_stdout_redirected_to_a_file_is_not_truncated_under_the_shell(tmp_path):
    import subprocess
    import sys

    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = tmp_path / "out.txt"
    script = (f"echo first; '{sys.executable}' -m chesstours tour 5x5 -f moves -o /dev/stdout; echo last")
    with open(out, "w") as fh:
        subprocess.run(["bash", "-c", script], stdout=fh, env=env, check=True, timeout=120)
    lines = out.read_bytes().split(b"\n")
    assert lines[0] == b"first" and len(lines[1].split()) == 25 and lines[2] == b"last"
    assert b"\0" not in out.read_bytes()


def test_a_folder_is_refused_in_one_sentence(tmp_path, capsys):
    code, out, err = run(capsys, *MOVES, "-o", str(tmp_path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "folder" in err


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_name_is_refused(capsys, name):
    code, out, err = run(capsys, *MOVES, "-o", name)
    assert code == 2 and out == "" and err.count("\n") == 1 and "empty" in err


def test_a_missing_folder_is_refused_before_the_search(tmp_path, capsys):
    code, _, err = run(capsys, *MOVES, "-o", str(tmp_path / "no" / "such" / "tour.txt"))
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err


@pytest.mark.parametrize("command", [["tour", "5x5"], ["tours", "5x5"], ["bishop", "4x4"],
                                     ["trace", "5x5", "--start", "a1"]])
def test_an_unknown_extension_is_refused_listing_the_known_ones(tmp_path, capsys, command):
    code, out, err = run(capsys, *command, "-o", str(tmp_path / "x.pdf"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert ".pdf" in err and all(ext in err for ext in (".svg", ".png", ".gif", ".json", ".npy", ".txt", ".moves"))
    assert list(tmp_path.iterdir()) == []


def test_known_extensions_and_none_are_accepted(tmp_path, capsys):
    for name in ("tour", "tour.txt", "tour.json", "tour.svg", "tour.PNG"):
        code, _, err = run(capsys, "tour", "5x5", "-o", str(tmp_path / name))
        assert code == 0, (name, err)


def _interrupting(after: int, exc: BaseException):
    def write(fh):
        fh.write(b"x" * after)
        raise exc
    return write


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), OSError(errno.ENOSPC, "No space left on device"),
                                 MemoryError(), RuntimeError("bug")])
def test_a_failed_write_leaves_no_temporary_file_and_the_old_file_whole(tmp_path, exc):
    target = tmp_path / "tour.txt"
    target.write_text("the old tour\n")
    target.chmod(0o640)
    with pytest.raises(type(exc)):
        open_atomic(target, _interrupting(1000, exc))
    assert target.read_text() == "the old tour\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tour.txt"]


def test_a_full_disk_names_the_file(tmp_path):
    with pytest.raises(OSError) as info:
        open_atomic(tmp_path / "t.txt", _interrupting(10, OSError(errno.ENOSPC, "No space left on device")))
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path / "t.txt")


def test_a_failed_write_through_the_command_line_keeps_the_old_file(tmp_path, capsys, monkeypatch):
    from chesstours.cli import common

    target = tmp_path / "tour.txt"
    target.write_text("the old tour\n")

    def full(path, data):
        open_atomic(path, _interrupting(100, OSError(errno.ENOSPC, "No space left on device")))

    monkeypatch.setattr(common, "write_atomic", full)
    code, out, err = run(capsys, *MOVES, "-o", str(target))
    assert code == 5 and err.count("\n") == 1 and "disk is full" in err and str(target) in err
    assert target.read_text() == "the old tour\n" and leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_without_write_permission_is_status_5(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, out, err = run(capsys, *MOVES, "-o", str(locked / "tour.txt"))
    finally:
        locked.chmod(0o700)
    assert code == 5 and out == "" and err.count("\n") == 1 and "ermission denied" in err
    assert list(locked.iterdir()) == []


def test_the_api_refuses_what_it_cannot_write(tmp_path):
    for bad in ("", str(tmp_path), str(tmp_path / "no" / "x.txt")):
        with pytest.raises(InvalidArgument):
            write_atomic(bad, "x")


def test_permission_refused_by_the_system_is_status_5(tmp_path, capsys, monkeypatch):
    from chesstours import output

    def refuse(path, flags, mode=0o777):
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(output.os, "open", refuse)
    code, out, err = run(capsys, *MOVES, "-o", str(tmp_path / "tour.txt"))
    assert code == 5 and out == "" and err.count("\n") == 1
    assert "Permission denied" in err and str(tmp_path / "tour.txt") in err
