/* crkb pack: on a web host, a service worker keeps every file of the pack for offline use. */
(function () {
  "use strict";
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    var root = document.querySelector('link[rel="manifest"]').getAttribute("href")
      .replace(/manifest\.webmanifest$/, "");
    navigator.serviceWorker.register(root + "sw.js", { scope: root || "./" }).catch(function () {});
  }
})();
