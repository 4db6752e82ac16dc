"""Settings from LUDOTECA_* variables: what each takes, and a clear error for the rest."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ludoteca.server.kernel.config import Settings, SettingsError


def test_unset_variables_keep_the_defaults():
    assert Settings.from_env(env={}) == Settings()
    assert Settings.from_env(env={}).redis_prefix == "ludoteca:"


def test_values_are_read_and_typed():
    settings = Settings.from_env(env={
        "LUDOTECA_REDIS_PREFIX": "arena-2:", "LUDOTECA_ALLOW_GUESTS": "off", "LUDOTECA_SECURE_COOKIES": "Yes",
        "LUDOTECA_BOT_SECONDS": "0.5", "LUDOTECA_BOT_WORKERS": "4", "LUDOTECA_BOT_DELAY_SECONDS": "0",
        "LUDOTECA_SQLITE_SYNCHRONOUS": "full"})
    assert settings.redis_prefix == "arena-2:"
    assert settings.allow_guests is False and settings.secure_cookies is True
    assert settings.bot_seconds == 0.5 and settings.bot_workers == 4 and settings.bot_delay_seconds == 0
    assert settings.sqlite_synchronous == "FULL"


def test_an_empty_redis_prefix_is_a_choice_not_the_default():
    assert Settings.from_env(env={"LUDOTECA_REDIS_PREFIX": ""}).redis_prefix == ""


@pytest.mark.parametrize(("name", "value", "says"), [
    ("BOT_SECONDS", "abc", "takes a number, not 'abc'"),
    ("BOT_SECONDS", "-1", "takes a number above zero"),
    ("BOT_SECONDS", "nan", "takes a number above zero"),
    ("BOT_WORKERS", "2.5", "takes a whole number, not '2.5'"),
    ("BOT_WORKERS", "0", "takes a whole number above zero"),
    ("BOT_DELAY_SECONDS", "-0.1", "takes a number zero or more"),
    ("MAX_BODY_BYTES", "64k", "takes a whole number"),
    ("ALLOW_GUESTS", "maybe", "takes one of 1/true/yes/on or 0/false/no/off"),
    ("SQLITE_SYNCHRONOUS", "NORMAL; DROP TABLE users", "takes one of OFF, NORMAL, FULL, EXTRA"),
])
def test_a_bad_value_is_named_with_what_it_takes(name, value, says):
    with pytest.raises(SettingsError, match=f"^LUDOTECA_{name} {says}"):
        Settings.from_env(env={f"LUDOTECA_{name}": value})


def test_serve_stops_at_once_with_the_message(tmp_path):
    env = {**os.environ, "LUDOTECA_BOT_WORKERS": "two", "LUDOTECA_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    done = subprocess.run([sys.executable, "-m", "ludoteca.cli", "serve", "--port", "1"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == "ludoteca serve: LUDOTECA_BOT_WORKERS takes a whole number, not 'two'"
