"""Usage errors, shell completion, the pieces the command line names, and colour as the environment asks."""

import pytest

from chesstours.cli import main
from chesstours.pieces import NAMED_PIECES, piece_names


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args, hint", [
    (["help"], "Try 'chesstours --help' for help."),
    (["tour"], "Try 'chesstours tour --help' for help."),
    (["count", "6x6", "--bogus"], "Try 'chesstours count --help' for help."),
    (["--show-completion", "tcsh"], "Try 'chesstours --help' for help."),
])
def test_a_usage_error_is_one_sentence_and_the_hint_to_the_help(capsys, args, hint):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    sentence, given_hint = err.splitlines()
    assert sentence.startswith("chesstours: ") and sentence.endswith(".")
    assert given_hint == hint


def test_help_names_every_piece_of_the_table(capsys):
    code, out, _ = run(capsys, "tour", "--help")
    assert code == 0
    words = " ".join(out.split())
    for name in NAMED_PIECES:
        assert name in words


def test_an_unknown_piece_is_refused_naming_every_piece(capsys):
    code, _, err = run(capsys, "tour", "8", "--piece", "bishop")
    assert code == 2
    assert all(name in err for name in NAMED_PIECES)


def test_piece_names_come_shortest_leap_first_and_all_of_them():
    names = piece_names()
    assert sorted(names) == sorted(NAMED_PIECES) and names[:4] == ["wazir", "ferz", "dabbaba", "knight"]


@pytest.mark.parametrize("shell, mark", [("zsh", "#compdef chesstours"), ("fish", "complete --command chesstours"),
                                         ("bash", "complete -o default -F _chesstours_completion chesstours")])
def test_show_completion_prints_the_script_of_the_shell_asked_for(shell, mark):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "chesstours", "--show-completion", shell], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert mark in done.stdout


def test_the_pieces_complete_from_the_table(monkeypatch, capsys):
    monkeypatch.setenv("_CHESSTOURS_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "chesstours tour 8 --piece a")
    monkeypatch.setenv("COMP_CWORD", "4")
    with pytest.raises(SystemExit):
        main([])
    out, _ = capsys.readouterr()
    assert out.split() == ["alfil", "antelope"]


def test_force_color_colours_the_grid_on_a_pipe(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = run(capsys, "tour", "5x5")
    assert code == 0 and "\x1b[" in out


def test_without_force_color_a_pipe_gets_the_plain_grid(monkeypatch, capsys):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    code, out, _ = run(capsys, "tour", "5x5")
    assert code == 0 and "\x1b[" not in out and out.startswith("5 |")


def test_force_color_draws_no_progress_bar_into_a_pipe(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, _, err = run(capsys, "tour", "5x5")
    assert code == 0 and err == ""
