"""The running server's own source code, offered to everyone who uses it.

Ludoteca is under the GNU AGPL, whose section 13 asks a server running a modified
version to offer its users that version's source. The archive is built from the files
the process runs (the ``ludoteca`` package as installed, whether from a checkout or a
wheel), so a host who changed anything serves the changes without a step to remember.
Games installed as separate packages are separate works with their own licences and are
not included.
"""

from __future__ import annotations

import io
import tarfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import ludoteca

PACKAGE = Path(ludoteca.__file__).resolve().parent
CHECKOUT = PACKAGE.parents[1]
"""The repository root when the server runs from a checkout (src/ludoteca -> root)."""
BUILD_FILES = ("pyproject.toml", "Makefile", "README.md")
"""The checkout's build files, part of the corresponding source when present."""
SERVED_DOCS = ("docs/rules",)
"""The checkout's folders the server itself shows its users (the games' rules, on the help
pages), part of the corresponding source when present."""


def _licence() -> bytes | None:
    """The licence text: from the installed distribution, else from the checkout."""
    try:
        for file in metadata.distribution("ludoteca").files or ():
            if file.name in ("LICENSE", "LICENSE.txt"):
                return Path(file.locate()).read_bytes()
    except (metadata.PackageNotFoundError, OSError):
        pass
    path = CHECKOUT / "LICENSE"
    return path.read_bytes() if path.is_file() else None


def _skip(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    name = Path(info.name).name
    return None if name == "__pycache__" or name.endswith((".pyc", ".pyo")) else info


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


@lru_cache(maxsize=1)
def archive() -> bytes:
    """A gzipped tar of the running source under ``ludoteca-<version>/``; built once per
    process (the code a process runs does not change under it)."""
    root = f"ludoteca-{ludoteca.__version__}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(PACKAGE, arcname=f"{root}/src/ludoteca", filter=_skip)
        licence = _licence()
        if licence is not None:
            _add_bytes(tar, f"{root}/LICENSE", licence)
        for name in BUILD_FILES:
            path = CHECKOUT / name
            if path.is_file():
                tar.add(path, arcname=f"{root}/{name}")
        for name in SERVED_DOCS:
            path = CHECKOUT / name
            if path.is_dir():
                tar.add(path, arcname=f"{root}/{name}", filter=_skip)
    return buffer.getvalue()


def filename() -> str:
    return f"ludoteca-{ludoteca.__version__}-source.tar.gz"
