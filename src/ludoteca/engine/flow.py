"""Turn flow the games share: dispatch tables (phase -> handler, move kind -> handler) and
a decision stack of tasks.

Dispatch, for phase tables and move kinds (Iwari, Crusaders, Hadrian's Wall)::

    from ludoteca.engine.flow import Dispatch

    LEGAL: Dispatch[int, Callable[[MyState, int], list[Move]]] = Dispatch("legal moves by phase")
    PLAY: Dispatch[str, Callable[[MyState, int, Move, list[Event]], None]] = Dispatch("move kinds")

    @PLAY.on("tent", "totem")
    def _place(state, seat, move, events): ...

    def perform(state, seat, move):
        events = []
        PLAY[move["type"]](state, seat, move, events)   # an unknown kind names the table
        return events

A Dispatch is a dict (lookups cost what a dict's cost), filled by the module that defines
the handlers, at its own import: the module that dispatches imports it, so a table is
never filled as a side effect of importing something else.

Decision stack, for games whose effects queue further steps (Blood Rage)::

    from ludoteca.engine.flow import Step, TaskFlow, Task

    flow: TaskFlow[MyState] = TaskFlow("my game")     # MyState has a bool ``over``

    @flow.automatic("start_age")
    def _start_age(state, task, queue, events):       # runs by itself
        queue.append(("draft", state.age))            # queued tasks run in queue order, first

    flow.decision("draft", Step("my.prompt.draft", seats=..., legal=..., perform=...))

    other_module.install(flow)    # or flow.include(other_flow): tables built explicitly

    def perform(state, seat, move):
        events = []
        state.asked = flow.perform(state, state.stack, seat, move, events, state.asked)
        return events

The stack itself is a plain list of tuples kept in the state (its top is the last item),
so it serialises as it is and a clone copies it with a slice. ``advance`` and ``perform``
return the decision they stopped at (``Asked``: the task, its step and the seats it asks);
a game may keep it until the next move and hand it back to ``legal`` and ``perform``,
which then need not ask the step again who decides.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .game import Event, Move, Seat

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class FlowState(Protocol):
    """What a flow reads of a state: whether the game is over, which ends every run of
    automatic tasks (a task may end the game with more tasks left on the stack)."""

    over: bool


S = TypeVar("S", bound=FlowState)


class UnknownKey(LookupError):
    """A dispatch table has no entry for a key: a bug in the game, never a player's error
    (the engine refuses moves that ``legal`` does not list before they are dispatched)."""


class Dispatch(dict[K, V]):
    """A table from a phase, a move kind or a task kind to its handler.

    Subscripting an unknown key raises ``UnknownKey`` naming the table and the keys it
    knows; ``get`` works as on any dict."""

    def __init__(self, name: str, entries: Iterable[tuple[K, V]] = ()) -> None:
        super().__init__()
        self.name = name
        for key, value in entries:
            self.add(key, value)

    def add(self, key: K, value: V) -> None:
        """Register ``value`` for ``key``; a key registered twice is an error."""
        if key in self:
            raise ValueError(f"{self.name}: {key!r} is registered twice")
        self[key] = value

    def on(self, *keys: K) -> Callable[[V], V]:
        """A decorator registering the function for each of ``keys``."""
        def register(fn: V) -> V:
            for key in keys:
                self.add(key, fn)
            return fn
        return register

    def __missing__(self, key: K) -> V:
        known = ", ".join(sorted(repr(k) for k in self))
        raise UnknownKey(f"{self.name}: nothing for {key!r} (known: {known})")

    def __reduce__(self) -> Any:  # a dict subclass with an attribute: pickle both
        return (Dispatch, (self.name, list(self.items())))


Task = tuple[Any, ...]
"""A task on a decision stack: its kind first, then plain JSON-able arguments."""

Auto = Callable[[S, Task, list[Task], list[Event]], None]
"""An automatic task: (state, task, queue, events). It has already been popped; the
tasks it appends to ``queue`` run next, in queue order."""


class Step(Generic[S]):
    """A task that waits for a decision.

    ``seats(state, task)``: who decides now (empty: nothing left to decide, the task is
    dropped). ``legal(state, task, seat)``: their moves. ``perform(state, task, seat,
    move, queue, events)``: plays one; it pops its task from the stack once the decision
    is complete (a step taking several moves stays on top until then)."""

    __slots__ = ("legal", "perform", "prompt", "seats")

    def __init__(self, prompt: str, seats: Callable[[S, Task], list[Seat]],
                 legal: Callable[[S, Task, Seat], list[Move]],
                 perform: Callable[[S, Task, Seat, Move, list[Task], list[Event]], None]) -> None:
        self.prompt = prompt
        self.seats = seats
        self.legal = legal
        self.perform = perform


Asked = tuple[Task, Step[S], list[Seat]]
"""The decision a flow stopped at: its task (the top of the stack), its step, the seats it
asks (never empty)."""


class TaskFlow(Generic[S]):
    """The tables of a decision stack: automatic tasks and decision steps, by kind.

    The stack lives in the state (a list of ``Task``, top last); the flow holds only the
    handlers, so one flow serves every match of a game. ``state.over`` ends a run of
    automatic tasks: an attribute, not a function to call, because it is read before every
    task of every playout."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.auto: Dispatch[str, Auto[S]] = Dispatch(f"{name}: automatic tasks")
        self.steps: Dispatch[str, Step[S]] = Dispatch(f"{name}: decisions")
        self._run: dict[str, tuple[Step[S] | None, Auto[S] | None]] = {}
        """Both tables in one plain dict: one subscript per task in ``advance`` (the
        interpreter's fast path for subscripts serves a dict, not a subclass of one)."""

    def automatic(self, kind: str) -> Callable[[Auto[S]], Auto[S]]:
        """A decorator registering an automatic task."""
        def register(fn: Auto[S]) -> Auto[S]:
            self.add_auto(kind, fn)
            return fn
        return register

    def add_auto(self, kind: str, fn: Auto[S]) -> None:
        if kind in self.steps:
            raise ValueError(f"{self.name}: {kind!r} is already a decision")
        self.auto.add(kind, fn)
        self._run[kind] = (None, fn)

    def decision(self, kind: str, step: Step[S]) -> None:
        """Register a decision step."""
        if kind in self.auto:
            raise ValueError(f"{self.name}: {kind!r} is already an automatic task")
        self.steps.add(kind, step)
        self._run[kind] = (step, None)

    def include(self, *others: TaskFlow[S]) -> None:
        """Take every task of other flows (a game assembles its flow from its modules')."""
        for other in others:
            for kind, fn in other.auto.items():
                self.add_auto(kind, fn)
            for kind, step in other.steps.items():
                self.decision(kind, step)

    def advance(self, state: S, stack: list[Task], events: list[Event]) -> Asked[S] | None:
        """Run automatic tasks from the top until a decision has seats to ask (returned),
        the stack is empty, or the game is over (None). Decisions with nobody left to ask
        are dropped."""
        # On every move of every playout: the tables bound once, the stack extended in place.
        run = self._run
        while stack and not state.over:
            task = stack[-1]
            try:
                step, fn = run[task[0]]
            except KeyError:
                known = ", ".join(sorted(repr(k) for k in run))
                raise UnknownKey(f"{self.name}: nothing for task {task[0]!r} (known: {known})") from None
            if step is not None:
                seats = step.seats(state, task)
                if seats:
                    return task, step, seats
                stack.pop()
                continue
            stack.pop()
            queue: list[Task] = []
            fn(state, task, queue, events)  # type: ignore[misc]  # fn is None only where step is not
            if queue:
                stack.extend(reversed(queue))  # push: the first queued runs first
        return None

    def top(self, stack: Sequence[Task]) -> tuple[Task, Step[S]] | None:
        """The decision on top of the stack and its step, if the top is a decision."""
        if not stack:
            return None
        step = self.steps.get(stack[-1][0])
        return None if step is None else (stack[-1], step)

    def seats(self, state: S, stack: Sequence[Task]) -> list[Seat]:
        top = self.top(stack)
        return [] if top is None else top[1].seats(state, top[0])

    def legal(self, state: S, stack: Sequence[Task], seat: Seat, asked: Asked[S] | None = None) -> list[Move]:
        """The moves of ``seat`` for the decision on top; ``asked``, what the last
        ``advance`` or ``perform`` returned, spares asking the step who decides."""
        if not stack:
            return []
        task = stack[-1]
        if asked is not None and asked[0] is task:
            step = asked[1]
            seats = asked[2]
        else:
            found = self.steps.get(task[0])
            if found is None:
                return []
            step = found
            seats = step.seats(state, task)
        if seat not in seats:
            return []
        return step.legal(state, task, seat)

    def perform(self, state: S, stack: list[Task], seat: Seat, move: Move, events: list[Event],
                asked: Asked[S] | None = None) -> Asked[S] | None:
        """Play a move for the decision on top, queue what it caused, then ``advance``;
        returns what ``advance`` does. ``asked``: as for ``legal``."""
        task = stack[-1]
        step = asked[1] if asked is not None and asked[0] is task else self.steps[task[0]]
        queue: list[Task] = []
        step.perform(state, task, seat, move, queue, events)
        if queue:
            stack.extend(reversed(queue))
        return self.advance(state, stack, events)


__all__ = ["Asked", "Auto", "Dispatch", "FlowState", "Step", "Task", "TaskFlow", "UnknownKey"]
