// Builds what the Worker serves as static assets: the docs UI (and, later, the widget bundle).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const out = join(root, "dist/public");

rmSync(out, { recursive: true, force: true });
const docsAssets = join(out, "docs/assets");
mkdirSync(docsAssets, { recursive: true });
const swagger = dirname(require.resolve("swagger-ui-dist/package.json"));
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) cpSync(join(swagger, file), join(docsAssets, file));
console.log(`built dist/public (docs assets from swagger-ui-dist)`);
