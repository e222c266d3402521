"""The command line on a terminal: the progress display ends before a message, colours as Rich decides."""

import os
import sys
import time

import pytest

from chesstours.cli import common, main
from chesstours.cli import find as find_cli
from chesstours.errors import LimitReached

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def on_terminal(monkeypatch, *args) -> tuple[int, str]:
    """Run the command line with standard error on a pseudo-terminal; its status and what the terminal got."""
    master, slave = os.openpty()
    terminal = open(slave, "w", encoding="utf-8", closefd=True)
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    try:
        code = main(list(args))
        terminal.flush()
    finally:
        terminal.close()
    received = b""
    while True:
        try:
            piece = os.read(master, 1 << 16)
        except OSError:  # the other end closed: everything was read
            break
        if not piece:
            break
        received += piece
    os.close(master)
    return code, received.decode("utf-8", "replace")


def slow_search_past_its_limit(*args, **kwargs):
    time.sleep(0.4)  # long enough for the progress display to be drawn
    raise LimitReached("Stopped at the time limit after 1,000 positions.")


def test_the_time_limit_message_starts_a_line_of_its_own_not_the_progress_bars(monkeypatch):
    monkeypatch.setattr(find_cli.api, "find_tour", slow_search_past_its_limit)
    code, screen = on_terminal(monkeypatch, "tour", "8x8", "--time-limit", "0.3")
    assert code == 3
    assert "searching" in screen  # the bar was drawn
    before = screen[:screen.index("chesstours: Stopped at the time limit")]
    # the bar's line was erased (Rich's erase-line) and nothing was written on it again before the message
    erased = before.rindex("\x1b[2K")
    assert "searching" not in before[erased:]
    assert before[erased:].replace("\x1b[?25h", "").strip("\r\n\x1b[2K") == ""


def test_say_takes_the_progress_display_off_first(monkeypatch):
    shown = []

    class Bar:
        def stop(self):
            shown.append("stopped")

    monkeypatch.setattr(common, "_SHOWN", [Bar()])
    monkeypatch.setattr(common.typer, "echo", lambda text, err=False: shown.append(text))
    common.say("a message.")
    assert shown == ["stopped", "chesstours: a message."]


def test_output_printed_while_the_bar_shares_the_terminal_goes_above_it(monkeypatch, capsys):
    printed = []

    class Console:
        def print(self, text, **options):
            printed.append(text)

    class Bar:
        console = Console()

    monkeypatch.setattr(common, "_SHOWN", [Bar()])
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    common.echo_above("frontier join    in the cache")
    assert printed == ["frontier join    in the cache"] and capsys.readouterr().out == ""
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)  # stdout elsewhere: the line goes there
    common.echo_above("bishop           in the cache")
    assert capsys.readouterr().out == "bishop           in the cache\n"
