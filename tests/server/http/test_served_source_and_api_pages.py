"""The served source and the API pages: /api/source offers the running code and its
licence, only the tracked files and never a dotfile (it once served whatever lay in the
package folder, a host's .env with its secrets), and /docs and /redoc load nothing from
elsewhere (they once loaded their scripts from a CDN)."""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path

import pytest

import ludoteca
from ludoteca.server.http import source


def test_the_server_offers_the_source_it_runs(client):
    """AGPL-3.0 section 13: every user can download the running code and its licence."""
    r = client.get("/api/source")
    assert r.status_code == 200 and r.headers["content-type"] == "application/gzip"
    assert f'filename="ludoteca-{ludoteca.__version__}-source.tar.gz"' in r.headers["content-disposition"]
    with tarfile.open(fileobj=io.BytesIO(r.content), mode="r:gz") as tar:
        names = set(tar.getnames())
        root = f"ludoteca-{ludoteca.__version__}"
        running = Path(source.__file__).read_bytes()
        assert tar.extractfile(f"{root}/src/ludoteca/server/http/source.py").read() == running
        licence = tar.extractfile(f"{root}/LICENSE").read().decode()
    assert licence.startswith("GNU AFFERO GENERAL PUBLIC LICENSE")
    for part in ("src/ludoteca/games/iwari/rules.py", "src/ludoteca/web/js/app.js", "pyproject.toml",
                 "src/ludoteca/games/iwari/rules.md", "src/ludoteca/games/iwari/web/board.js"):
        assert f"{root}/{part}" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_only_the_tracked_source_is_served_never_a_dotfile(tmp_path: Path):
    checkout = tmp_path / "checkout"
    package = checkout / "src" / "ludoteca"
    (package / "server").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server" / "app.py").write_text("app = 1\n")
    (package / ".hidden.py").write_text("tracked, but a dotfile\n")
    try:
        subprocess.run(["git", "init", "-q", str(checkout)], check=True)
        subprocess.run(["git", "-C", str(checkout), "add", "."], check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not available")
    (package / ".env").write_text("LUDOTECA_SECRET=do-not-serve\n")
    (package / "server" / "notes.txt").write_text("a host's notes, never added\n")
    (package / "server" / "__pycache__").mkdir()
    (package / "server" / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"\0")
    assert [p.as_posix() for p in source.package_files(package, checkout)] == ["__init__.py", "server/app.py"]


def test_the_served_archive_holds_no_dotfile_and_no_untracked_file(client):
    r = client.get("/api/source")
    with tarfile.open(fileobj=io.BytesIO(r.content), mode="r:gz") as tar:
        names = tar.getnames()
    assert not [n for n in names if any(part.startswith(".") for part in n.split("/"))]
    served = {n.split("/src/ludoteca/", 1)[1] for n in names if "/src/ludoteca/" in n}
    assert served == {p.as_posix() for p in source.package_files()}
    assert "server/http/source.py" in served


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_api_pages_load_nothing_from_elsewhere(client, page):
    r = client.get(page)
    assert r.status_code == 200
    policy = r.headers["content-security-policy"]
    assert "http" not in policy and "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]
    assert "<script>" not in r.text  # no inline script
    urls = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert urls and all(url.startswith("/") for url in urls), urls
    for url in urls:
        if url.startswith("/docs/assets/"):
            asset = client.get(url)
            assert asset.status_code == 200 and len(asset.content) > 100, url
    assert client.get("/docs/assets/..%2Fapp.py").status_code == 404
    assert client.get("/docs/assets/core.py").status_code == 404
