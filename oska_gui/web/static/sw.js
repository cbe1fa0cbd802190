// Oska's service worker: keeps the whole site in the browser, so the game starts from
// the cache at once, offline or on a network that does not answer, after the first visit.
//
// The build writes its id and its list of files in place of the markers below, so every
// build is a new worker with a cache of its own. Every file of the site is answered from
// this build's cache first; the network is asked only for what the cache lacks (on the
// first visit, the loader's downloads; they are kept as they arrive).
//
// A new build is picked up in the background and applied on the next load: the browser
// checks sw.js on every visit (the loader asks too); a changed worker downloads its
// whole build into its own cache while the page plays on, then waits until the page asks
// it to take over (the "activate" message): the running page has all its files already,
// and a page still loading loads again from the new build (see loader.js). Activating
// drops the older builds' caches. Only the very first worker takes over by itself.
//
// A file is kept only if it arrives whole (its size is the build's): a server caught
// writing the site, or a download cut short, would otherwise leave a truncated runtime in
// the cache, answered first on every later visit (Pyodide then never starts). A new
// build that cannot download itself whole fails to install; the browser tries again later.
const BUILD = "__OSKA_BUILD_ID__";
const FILES = __OSKA_FILES__;
const SIZES = __OSKA_SIZES__;
// What the first visit caches while installing; the loader's downloads bring the rest.
const SHELL = __OSKA_SHELL__;
const CACHE = `oska-${BUILD}`;

self.addEventListener("install", (event) => {
  const update = Boolean(self.registration.active);
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": straight from the server, never a copy the browser kept of an older build
    try {
      await Promise.all(["./", ...(update ? FILES : SHELL)].map(async (name) => {
        const request = new Request(name, { cache: "reload" });
        const response = await fetch(request);
        if (!response.ok || !await keepWhole(cache, request, response)) {
          throw new Error(`${name} did not arrive whole (HTTP ${response.status})`);
        }
      }));
    } catch (error) {
      await caches.delete(CACHE);  // all or nothing, as the next try starts afresh
      throw error;
    }
    if (!update) {
      await self.skipWaiting();
    }
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "activate") {
    event.waitUntil(self.skipWaiting());  // without waitUntil, Chromium 156 never activated it
  }
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
  event.respondWith(cacheFirst(request, event));
});

// This build's copy if there is one (a query string does not matter: the site has no
// dynamic pages); otherwise the network's answer, kept when it is good.
async function cacheFirst(request, event) {
  const cached = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
  if (cached) {
    return cached;
  }
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => keepWhole(cache, request, copy)));
  }
  return response;
}

// The build's size of the file `request` asks for (undefined if the build does not say).
function expectedSize(request) {
  const scope = new URL(self.registration.scope).pathname;
  const path = new URL(request.url).pathname.slice(scope.length);
  return SIZES[path || "index.html"];
}

// Keep `response` in `cache` for `request` if its body has the build's size (or the
// build gives none); returns whether it was kept.
async function keepWhole(cache, request, response) {
  const body = await response.arrayBuffer();
  const size = expectedSize(request);
  if (size !== undefined && body.byteLength !== size) {
    return false;
  }
  await cache.put(request, new Response(body, {
    status: response.status, statusText: response.statusText, headers: response.headers }));
  return true;
}
