"""The API reference shows each parameter of the public api once, with its real default.

The reference pages are made by mkdocstrings from the numpydoc docstrings, read by griffe
as the site's build reads them (``docstring_style: numpy`` in mkdocs.yml). griffe shows,
for each entry of a ``Parameters`` section, the names it lists, the type it is given and a
default: one the type line states (``str, default "fixed"``), else the first value of a set
of choices (``{"a", "b"}``, numpydoc's convention that the default comes first), else the
signature's. So an entry that lists several names repeats its text under each of them and
shows the first one's default for all, and a set of choices whose default is not listed
first shows a wrong default. The docstrings here name one parameter an entry and list
choices in the description; this module checks that they do, for every function and class
that the reference pages render (``chesstours.__all__`` and the ``__all__`` of each module a page
shows) and their public methods.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import logging
import re
from pathlib import Path

import pytest

griffe = pytest.importorskip("griffe")

ROOT = Path(__file__).resolve().parent.parent

#: An entry of a Parameters section that names more than one parameter (``start, end : int``).
GROUPED = re.compile(r"^\s*\*{0,2}\w+(?:,\s*\*{0,2}\w+)+\s*(?::|$)")


def _target(obj):
    return obj.final_target if obj.is_alias else obj


def reference_modules() -> list[str]:
    """The modules the reference pages render (``::: chesstours.frontier`` lines of docs/reference/)."""
    names = []
    for page in sorted((ROOT / "docs" / "reference").glob("*.md")):
        names += re.findall(r"^::: (chesstours[\w.]*)\s*$", page.read_text(encoding="utf-8"), re.M)
    return list(dict.fromkeys(names))


def _public_objects():
    """``(griffe object, Python object)`` for each function and class the reference pages show, and each
    public method: the names of ``__all__`` of each module rendered."""
    logging.getLogger("griffe").setLevel(logging.ERROR)
    package = griffe.load("chesstours", search_paths=[str(ROOT / "src")], docstring_parser="numpy",
                          resolve_aliases=True, resolve_external=False)
    seen = set()
    for module_name in reference_modules():
        module = importlib.import_module(module_name)
        static_module = package if module_name == "chesstours" else package[module_name.removeprefix("chesstours.")]
        for name in getattr(module, "__all__", ()):
            python = getattr(module, name)
            if not (inspect.isfunction(python) or inspect.isclass(python)):
                continue
            static = _target(static_module[name])
            if static.path in seen:
                continue
            seen.add(static.path)
            yield static, python
            if inspect.isclass(python):
                for member, value in vars(python).items():
                    if member.startswith("_") or member not in static.members:
                        continue
                    function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
                    if inspect.isfunction(function):
                        yield _target(static.members[member]), getattr(python, member)


OBJECTS = list(_public_objects())


def _sections(static):
    docstrings = [static.docstring]
    if static.is_class and "__init__" in static.members:
        docstrings.append(_target(static.members["__init__"]).docstring)
    for docstring in docstrings:
        if docstring is None:
            continue
        for section in docstring.parse("numpy", warnings=False):
            if section.kind.value in ("parameters", "other parameters"):
                yield docstring, section


def _section_lines(docstring) -> list[str]:
    """The lines of a docstring's Parameters sections."""
    lines, inside = [], False
    text = docstring.value.splitlines()
    for i, line in enumerate(text):
        underline = i + 1 < len(text) and set(text[i + 1].strip()) == {"-"}
        if underline:
            inside = line.strip() in ("Parameters", "Other Parameters")
        elif inside and set(line.strip()) != {"-"}:
            lines.append(line)
    return lines


def test_the_api_and_the_reference_pages_are_read():
    names = {static.name for static, _ in OBJECTS}
    assert {"find_tour", "count_tours", "tour_exists", "iter_tours", "complete_tour", "Tour", "Board"} <= names
    assert {"frontier_count", "warnsdorff", "Search", "plan_count"} <= names


@pytest.mark.parametrize(("static", "python"), [pytest.param(*pair, id=pair[0].path) for pair in OBJECTS])
def test_each_parameter_is_shown_once_with_its_default(static, python):
    init = _target(static.members["__init__"]) if static.is_class and "__init__" in static.members else static
    source = {p.name: p.default for p in init.parameters}
    for docstring, section in _sections(static):
        grouped = [line.strip() for line in _section_lines(docstring) if GROUPED.match(line)]
        assert not grouped, f"{static.path}: one parameter an entry, not {grouped}"
        choices = [line.strip() for line in _section_lines(docstring) if re.match(r"^\s*\w+ : \{", line)]
        assert not choices, f"{static.path}: list the choices in the description, not the type: {choices}"
        runtime = inspect.signature(python).parameters
        names = [p.name.lstrip("*") for p in section.value]
        assert len(names) == len(set(names)), f"{static.path}: a parameter documented twice: {names}"
        for parameter in section.value:
            name = parameter.name.lstrip("*")
            assert name in runtime, f"{static.path}: {name} is not a parameter"
            assert parameter.description.strip(), f"{static.path}: {name} has no description"
            shown, real = parameter.default, runtime[name].default
            if shown is None or str(shown) == str(source.get(name)):
                continue  # the signature's own default
            assert ast.literal_eval(str(shown)) == real, f"{static.path}: {name} shows {shown}, is {real!r}"
