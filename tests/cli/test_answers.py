"""Answers that are no tour, no route or no count: the same status for the same answer, the reason said once."""

from chesstours.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_bishop_route_is_status_1_whatever_the_reason(capsys):
    by_colour = run(capsys, "bishop", "8x7")
    by_corners = run(capsys, "bishop", "5x5")
    assert by_colour[0] == by_corners[0] == 1
    for _, out, err in (by_colour, by_corners):
        assert out == "" and len(err.splitlines()) == 1 and err.startswith("chesstours: ")
        assert err.startswith("chesstours: No bishop route: ")


def test_count_of_closed_tours_of_5x5_prints_the_reason(capsys):
    code, out, _ = run(capsys, "count", "5x5", "--closed")
    assert code == 0 and "undirected: 0" in out
    assert "reason:     No closed tour: 5x5 has 25 squares, an odd number." in out


def test_tours_of_4x4_say_no_tour_once(capsys):
    code, out, err = run(capsys, "tours", "4x4")
    assert code == 1 and out == ""
    assert err.count("No tour") == 1 and len(err.splitlines()) == 1


def test_construct_names_the_piece_it_cannot_make_tours_of(capsys):
    code, out, err = run(capsys, "tour", "8x8", "--method", "construct", "--piece", "zebra")
    assert code == 2 and out == "" and "zebra" in err and len(err.splitlines()) == 1
