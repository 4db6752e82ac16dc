"""The bases every feature's request and answer models build on (each feature keeps its
own in its ``schemas.py``): ``Strict`` for what clients send, ``Answer`` for what the
server answers, and the answer several features share, ``Done``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    # strict: JSON true is not the number 1, nor "3" the number 3 (a bool was read as a
    # version, a seat, a clock's seconds); JSON integers still fill float fields.
    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    """An answer, described exactly: FastAPI checks what a route returns against it and
    sends what the service made. A key the model does not name, or a value of another
    type (a bool where an integer is said, a tuple where a list is), fails loudly (a 500,
    and a failing test) rather than being dropped or converted. A key that some answers
    leave out is ``key: T | MISSING = MISSING`` (pydantic's ``MISSING``): left out when the
    service left it out, never sent as null unless ``T`` says so."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Done(Answer):
    ok: bool
