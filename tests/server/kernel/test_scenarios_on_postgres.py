"""Scenarios of the table and live socket tests again, on PostgreSQL (a throwaway
database per test), and on the Redis hub inside one process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import make_settings
from tests.server.live import test_table_socket as live_scenarios
from tests.server.tables import test_endings as ending_scenarios
from tests.server.tables import test_group_commit as group_scenarios
from tests.server.tables import test_playing_a_table as table_scenarios
from tests.server.tables import test_rematch as rematch_scenarios

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_client(pg_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(pg_url))) as http:
        yield http


def test_health_reports_postgres(pg_client):
    assert pg_client.get("/api/health").json()["storage"] == "postgresql"


@pytest.mark.parametrize("scenario", [
    table_scenarios.test_every_move_error_and_nothing_changes,
    table_scenarios.test_undo,
    table_scenarios.test_full_game_as_people_hidden_information_record_and_ratings,
    table_scenarios.test_lobby_seats_and_start,
    table_scenarios.test_bots_play_their_seats,
    live_scenarios.test_reconnect_catches_up_from_its_version,
    rematch_scenarios.test_a_rematch_is_the_same_game_with_every_seat_moved_on,
    rematch_scenarios.test_players_asking_at_once_get_one_rematch,
    group_scenarios.test_moves_of_many_tables_at_once_all_land_each_with_its_own_answer,
    ending_scenarios.test_every_kind_of_ending_is_heard_exactly_once,
], ids=lambda f: f.__name__.removeprefix("test_"))
def test_scenario_on_postgres(pg_client, scenario):
    scenario(pg_client)


@pytest.mark.parametrize("racers", [4])
def test_racing_moves_on_postgres(pg_client, racers):
    table_scenarios.test_racing_moves_in_one_process(pg_client, racers)


@pytest.mark.redis
def test_live_updates_through_the_redis_hub(pg_url, redis_url):
    settings = make_settings(pg_url, redis_url=redis_url, redis_prefix="ludoteca-hub-test:")
    with TestClient(create_app(settings)) as http:
        assert http.get("/api/health").json()["hub"] == "redis"
        live_scenarios.test_updates_per_seat_and_spectator(http)
        live_scenarios.test_moves_chat_and_errors_over_the_socket(http)
