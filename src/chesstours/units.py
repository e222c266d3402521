"""Times and sizes written for people, the same way in the library, the command line and the web page.

Examples
--------
>>> format_duration(0.4), format_duration(95), format_duration(3 * 3600), format_duration(5e9)
('under a second', '2 minutes', '3 hours', '158 years')
>>> format_duration(1e140)
'3.2e+132 years'
>>> format_bytes(512), format_bytes(3 * 2**30), format_bytes(2e18)
('512 bytes', '3.0 GiB', '2e+09 GiB')
"""

from __future__ import annotations

__all__ = ["format_duration", "about_duration", "format_seconds", "format_bytes"]

_UNITS = (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def format_duration(seconds: float) -> str:
    """A rough human duration: the largest whole unit, rounded (``"3 hours"``, ``"under a second"``)."""
    if not seconds >= 1:
        return "under a second"
    for unit, size in _UNITS:
        if seconds >= size:
            if seconds / size >= 1e6:
                return f"{seconds / size:.1e} {unit}s"
            n = round(seconds / size)
            return f"{n:,} {unit}{'' if n == 1 else 's'}"
    raise AssertionError("unreachable")  # pragma: no cover


def about_duration(seconds: float) -> str:
    """:func:`format_duration` after "about", which "under a second" does not take: ``"about 3 hours"``,
    ``"under a second"``."""
    text = format_duration(seconds)
    return text if text == "under a second" else f"about {text}"


def format_seconds(seconds: float) -> str:
    """A duration to set against another: two figures of seconds below ten (``"0.74 s"``, ``"3.1 s"``), else
    :func:`format_duration` (two estimates "under a second" cannot be told apart)."""
    return f"{seconds:.2g} s" if seconds < 10 else format_duration(seconds)


def format_bytes(nbytes: float) -> str:
    """Bytes for a person: ``"512 bytes"``, ``"2.3 KiB"``, ``"12.5 MiB"``, ``"3.0 GiB"`` (past a million GiB, in
    powers of ten)."""
    if nbytes < 1024:
        return f"{nbytes:.0f} bytes"
    if nbytes < 2**20:
        return f"{nbytes / 2**10:,.1f} KiB"
    if nbytes < 2**30:
        return f"{nbytes / 2**20:,.1f} MiB"
    gib = nbytes / 2**30
    return f"{gib:,.1f} GiB" if gib < 1e6 else f"{gib:.0e} GiB"
