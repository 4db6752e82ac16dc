"""Installing the toy game (tests/toygame, its own distribution) the way an installer
would make it visible: a ``*.dist-info`` folder with its entry points, in a folder put on
the path. Its package stays where it is (tests/conftest.py puts tests/toygame on the
path), so one class serves the registered copy and the installed one."""

from __future__ import annotations

import tomllib
from pathlib import Path

TOYGAME = Path(__file__).resolve().parent / "toygame"


def install_entry_points(site: Path) -> Path:
    """Write the toy distribution's metadata and entry points (read from its
    pyproject.toml) into ``site``; returns ``site``, to put on sys.path or PYTHONPATH."""
    project = tomllib.loads((TOYGAME / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in entries.items()]
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return site
