"""--version, from the installed distribution's metadata, and shell completion."""

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import chesstours
from chesstours.cli import main

SRC = Path(__file__).resolve().parents[2] / "src"


def test_version_prints_the_one_version(capsys):
    assert main(["--version"]) == 0
    out, err = capsys.readouterr()
    assert out == f"chesstours {version('chesstours')}\n" and err == ""
    assert chesstours.__version__ == version("chesstours")


def test_the_version_has_one_source():
    pyproject = (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{chesstours.__version__}"' in pyproject
    init = (SRC / "chesstours" / "__init__.py").read_text(encoding="utf-8")
    assert chesstours.__version__ not in init


def test_version_comes_before_any_command(capsys):
    assert main(["--version", "tour", "4x4"]) == 0
    assert capsys.readouterr().out.startswith("chesstours ")


def test_help_offers_completion(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--install-completion" in out and "--show-completion" in out and "--version" in out


def _complete(words: str, cword: int) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "_CHESSTOURS_COMPLETE": "complete_bash",
           "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    done = subprocess.run([sys.executable, "-m", "chesstours"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_shell_completes_commands_and_options():
    assert _complete("chesstours to", 1) == ["tour", "tours"]
    assert _complete("chesstours tour 8x8 --me", 3) == ["--method"]


def test_show_completion_prints_a_script():
    # Typer detects the shell from the parent processes unless told to take the shell named after the option
    # (a test run started by no shell, in the background or by a service, has none to detect).
    env = {**os.environ, "PYTHONPATH": str(SRC), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    done = subprocess.run([sys.executable, "-m", "chesstours", "--show-completion", "bash"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "_CHESSTOURS_COMPLETE" in done.stdout
