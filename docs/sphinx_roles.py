"""A griffe extension for the API reference: the docstrings' reST markup, read as Markdown.

The package's numpydoc docstrings use a little reST that Markdown does not know:
cross-reference roles (``:func:`~chesstours.find_tour```, ``:class:`Board```),
``:raises Error: when`` fields, numbered references (``.. [1] Author, "Title",
venue, year``), literal blocks introduced by ``::``, and doctests outside an
Examples section; and constants are documented by ``#:`` comments above them.
Before mkdocstrings renders a docstring, this extension turns a role into a link
to the object's page when the object is in the reference (and into plain code
when it is not), a field into "Raises Error: when", a reference into a numbered
list item, ``::`` into ``:``, and such a doctest into a code block; and it makes
the ``#:`` comments above a constant its docstring. The source stays as it is.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const):`(~?)([\w.]+)(?:\(\))?`")
REFERENCE = re.compile(r"^(\s*)\.\. \[(\d+)\] ", re.MULTILINE)
LITERAL = re.compile(r"(\S)::$", re.MULTILINE)
RAISES = re.compile(r"^(\s*):raises ([\w.]+):", re.MULTILINE)


def _target(obj: griffe.Object, name: str) -> str:
    """The full path of ``name`` as seen from ``obj`` (``name`` itself when it cannot be resolved)."""
    if name.startswith("chesstours"):
        return name
    scope = obj
    while scope is not None:
        try:
            return scope.resolve(name)
        except (griffe.NameResolutionError, AttributeError, KeyError, ValueError):
            pass
        if "." in name:
            head, _, rest = name.partition(".")
            try:
                return f"{scope.resolve(head)}.{rest}"
            except (griffe.NameResolutionError, AttributeError, KeyError, ValueError):
                pass
        scope = scope.parent
    return name


def markdown(obj: griffe.Object, text: str) -> str:
    """``text``, a docstring of ``obj``, with its reST markup rewritten as Markdown."""

    def autoref(name: str, title: str) -> str:
        return f'<autoref identifier="{_target(obj, name)}" optional><code>{title}</code></autoref>'

    def link(match: re.Match) -> str:
        short, name = match.group(1), match.group(2)
        return autoref(name, name.rpartition(".")[2] if short else name)

    text = ROLE.sub(link, text)
    text = RAISES.sub(lambda m: f"{m.group(1)}*Raises* {autoref(m.group(2), m.group(2))}:", text)
    text = REFERENCE.sub(lambda m: f"{m.group(1)}{m.group(2)}. ", text)
    return _fence_doctests(LITERAL.sub(r"\1:", text))


def _fence_doctests(text: str) -> str:
    """Put the doctests that stand outside an Examples section in fenced code blocks.

    In an Examples section griffe makes the code blocks itself; elsewhere a doctest
    would be read as Markdown, where ``[(2, 1), ...]`` looks like a link.
    """
    lines = text.split("\n")
    out: list[str] = []
    section = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and line.strip() and set(lines[i + 1].strip()) == {"-"}:
            section = line.strip()
        if line.lstrip().startswith(">>>") and section != "Examples":
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _comment_above(obj: griffe.Object) -> str:
    """The ``#:`` comment lines just above an attribute's assignment, joined."""
    lines = obj.module.lines if obj.lineno else []
    found: list[str] = []
    number = (obj.lineno or 1) - 2
    while number >= 0 and lines[number].lstrip().startswith("#:"):
        found.insert(0, lines[number].lstrip()[2:].strip())
        number -= 1
    return " ".join(found)


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring of the package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        seen: set[int] = set()
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.docstring is None and obj.is_attribute:
                comment = _comment_above(obj)
                if comment:
                    obj.docstring = griffe.Docstring(comment, parent=obj)
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj, obj.docstring.value)
            stack.extend(member for member in obj.members.values() if not member.is_alias)
