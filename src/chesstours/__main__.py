"""``python -m chesstours``, and the ``chesstours`` program (:func:`run`): the command line."""

from .stops import record_stops


def run() -> None:
    """The command line (:func:`chesstours.cli.entry`), with the stop signals recorded before its modules are
    imported (numpy, typer and the rest): one that comes meanwhile ends the program with its status."""
    stops = record_stops()
    from .cli import entry

    entry(stops)


if __name__ == "__main__":
    run()
