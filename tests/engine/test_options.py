import pytest

from ludoteca.engine import Option, OptionError, option_sets, validate_options

DECLARED = (
    Option("rounds", "int", 3, minimum=1, maximum=5),
    Option("variant", "choice", "base", choices=("base", "long")),
    Option("feats", "bool", False),
    Option("duo", "bool", False, seats=(2,)),
)


def test_defaults_fill_what_is_not_given() -> None:
    assert validate_options(DECLARED, 3, {"rounds": 4}) == {"rounds": 4, "variant": "base", "feats": False,
                                                            "duo": False}


@pytest.mark.parametrize(
    ("given", "code", "named"),
    [
        ({"round": 2}, "option_unknown", "round"),
        ({"rounds": "2"}, "option_type", "rounds"),
        ({"rounds": True}, "option_type", "rounds"),
        ({"rounds": 9}, "option_range", "rounds"),
        ({"variant": "short"}, "option_value", "variant"),
        ({"feats": 1}, "option_type", "feats"),
        ({"duo": True}, "option_seats", "duo"),
    ],
)
def test_bad_options_are_errors_naming_the_option(given: dict, code: str, named: str) -> None:
    with pytest.raises(OptionError) as raised:
        validate_options(DECLARED, 3, given)
    assert raised.value.code == code
    assert repr(named) in raised.value.message


def test_parse_reads_command_line_values() -> None:
    assert DECLARED[0].parse("4") == 4
    assert DECLARED[2].parse("yes") is True
    with pytest.raises(OptionError):
        DECLARED[0].parse("four")


def test_option_sets_cover_each_value_once_and_everything_on() -> None:
    sets = option_sets(DECLARED, 3)
    assert sets[0] == {"rounds": 3, "variant": "base", "feats": False, "duo": False}
    assert {"rounds": 3, "variant": "long", "feats": False, "duo": False} in sets
    assert {"rounds": 5, "variant": "base", "feats": False, "duo": False} in sets
    assert all(not s["duo"] for s in sets)  # duo is for 2 seats only
    assert any(s["duo"] for s in option_sets(DECLARED, 2))


def test_a_choice_naming_seats_exists_only_up_to_the_seat_count() -> None:
    first = Option("first_player", "choice", "random", choices=("random", "1", "2", "3", "4"), seat_numbers=True)
    assert validate_options((first,), 3, {"first_player": "3"}) == {"first_player": "3"}
    with pytest.raises(OptionError) as raised:
        validate_options((first,), 2, {"first_player": "3"})
    assert raised.value.code == "option_seats" and "'first_player'" in raised.value.message
    assert [s["first_player"] for s in option_sets((first,), 2)] == ["random", "1", "2"]
    assert first.to_json()["seat_numbers"] is True
    with pytest.raises(ValueError):
        Option("rounds", "int", 3, minimum=1, maximum=5, seat_numbers=True)
