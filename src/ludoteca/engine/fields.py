"""Declared state fields: a state class names each of its fields once, with its kind,
and its JSON form is derived from that list and its hand-written clone checked against it.

How a game uses it::

    from ludoteca.engine.fields import BOOL, INT, INT_ROWS, INTS, RNG, Field, Fields, objects

    class Player:
        __slots__ = ("hand", "score")
        FIELDS = Fields(Field("hand", INTS), Field("score", INT))

    class MyState:
        __slots__ = ("board", "over", "players", "rng", "track")
        FIELDS = Fields(
            Field("rng", RNG),
            Field("players", objects(Player)),            # nested classes declare their own FIELDS
            Field("over", BOOL),
            Field("track", INTS, clone="share"),          # never mutated after set-up: clones share it
            Field("board", derived=lambda s: BOARD),      # not in the JSON; rebuilt by from_json
        )

        def to_json(self) -> dict[str, Any]:
            return MyState.FIELDS.to_json(self)

        @classmethod
        def from_json(cls, data: Mapping[str, Any]) -> MyState:
            return MyState.FIELDS.from_json(cls, data)

        def copy(self) -> MyState:
            ...  # written by hand where speed needs it; the conformance suite checks it

The conformance suite (tests/engine/test_conformance.py) runs ``problems(state)`` and
``clone_problems(state, game.clone(state))`` on states of every registered game whose
state class declares ``FIELDS``: every attribute must be declared, every declared field
set, and a clone must copy every field (equal values, no shared mutable part unless the
field is declared ``clone="share"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from .rng import Rng

T = TypeVar("T")
Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]


@dataclass(frozen=True)
class Kind:
    """How one field's value is written to JSON and read back.

    ``encode`` must return a fresh JSON value (never the field's own list), ``decode``
    the field's value from it. ``nested`` is the class of nested declared objects the
    value holds, for the clone check to look inside them."""

    name: str
    encode: Encode
    decode: Decode
    nested: type | None = None


def _same(value: Any) -> Any:
    return value


def _copy_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    return value


INT = Kind("int", _same, int)
BOOL = Kind("bool", _same, bool)
STR = Kind("str", _same, str)
OPT_STR = Kind("str or null", _same, lambda v: None if v is None else str(v))
OPT_INT = Kind("int or null", _same, lambda v: None if v is None else int(v))
INTS = Kind("list of ints", lambda v: v[:], lambda v: [int(x) for x in v])
STRS = Kind("list of strings", lambda v: v[:], lambda v: [str(x) for x in v])
INT_ROWS = Kind("list of lists of ints", lambda v: [row[:] for row in v],
                lambda v: [[int(x) for x in row] for row in v])
JSON = Kind("JSON value", _copy_json, _copy_json)
"""Any JSON value (lists, dicts, numbers, strings): copied through as it is."""
RNG = Kind("rng", lambda r: r.to_json(), Rng.from_json)


def optional(kind: Kind) -> Kind:
    """``kind``, or None."""
    return Kind(f"{kind.name} or null", lambda v: None if v is None else kind.encode(v),
                lambda v: None if v is None else kind.decode(v), kind.nested)


def _fields_of(cls: type) -> Fields:
    fields = getattr(cls, "FIELDS", None)
    if not isinstance(fields, Fields):
        raise TypeError(f"{cls.__name__} declares no FIELDS")
    return fields


def objects(cls: type) -> Kind:
    """A list of nested objects whose class declares its own ``FIELDS`` (looked up when
    used, so the class may set them after this kind is made)."""
    return Kind(f"list of {cls.__name__}", lambda v: [_fields_of(cls).to_json(o) for o in v],
                lambda v: [_fields_of(cls).from_json(cls, o) for o in v], cls)


def one(cls: type) -> Kind:
    """One nested object whose class declares its own ``FIELDS`` (or None)."""
    return Kind(cls.__name__, lambda v: None if v is None else _fields_of(cls).to_json(v),
                lambda v: None if v is None else _fields_of(cls).from_json(cls, v), cls)


@dataclass(frozen=True)
class Field:
    """One attribute of a state.

    ``key`` is its JSON key (default: its name). A ``derived`` field is not written to
    JSON: ``from_json`` computes it from the fields read (in declaration order).
    ``clone`` says what a clone does with it: ``"copy"`` (its own copy of every mutable
    part) or ``"share"`` (the value is never mutated in place, so clones share it)."""

    name: str
    kind: Kind | None = None
    key: str | None = None
    derived: Callable[[Any], Any] | None = None
    clone: Literal["copy", "share"] | None = None

    def __post_init__(self) -> None:
        if (self.kind is None) == (self.derived is None):
            raise TypeError(f"field {self.name!r}: give a kind or a derivation, one of the two")

    @property
    def json_key(self) -> str:
        return self.key or self.name

    @property
    def shared(self) -> bool:
        """Derived fields are shared unless declared otherwise: they are rebuilt, not copied."""
        return self.clone == "share" or (self.clone is None and self.derived is not None)


class Fields:
    """The declared fields of a state class, in order."""

    def __init__(self, *fields: Field) -> None:
        names = [f.name for f in fields]
        keys = [f.json_key for f in fields if f.derived is None]
        for label, seen in (("name", names), ("JSON key", keys)):
            doubles = sorted({n for n in seen if seen.count(n) > 1})
            if doubles:
                raise TypeError(f"fields declared twice ({label}): {', '.join(doubles)}")
        self.fields = fields
        self.names = frozenset(names)
        self._stored = tuple((f.name, f.json_key, f.kind) for f in fields if f.kind is not None)
        self._derived = tuple((f.name, f.derived) for f in fields if f.derived is not None)

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def to_json(self, obj: object) -> dict[str, Any]:
        return {key: kind.encode(getattr(obj, name)) for name, key, kind in self._stored}

    def from_json(self, cls: type[T], data: Mapping[str, Any]) -> T:
        """A new ``cls`` (built without ``__init__``) from its JSON form."""
        obj = cls.__new__(cls)
        for name, key, kind in self._stored:
            setattr(obj, name, kind.decode(data[key]))
        for name, derive in self._derived:
            setattr(obj, name, derive(obj))
        return obj


# -- the checks the conformance suite runs ---------------------------------------------------


def declared(obj: object) -> Fields | None:
    """The ``FIELDS`` of ``obj``'s class, if it declares them."""
    fields = getattr(type(obj), "FIELDS", None)
    return fields if isinstance(fields, Fields) else None


def _attributes(obj: object) -> set[str]:
    names = set(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    names.discard("__dict__")
    names.discard("__weakref__")
    return names


def problems(obj: object, where: str = "state") -> list[str]:
    """What is wrong with ``obj`` against its declaration: undeclared attributes, declared
    fields not set, JSON that does not read back the same; nested objects are checked too."""
    fields = declared(obj)
    if fields is None:
        return [f"{where}: {type(obj).__name__} declares no FIELDS"]
    out = [f"{where}.{name}: attribute not declared in FIELDS" for name in sorted(_attributes(obj) - fields.names)]
    for f in fields:
        if not hasattr(obj, f.name):
            out.append(f"{where}.{f.name}: declared but not set")
            continue
        if f.kind is not None and f.kind.nested is not None:
            value = getattr(obj, f.name)
            items = value if isinstance(value, list) else [value] if value is not None else []
            for i, item in enumerate(items):
                out.extend(problems(item, f"{where}.{f.name}[{i}]"))
    if not out:
        data = fields.to_json(obj)
        again = fields.to_json(fields.from_json(type(obj), data))
        if again != data:
            out.append(f"{where}: to_json(from_json(to_json(state))) differs from to_json(state)")
    return out


def _mutable_parts(value: Any, found: dict[int, str], path: str) -> None:
    """Every mutable container or object reachable from ``value``, by id."""
    if isinstance(value, list | dict | set | bytearray) or declared(value) is not None or isinstance(value, Rng):
        found.setdefault(id(value), path)
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _mutable_parts(item, found, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _mutable_parts(item, found, f"{path}[{key!r}]")
    elif (fields := declared(value)) is not None:
        for f in fields:
            if not f.shared and hasattr(value, f.name):
                _mutable_parts(getattr(value, f.name), found, f"{path}.{f.name}")


def clone_problems(original: object, copy: object, where: str = "state") -> list[str]:
    """What a hand-written clone got wrong: a declared field it did not set, a value that
    differs, or a mutable part shared with the original (unless the field is shared)."""
    fields = declared(original)
    if fields is None:
        return [f"{where}: {type(original).__name__} declares no FIELDS"]
    if type(copy) is not type(original):
        return [f"{where}: the clone is a {type(copy).__name__}, not a {type(original).__name__}"]
    out: list[str] = []
    for f in fields:
        if not hasattr(copy, f.name):
            out.append(f"{where}.{f.name}: not set by the clone")
            continue
        mine, theirs = getattr(original, f.name), getattr(copy, f.name)
        if f.kind is not None and f.kind.encode(mine) != f.kind.encode(theirs):
            out.append(f"{where}.{f.name}: the clone's value differs")
        if f.shared:
            continue
        here: dict[int, str] = {}
        there: dict[int, str] = {}
        _mutable_parts(mine, here, f"{where}.{f.name}")
        _mutable_parts(theirs, there, f"{where}.{f.name}")
        out.extend(f"{path}: shared by the clone and the original" for key, path in here.items() if key in there)
    return out


__all__ = [
    "BOOL", "INT", "INTS", "INT_ROWS", "JSON", "OPT_INT", "OPT_STR", "RNG", "STR", "STRS", "Field", "Fields", "Kind",
    "clone_problems", "declared", "objects", "one", "optional", "problems",
]
