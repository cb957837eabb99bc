// What drizzle-orm's SQLite columns import as "./blob.js", "./numeric.js" and "./real.js" in the
// Worker's bundle (wrangler.toml [alias]): column kinds the Worker's tables never declare (they
// use integer, text and custom columns only), so each builder here says so instead of building.
const leftOut = (kind) => () => {
  throw new Error(`drizzle's ${kind} columns are left out of the Worker's bundle`);
};
export const blob = leftOut("blob");
export const numeric = leftOut("numeric");
export const real = leftOut("real");
