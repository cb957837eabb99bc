/** /docs: Swagger UI served from the Worker's own assets (no CDN), and /docs/errors. */
import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { AppEnv } from "../env";
import { ERRORS } from "../errors";

export const docsRouter = new Hono<AppEnv>();

docsRouter.get("/docs", (c) =>
  c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Restaurant reservation API: docs</title>
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
    <script>
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
</html>`),
);

docsRouter.get("/docs/errors", (c) => {
  const rows = Object.entries(ERRORS)
    .map(([code, [status, title]]) => `<tr id="${code}"><td>${status}</td><td><code>${code}</code></td><td>${title}</td></tr>`)
    .join("");
  return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Error codes</title>
    <style>body { font: 15px system-ui, sans-serif; margin: 2rem } td, th { padding: 4px 12px; text-align: left } tr:target { background: #fff3c4 }</style>
  </head>
  <body>
    <h1>Error codes</h1>
    <p>Every error is <code>application/problem+json</code>: <code>{type, title, status, code, detail, request_id, errors?}</code>. The <code>title</code> is the reason phrase below.</p>
    <table><thead><tr><th>status</th><th>code</th><th>title</th></tr></thead><tbody>${raw(rows)}</tbody></table>
  </body>
</html>`);
});
