/* crkb pack service worker: caches every file of the pack on install, then serves from the cache
   (search.html?q=… too), so the pack works offline after one visit. */
"use strict";
var CACHE = "crkb-pack-__VERSION__";
var FILES = __FILES__;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(FILES);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf("crkb-pack-") === 0 && k !== CACHE;
    }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET" || new URL(event.request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    var url = new URL(event.request.url);
    var asked = /\/$/.test(url.pathname) ? new Request(url.origin + url.pathname + "index.html") : event.request;
    return cache.match(asked, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(event.request);
    });
  }));
});
