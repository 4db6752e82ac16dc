"""The running server's own source code, offered to everyone who uses it.

Ludoteca is under the GNU AGPL, whose section 13 asks a server running a modified
version to offer its users that version's source. The archive is built from the files
the process runs (the ``ludoteca`` package as installed, whether from a checkout or a
wheel), so a host who changed anything serves the changes without a step to remember.
Games installed as separate packages are separate works with their own licences and are
not included.

Only the package's source goes in, never whatever else lies in its folder (a host's
``.env`` with its secrets was served): from a git checkout the files git tracks there,
from an installed wheel the files the distribution lists (its package data included),
and never a dotfile, a cache or compiled code.
"""

from __future__ import annotations

import io
import shutil
import subprocess
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


def _served(relative: Path) -> bool:
    """Not a dotfile (nor in a dot folder), a cache or compiled code."""
    return not any(part.startswith(".") or part == "__pycache__" for part in relative.parts) \
        and relative.suffix not in (".pyc", ".pyo")


def _tracked(package: Path, checkout: Path) -> list[Path] | None:
    """The files git tracks under ``package`` (None: not a checkout, or no git)."""
    git = shutil.which("git")
    if git is None or not (checkout / ".git").exists():
        return None
    try:
        listed = subprocess.run([git, "-C", str(checkout), "ls-files", "-z", "--", str(package)],
                                capture_output=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    files = [(checkout / name).resolve() for name in listed.decode("utf-8", "replace").split("\0") if name]
    return [path.relative_to(package) for path in files if path.is_relative_to(package)]


def _installed(package: Path) -> list[Path] | None:
    """The files the installed distribution lists under ``package`` (None for a checkout
    installed in editable mode, whose distribution lists none of them)."""
    try:
        listed = metadata.distribution("ludoteca").files or ()
    except metadata.PackageNotFoundError:
        return None
    files = [Path(str(file.locate())).resolve() for file in listed]
    found = [path.relative_to(package) for path in files if path.is_relative_to(package)]
    return found or None


def package_files(package: Path = PACKAGE, checkout: Path = CHECKOUT) -> list[Path]:
    """The package's source files, relative to ``package``, sorted. Without git nor an
    installed distribution's list, the folder's files (still no dotfile)."""
    listed = _tracked(package, checkout)
    if listed is None:
        listed = _installed(package)
    if listed is None:
        listed = [path.relative_to(package) for path in package.rglob("*")]
    return sorted(path for path in set(listed) if _served(path) and (package / path).is_file())


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
        for relative in package_files():
            tar.add(PACKAGE / relative, arcname=f"{root}/src/ludoteca/{relative.as_posix()}", recursive=False)
        licence = _licence()
        if licence is not None:
            _add_bytes(tar, f"{root}/LICENSE", licence)
        for name in BUILD_FILES:
            path = CHECKOUT / name
            if path.is_file():
                tar.add(path, arcname=f"{root}/{name}")
    return buffer.getvalue()


def filename() -> str:
    return f"ludoteca-{ludoteca.__version__}-source.tar.gz"
