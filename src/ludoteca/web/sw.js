// Ludoteca's service worker: it only shows the alerts the server pushes (server/alerts/push.py)
// and opens the table when one is clicked. It caches nothing: the pages come from the
// server each time. Served from the site's root, so its scope is the whole site.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: "Ludoteca", body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Ludoteca";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || "ludoteca",
    lang: data.lang || "",
    icon: "/img/icon.svg",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only a path of this site: a payload never sends the reader elsewhere.
  const wanted = new URL(String((event.notification.data && event.notification.data.url) || "/"), self.location.origin);
  const url = wanted.origin === self.location.origin ? wanted.href : self.location.origin + "/";
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).origin === self.location.origin && "focus" in client) {
        await client.focus();
        if ("navigate" in client) return client.navigate(url);
        return client;
      }
    }
    return self.clients.openWindow(url);
  })());
});
