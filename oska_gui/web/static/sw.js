// Oska's service worker: keeps the whole site in the browser so the game starts offline
// after the first visit, and a repeat visit does not wait for the network.
//
// The build writes its id in place of the marker below, so every build is a new worker
// with a cache of its own, and activating it drops the caches of older builds.
// The Pyodide runtime (big, and changed only by a new build, which gets a new cache) is
// served from the cache first; everything else is asked of the network first, so a
// rebuilt site is seen at once, and the cached copy answers only when the network fails.
const BUILD = "__OSKA_BUILD_ID__";
const CACHE = `oska-${BUILD}`;
const SHELL = ["./", "index.html", "loader.js", "manifest.json"];
const RUNTIME = new URL("pyodide/", self.registration.scope).href;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("oska-") && name !== CACHE) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) {
    return;  // not the site's: the browser handles it as if there were no worker
  }
  const answer = request.url.startsWith(RUNTIME) ? cacheFirst : networkFirst;
  event.respondWith(answer(request, event));
});

// Store a copy of a good answer while the page already reads it.
function remember(request, response, event) {
  if (response.ok) {
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
  }
  return response;
}

async function cacheFirst(request, event) {
  const cached = await caches.match(request, { cacheName: CACHE });
  return cached || remember(request, await fetch(request), event);
}

async function networkFirst(request, event) {
  try {
    return remember(request, await fetch(request), event);
  } catch (error) {
    const cached = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
    if (cached) {
      return cached;
    }
    throw error;
  }
}
