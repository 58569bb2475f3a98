// The service worker: it shows the server's "your turn" messages (Web Push, server/push.py) while no page of the
// site is open, and opens the table when one is clicked.  It caches nothing: the pages always come from the server.

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = {}; }
  event.waitUntil(self.registration.showNotification(message.title || "ludotheque", {
    body: message.body || "", tag: message.tag, renotify: Boolean(message.tag), icon: "/static/favicon-turn.svg",
    data: {url: message.url || "/"},
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // only a page of this site: the message's address is read against the worker's own origin
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    const open = pages.find((page) => page.url === url.href && "focus" in page);
    return open ? open.focus() : self.clients.openWindow(url.href);
  })());
});
