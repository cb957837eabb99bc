// wrangler.toml as the Worker test pool reads it, without the developer's .dev.vars: wrangler
// takes the secrets of the .dev.vars beside its configuration file, and a fresh clone and a
// working copy must test the same. So the pool reads a copy kept where no .dev.vars is, its
// relative paths made absolute; the tests give every secret they need as a binding of their own.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { parse } from "smol-toml";
import { ROOT } from "../../scripts/paths.mjs";

const absolute = (path) => (typeof path === "string" && !isAbsolute(path) ? join(ROOT, path) : path);

/** Writes the copy (wrangler.json under node_modules/.cache) and answers its path. */
export function wranglerConfigWithoutDevVars() {
  const config = parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8"));
  config.main = absolute(config.main);
  if (config.assets) config.assets.directory = absolute(config.assets.directory);
  for (const db of config.d1_databases ?? []) db.migrations_dir = absolute(db.migrations_dir);
  for (const [name, target] of Object.entries(config.alias ?? {}))
    config.alias[name] = target.startsWith(".") ? absolute(target) : target;
  // the pool bundles nothing with wrangler: the build command is `npm run build`'s business
  delete config.build;
  const dir = join(ROOT, "node_modules", ".cache", "booking-engine-tests");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "wrangler.json");
  // written whole, then renamed: two runs side by side never read half of it
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(partial, path);
  return path;
}
