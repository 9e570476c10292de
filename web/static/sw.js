// The companion's service worker: keeps the page's shell so it opens at once and installs as an app.
// The game itself always comes from the network (/api is never cached).
"use strict";
const CACHE = "skeptics-__VERSION__";
// The shell: the page and the modules it loads at once. The modules of the other games and views (box.js ...) and the
// host's (host.js) are kept the first time they are used, so a phone fetches only what it shows.
const SHELL = ["/", "/manifest.webmanifest", "/static/app.css?v=__VERSION__", "/static/icon.svg?v=__VERSION__"].concat(
  ["app", "core", "skeptics"].map((name) => "/static/" + name + ".js?v=__VERSION__"));

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()).catch(() => {}));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname === "/join") return;
  if (url.pathname.startsWith("/static/") && url.searchParams.has("v")) {
    e.respondWith(caches.match(e.request).then((hit) => hit || fetch(e.request).then((res) => {
      if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
      return res;
    })));
    return;
  }
  // The page and the manifest: the network first (a new version shows at once), the cache when offline.
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
    return res;
  }).catch(() => caches.match(e.request).then((hit) => hit || Response.error())));
});
