/** The API's documentation pages: Swagger UI over the OpenAPI document, and the table of error codes. */
import type { Context } from "hono";
import { html, raw } from "hono/html";
import type { AppEnv } from "../env";
import { ERRORS } from "../errors";
import { randomToken } from "../lib/crypto";

/**
 * Swagger UI from this origin only: its bundle, its stylesheet (it styles elements inline, so
 * 'unsafe-inline' for styles), data: icons, and fetches of the document and "Try it out" calls
 * to this origin. The one inline script runs by its per-response nonce. Never framed, so the
 * Authorize dialog cannot be clickjacked.
 */
const docsCsp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

/** /docs/errors is static HTML: no script, no fetch, its own inline style. */
const ERRORS_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** /docs: Swagger UI served from the Worker's own assets (no CDN). */
export function swaggerPage(c: Context<AppEnv>) {
  const nonce = randomToken("", 16);
  c.header("Content-Security-Policy", docsCsp(nonce));
  return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Restaurant reservation API: docs</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
    <style>body { margin: 0 } .topnote { font: 14px system-ui, sans-serif; padding: 8px 20px; background: #f4f6f8 }</style>
  </head>
  <body>
    <p class="topnote">
      OpenAPI document: <a href="/api/v2/openapi.json">/api/v2/openapi.json</a> ·
      error codes: <a href="/docs/errors">/docs/errors</a> ·
      get a token with <code>POST /auth/api/v2/api-account/oauth2/token</code>, then press <b>Authorize</b>.
    </p>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script nonce="${nonce}">
      window.ui = SwaggerUIBundle({
        url: "/api/v2/openapi.json",
        dom_id: "#swagger-ui",
        validatorUrl: null,
        deepLinking: true,
        persistAuthorization: true,
        tryItOutEnabled: true,
      });
    </script>
  </body>
</html>`);
}

/** /docs/errors: every error code with its status and title, each row an anchor the problems' `type` links to. */
export function errorsPage(c: Context<AppEnv>) {
  const rows = Object.entries(ERRORS)
    .map(
      ([code, [status, title]]) =>
        `<tr id="${code}"><td>${status}</td><td><code>${code}</code></td><td>${title}</td></tr>`,
    )
    .join("");
  c.header("Content-Security-Policy", ERRORS_CSP);
  return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Error codes</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <style>body { font: 15px system-ui, sans-serif; margin: 2rem } td, th { padding: 4px 12px; text-align: left } tr:target { background: #fff3c4 }</style>
  </head>
  <body>
    <h1>Error codes</h1>
    <p>Every error is <code>application/problem+json</code>: <code>{type, title, status, code, detail, request_id, errors?}</code>. The <code>title</code> is the reason phrase below.</p>
    <table><thead><tr><th>status</th><th>code</th><th>title</th></tr></thead><tbody>${raw(rows)}</tbody></table>
  </body>
</html>`);
}
