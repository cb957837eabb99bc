/** 405 support: Hono answers 404 for a known path with another method; this finds the methods. */
interface RouteInfo {
  method: string;
  path: string;
}

const cache = new WeakMap<RouteInfo[], { regex: RegExp; method: string }[]>();

function compile(routes: RouteInfo[]) {
  let compiled = cache.get(routes);
  if (!compiled) {
    compiled = routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({
        method: r.method,
        regex: new RegExp(
          `^${r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_][A-Za-z0-9_]*/g, "[^/]+")}$`,
        ),
      }));
    cache.set(routes, compiled);
  }
  return compiled;
}

export function methodNotAllowed(routes: RouteInfo[], method: string, path: string): string[] {
  const methods = new Set<string>();
  for (const r of compile(routes)) if (r.method !== method && r.regex.test(path)) methods.add(r.method);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
