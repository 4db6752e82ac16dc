"""Declared state fields (engine/fields.py): the JSON form derived from them, and the
checks the conformance suite runs on every game's state and clone."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.engine import Rng
from ludoteca.engine.fields import (
    BOOL,
    INT,
    INTS,
    JSON,
    OPT_STR,
    RNG,
    Field,
    Fields,
    clone_problems,
    objects,
    problems,
)


class Player:
    __slots__ = ("hand", "score")
    FIELDS = Fields(Field("hand", INTS), Field("score", INT))

    def __init__(self, hand: list[int], score: int = 0) -> None:
        self.hand = hand
        self.score = score


class Table:
    __slots__ = ("layout", "log", "over", "rng", "seats", "size", "winner")
    FIELDS = Fields(
        Field("rng", RNG),
        Field("seats", objects(Player)),
        Field("over", BOOL),
        Field("winner", OPT_STR, key="won_by"),
        Field("log", JSON),
        Field("layout", INTS, clone="share"),
        Field("size", derived=lambda t: len(t.layout)),
    )

    def __init__(self) -> None:
        self.rng = Rng(5)
        self.seats = [Player([1, 2]), Player([3], 4)]
        self.over = False
        self.winner: str | None = None
        self.log: list[dict[str, Any]] = [{"key": "start", "args": [1]}]
        self.layout = [7, 8, 9]
        self.size = 3

    def clone(self) -> Table:
        new = Table.__new__(Table)
        new.rng = self.rng.copy()
        new.seats = [Player(s.hand[:], s.score) for s in self.seats]
        new.over = self.over
        new.winner = self.winner
        new.log = [{"key": e["key"], "args": e["args"][:]} for e in self.log]
        new.layout = self.layout
        new.size = self.size
        return new


def test_the_json_form_follows_the_declaration_and_reads_back() -> None:
    table = Table()
    data = Table.FIELDS.to_json(table)
    assert data == {"rng": Rng(5).to_json(), "seats": [{"hand": [1, 2], "score": 0}, {"hand": [3], "score": 4}],
                    "over": False, "won_by": None, "log": [{"key": "start", "args": [1]}], "layout": [7, 8, 9]}
    back = Table.FIELDS.from_json(Table, data)
    assert Table.FIELDS.to_json(back) == data
    assert back.size == 3  # derived, not stored
    data["seats"][0]["hand"].append(5)
    assert table.seats[0].hand == [1, 2]  # the JSON is a copy, never the state's own lists


def test_a_declared_state_and_a_good_clone_have_no_problems() -> None:
    table = Table()
    assert problems(table) == []
    assert clone_problems(table, table.clone()) == []


def test_an_undeclared_attribute_and_an_unset_field_are_found() -> None:
    class Loose:
        FIELDS = Fields(Field("a", INT), Field("b", INT))
        a: int

    loose = Loose()
    loose.a = 1
    setattr(loose, "extra", 2)  # noqa: B010  (an attribute the class does not know)
    assert problems(loose) == ["state.extra: attribute not declared in FIELDS", "state.b: declared but not set"]
    assert problems(object()) == ["state: object declares no FIELDS"]


def test_a_nested_object_is_checked_too() -> None:
    table = Table()
    del table.seats[1].score
    assert problems(table) == ["state.seats[1].score: declared but not set"]


def test_a_clone_that_forgets_a_field_or_shares_a_list_is_caught() -> None:
    table = Table()
    forgetful = table.clone()
    del forgetful.over
    assert clone_problems(table, forgetful) == ["state.over: not set by the clone"]

    shallow = table.clone()
    shallow.seats = table.seats[:]  # a new list, but the same Player objects
    found = clone_problems(table, shallow)
    assert "state.seats[0]: shared by the clone and the original" in found
    assert "state.seats[0].hand: shared by the clone and the original" in found

    deep_log = table.clone()
    deep_log.log = [dict(e) for e in table.log]  # the inner "args" lists are shared
    assert clone_problems(table, deep_log) == ["state.log[0]['args']: shared by the clone and the original"]

    same_rng = table.clone()
    same_rng.rng = table.rng
    assert clone_problems(table, same_rng) == ["state.rng: shared by the clone and the original"]


def test_a_clone_with_a_different_value_is_caught() -> None:
    table = Table()
    wrong = table.clone()
    wrong.seats[1].score = 5
    assert clone_problems(table, wrong) == ["state.seats: the clone's value differs"]


def test_a_shared_field_may_be_shared() -> None:
    table = Table()
    copy = table.clone()
    assert copy.layout is table.layout
    assert clone_problems(table, copy) == []


def test_a_declaration_is_checked_when_written() -> None:
    with pytest.raises(TypeError, match="declared twice"):
        Fields(Field("a", INT), Field("a", BOOL))
    with pytest.raises(TypeError, match="declared twice"):
        Fields(Field("a", INT, key="x"), Field("b", INT, key="x"))
    with pytest.raises(TypeError, match="one of the two"):
        Field("a")
    with pytest.raises(TypeError, match="one of the two"):
        Field("a", INT, derived=lambda s: 1)
