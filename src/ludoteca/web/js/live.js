// A WebSocket that keeps itself alive: after a dropped connection or a server restart
// it reconnects on its own (backing off up to a few seconds), and each new connection
// asks for what was missed by sending the last version seen in its URL.

const MAX_DELAY_MS = 4000;

export class Live {
  // url(): the address to connect to now (it carries the latest version);
  // onMessage(data): each parsed message; onStatus("connecting" | "live" | "reconnecting").
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.socket = null;
    this.stopped = false;
    this.failures = 0;
    this.timer = null;
    this.wake = () => this.retryNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
  }

  get open() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  send(data) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(data));
    return true;
  }

  // A fresh connection now (the reader sat down or stood up: the server fixes a
  // socket's seat when it connects).
  restart() {
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000);
    this.connect();
  }

  // For tests (and a page that knows the connection is dead before the browser does):
  // close the socket as a network failure would, and stay away for holdMs.
  drop(holdMs = 0) {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.close(4000, "dropped by the client");
    this.failures += 1;
    this.onStatus("reconnecting", { code: 4000 });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), holdMs);
  }

  connect() {
    clearTimeout(this.timer);
    this.onStatus(this.failures ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.schedule();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      const wasDown = this.failures > 0;
      this.failures = 0;
      this.onStatus("live", { reconnected: wasDown });
    });
    socket.addEventListener("message", (e) => {
      if (socket !== this.socket) return;
      let data;
      try {
        data = JSON.parse(e.data);
      } catch {
        return; // not ours to read
      }
      this.onMessage(data);
    });
    socket.addEventListener("close", (e) => {
      if (socket !== this.socket || this.stopped) return;
      this.socket = null;
      // 44xx: the server refused us (signed out, private table, no such table); trying
      // again would only be refused again.
      if (e.code >= 4400 && e.code < 4500) {
        this.onStatus("closed", { code: e.code });
        return;
      }
      this.schedule(e.code);
    });
  }

  schedule(code) {
    if (this.stopped) return;
    this.failures += 1;
    this.onStatus("reconnecting", { code });
    // Quick first retries (a blip), then a few seconds apart; the jitter keeps many
    // clients from hammering a restarting server in step.
    const base = Math.min(MAX_DELAY_MS, 250 * 2 ** Math.min(this.failures - 1, 5));
    this.timer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  retryNow() {
    if (this.stopped || document.visibilityState === "hidden") return;
    if (!this.socket) this.connect();
  }
}
