"""Helpers of the tournament tests: creating one, waiting for it, and the standings
recomputed on their own from the stored games (the tables' results as the table API
gives them), to check the server's."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any


def soon(seconds: float = 1.5) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def create(api: Any, bots: int = 0, start: bool = True, **settings: Any) -> dict[str, Any]:
    """A tournament of Quick Pick with ``bots`` random bots entered, starting at once
    (``start``; else when ``settings`` say, by default in an hour)."""
    body = {"game": "quickpick", "name": "Test cup", "seats": 4, "starts_at": soon(3600), "bots": ["random"],
            **settings}
    r = api.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    t = r.json()
    for _ in range(bots):
        r = api.post(f"/api/tournaments/{t['id']}/bots", {"bot": "random"})
        assert r.status_code == 200, r.text
        t = r.json()
    if start and "starts_at" not in settings:
        r = api.http.patch(f"/api/tournaments/{t['id']}", json={"starts_at": soon(0.3)}, headers=api.headers)
        assert r.status_code == 200, r.text
        t = r.json()
    return t


def wait_for(http: Any, tournament_id: str, status: str = "finished", seconds: float = 60.0,
             headers: dict[str, str] | None = None) -> dict[str, Any]:
    until = time.monotonic() + seconds
    while True:
        t = http.get(f"/api/tournaments/{tournament_id}", headers=headers or {}).json()
        if t["status"] == status:
            return t
        assert time.monotonic() < until, t
        time.sleep(0.2)


def recompute(http: Any, t: dict[str, Any]) -> list[dict[str, Any]]:
    """Points (3, 2, 1, 0 by rank, ties sharing), opponents' points and average, from
    each table's stored result and seats; byes from the rounds."""
    names = {e["id"]: e["name"] for e in t["entrants"]}
    points = dict.fromkeys(names, 0.0)
    opponents: dict[int, list[int]] = {p: [] for p in names}
    defaults = {2: [1, 0], 3: [2, 1, 0], 4: [3, 2, 1, 0], 5: [4, 3, 2, 1, 0], 6: [5, 4, 3, 2, 1, 0]}
    for rnd in t["rounds_played"]:
        for table in rnd["tables"]:
            stored = http.get(f"/api/tables/{table['table']}").json()["table"]
            assert stored["status"] == "over"
            ranks = stored["result"]["ranks"]
            seated = [p["username"] or p["bot"] for p in stored["players"]]
            assert len(seated) == len(table["players"])
            n = len(ranks)
            for seat, entrant in enumerate(table["players"]):
                tied = [i for i in range(n) if ranks[i] == ranks[seat]]
                place = ranks[seat] - 1
                shares = defaults[n][place:place + len(tied)]
                points[entrant] += sum(shares) / len(shares)
                opponents[entrant] += [o for o in table["players"] if o != entrant]
        for bye in rnd["byes"]:
            points[bye["player"]] += bye["points"]
    rows = []
    for p in names:
        met = [points[o] for o in opponents[p]]
        rows.append({"player": p, "points": points[p], "opponents_points": sum(met),
                     "opponents_average": sum(met) / len(met) if met else 0.0})
    return rows


def check_standings(http: Any, t: dict[str, Any]) -> None:
    mine = {r["player"]: r for r in recompute(http, t)}
    for row in t["standings"]:
        expected = mine[row["player"]]
        for key in ("points", "opponents_points", "opponents_average"):
            assert abs(row[key] - expected[key]) < 1e-3, (row, expected)  # answers round to 3 places
    keys = [(-r["points"], -r["opponents_points"], -r["opponents_average"], -r["rating"]) for r in t["standings"]]
    assert keys == sorted(keys)
