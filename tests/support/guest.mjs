// The browser suites share one Worker, and its public API counts each guest's address (reads,
// writes, hosted pages a minute): a browser that talks to it much (the component tests' page, each
// run of the widget's end-to-end file) is a guest of an address of its own, so that no two spend
// one budget, whichever minute they share.

/**
 * Makes the requests of browser `context` to the Worker at `origin` come from `address`: the
 * CF-Connecting-IP header is added on the way, as a CDN adds it (no CORS preflight asks for it).
 */
export function guestAt(context, origin, address) {
  return context.route(
    (url) => url.origin === origin,
    (route) => route.continue({ headers: { ...route.request().headers(), "cf-connecting-ip": address } }),
  );
}
