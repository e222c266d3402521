"""What an installed copy says about itself: its license.

``pip show`` prints the metadata's ``License`` field (pip 23 reads no ``License-Expression``)
and, with ``--verbose``, the classifiers, so pyproject.toml gives the license as a text field
and as a classifier.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_license_is_a_text_field_and_a_classifier_that_agree_with_the_license_file():
    first_line = (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()[0]
    assert first_line == "MIT License"
    assert PROJECT["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in PROJECT["classifiers"]
    assert PROJECT["license-files"] == ["LICENSE"]

