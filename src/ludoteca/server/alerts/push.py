"""Web Push (RFC 8030), with VAPID (RFC 8292) and the payload encryption of RFC 8291
(pywebpush, py-vapid, http-ece). The server's VAPID key pair is made at its first start
and kept in ``server_meta``, so every process and every restart signs with the same key
(browsers bind a subscription to the public key). Each device's subscription is a row of
``push_subscriptions``; a push service answering 404 or 410 drops it.

The channel returns at once: the look-ups and the HTTP requests run on a thread of its
own (``mailer.Worker``)."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from sqlalchemy import delete, func, select

from ludoteca.server.alerts import messages
from ludoteca.server.alerts.core import Alert
from ludoteca.server.alerts.mailer import Worker
from ludoteca.server.alerts.preferences import wants
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import AccountContact, Meta, PushSubscription
from ludoteca.server.kernel.runtime import Runtime

log = logging.getLogger("ludoteca.server.alerts.push")

META_KEY = "vapid_private_key"
MAX_DEVICES = 20
"""Subscriptions one account keeps at most (the oldest goes past it)."""
MAX_ENDPOINT = 1024
TTL_SECONDS = 24 * 3600
PUSH_TIMEOUT = 10.0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _b64_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Push:
    def __init__(self, runtime: Runtime, present: Callable[[int, str], bool] | None = None) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.present = present or (lambda _user_id, _table_id: False)
        """Whether a player has the table (or a page) open: then the tab itself tells them."""
        self.vapid = self._load_key()
        raw = self.vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                 serialization.PublicFormat.UncompressedPoint)
        self.public_key = _b64(raw)
        """The applicationServerKey a page subscribes with."""
        self.worker = Worker("push")
        self.sent = 0
        """Pushes the push services accepted (tests, and the logs)."""

    def _load_key(self) -> Vapid02:
        with self.runtime.sessions() as db:
            pem = db.scalar(select(Meta.value).where(Meta.key == META_KEY))
        if pem is None:
            fresh = Vapid02()
            fresh.generate_keys()
            text = fresh.private_pem().decode()
            try:
                with self.runtime.transaction() as db:
                    db.add(Meta(key=META_KEY, value=text))
            except Exception:
                pass  # another process made it first: use that one
            with self.runtime.sessions() as db:
                pem = db.scalar(select(Meta.value).where(Meta.key == META_KEY))
            assert pem is not None
        return Vapid02.from_pem(pem.encode())

    # -- subscriptions ---------------------------------------------------------------------

    def check_endpoint(self, endpoint: str) -> None:
        parts = urlsplit(endpoint)
        allowed = ("https",) + (("http",) if self.settings.push_allow_http else ())
        if len(endpoint) > MAX_ENDPOINT or parts.scheme not in allowed or not parts.hostname:
            raise ApiError(422, "bad_subscription", "a push endpoint is an https URL of at most 1024 characters")

    @staticmethod
    def check_keys(p256dh: str, auth: str) -> None:
        try:
            point, secret = _b64_bytes(p256dh), _b64_bytes(auth)
        except Exception:
            point = secret = b""
        if len(point) != 65 or point[0] != 4 or len(secret) != 16:
            raise ApiError(422, "bad_subscription", "keys.p256dh is a P-256 point and keys.auth 16 bytes (base64url)")

    def subscribe(self, user_id: int, endpoint: str, p256dh: str, auth: str) -> None:
        self.check_endpoint(endpoint)
        self.check_keys(p256dh, auth)
        with self.runtime.transaction() as db:
            # One device, one row: a browser that subscribes again (or for another account) replaces it.
            db.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
            count = db.scalar(select(func.count()).select_from(PushSubscription)
                              .where(PushSubscription.user_id == user_id)) or 0
            if count >= MAX_DEVICES:
                oldest = select(PushSubscription.id).where(PushSubscription.user_id == user_id) \
                    .order_by(PushSubscription.id).limit(count - MAX_DEVICES + 1)
                stale = list(db.scalars(oldest))
                db.execute(delete(PushSubscription).where(PushSubscription.id.in_(stale)))
            db.add(PushSubscription(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                    created_at=now()))

    def unsubscribe(self, user_id: int, endpoint: str) -> bool:
        with self.runtime.transaction() as db:
            gone = db.execute(delete(PushSubscription).where(PushSubscription.user_id == user_id,
                                                             PushSubscription.endpoint == endpoint))
        return bool(getattr(gone, "rowcount", 0))

    def devices(self, user_id: int) -> int:
        with self.runtime.sessions() as db:
            return db.scalar(select(func.count()).select_from(PushSubscription)
                             .where(PushSubscription.user_id == user_id)) or 0

    # -- the channel -------------------------------------------------------------------------

    def channel(self, alert: Alert) -> None:
        """Alerts' channel ``push``: returns at once."""
        self.worker.put(lambda: self.deliver(alert))

    def deliver(self, alert: Alert) -> int:
        """In the push thread: the alert to each of the player's devices, if they want it."""
        with self.runtime.sessions() as db:
            if not wants(db, alert.user_id, alert.kind, "push"):
                return 0
            subscriptions = list(db.scalars(select(PushSubscription)
                                            .where(PushSubscription.user_id == alert.user_id)))
            if not subscriptions:
                return 0
            lang = db.scalar(select(AccountContact.language).where(AccountContact.user_id == alert.user_id))
        payload = json.dumps(self.payload(alert, lang), ensure_ascii=False)
        sent = 0
        for subscription in subscriptions:
            if self.send(subscription, payload):
                sent += 1
        return sent

    def payload(self, alert: Alert, lang: str | None) -> dict[str, Any]:
        args = {**{k: v for k, v in alert.params.items() if isinstance(v, (str, int, float))},
                "game": messages.game_name(alert.params.get("game"))}
        url = f"/#/table/{alert.table_id}" if alert.table_id else "/#/"
        return {"kind": alert.kind, "table": alert.table_id, "url": url, "lang": messages.language(lang),
                "title": messages.text(lang, f"{alert.kind}.title", **args),
                "body": messages.text(lang, f"{alert.kind}.body", **args),
                "tag": f"ludoteca-{alert.kind}-{alert.table_id or ''}"}

    def send(self, subscription: PushSubscription, payload: str) -> bool:
        from pywebpush import WebPushException, webpush

        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            webpush(info, payload, vapid_private_key=self.vapid, vapid_claims={"sub": self.settings.vapid_subject},
                    ttl=TTL_SECONDS, timeout=PUSH_TIMEOUT)
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):  # the browser dropped it: so do we
                with self.runtime.transaction() as db:
                    db.execute(delete(PushSubscription).where(PushSubscription.id == subscription.id))
            else:
                log.warning("push to %s failed: %s", urlsplit(subscription.endpoint).hostname, status)
            return False
        except Exception as error:
            log.warning("push to %s failed: %s", urlsplit(subscription.endpoint).hostname, type(error).__name__)
            return False
        self.sent += 1
        return True

    def stop(self) -> None:
        self.worker.stop()
