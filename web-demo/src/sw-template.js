// The playground's service worker (generated into dist/sw.js by vite.config.js): it caches
// every file of the build when the page is first loaded and answers from that cache, so the
// playground keeps working offline. File names carry content hashes; a new build has a new
// cache name, and the old cache is dropped once the new one is active.
const CACHE = '__CACHE__';
const FILES = __FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const key = request.mode === 'navigate' ? './' : request;
      const cached = await cache.match(key, { ignoreSearch: true });
      if (cached) return cached;
      return fetch(request);
    })(),
  );
});
