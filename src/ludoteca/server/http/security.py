"""The security headers of every HTTP answer: a content security policy that runs only
the app's own scripts, and the headers that keep the pages out of frames, sniffing and
other sites' reach."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Only the app's own scripts; its own style sheets, plus the <style> elements its board
# drawings add at run time, which carry the page's nonce (web/js/dom.js puts it on every
# <style> it makes). Style attributes stay allowed: they can restyle, never run code,
# and the boards set them on SVG shapes. The API's own pages (/docs, /redoc) run Swagger
# UI and ReDoc from this server (apidocs.py), which style themselves inline: their own
# policy, still with no script from anywhere else and no inline script.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'{nonce}; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "font-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
           (b"referrer-policy", b"same-origin"), (b"cross-origin-opener-policy", b"same-origin"),
           (b"cross-origin-resource-policy", b"same-origin"),
           (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()")]


class SecurityHeaders:
    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        # HSTS only where the host said it serves over HTTPS (secure cookies).
        self.extra = [(b"strict-transport-security", b"max-age=31536000")] if https else []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope.get("path", "").startswith(DOCS_PATHS)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"content-security-policy" for name, _ in headers):
                    headers.append((b"content-security-policy", (DOCS_CSP if docs else CSP.format(nonce="")).encode()))
                headers += HEADERS + self.extra
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
