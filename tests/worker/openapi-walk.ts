/** Walks the generated OpenAPI document, so the security and error suites cover every route, new ones included. */
import { call } from "./helpers";

export interface Operation {
  method: string;
  path: string;
  propertyScoped: boolean;
  hasPathId: boolean;
  /** the name of the path's id parameter ("id", or the API's "reservation_id") */
  pathParam?: string;
  bodySchema?: any;
  authenticated: boolean;
  /** the required query parameters, filled from their examples ("" when none) */
  requiredQuery: string;
}

/** The operation's path with an id, and its required query parameters, ready to call. */
export function urlOf(op: Operation, id?: number | string): string {
  const path = id === undefined ? op.path : op.path.replace(/\{\w+\}/, String(id));
  return op.requiredQuery ? `${path}?${op.requiredQuery}` : path;
}

export async function operations(): Promise<{ ops: Operation[]; doc: any }> {
  const res = await call("/api/v2/openapi.json");
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  const doc = res.json;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? [];
      const body = op.requestBody?.content?.["application/json"]?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        propertyScoped: params.some((p) => p.in === "header" && p.name === "Property"),
        hasPathId: /\{\w+\}/.test(path),
        pathParam: /\{(\w+)\}/.exec(path)?.[1],
        bodySchema: body ? resolve(doc, body) : undefined,
        authenticated: Array.isArray(op.security) && op.security.length > 0,
        requiredQuery: params
          .filter((p) => p.in === "query" && p.required)
          .map(
            (p) =>
              `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.schema?.example ?? p.example ?? "1"))}`,
          )
          .join("&"),
      });
    }
  }
  return { ops, doc };
}

export function resolve(doc: any, schema: any): any {
  if (schema?.$ref) {
    const name = schema.$ref.split("/").pop();
    return resolve(doc, doc.components.schemas[name]);
  }
  return schema;
}

/** A value of the wrong type for each property of an object schema. */
export function wrongTypes(doc: any, schema: any): Record<string, unknown> {
  const s = resolve(doc, schema);
  const variants = s?.anyOf ?? s?.oneOf;
  if (variants) return wrongTypes(doc, variants[0]);
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries<any>(s?.properties ?? {})) {
    const p = resolve(doc, prop);
    const type = Array.isArray(p?.type) ? p.type.find((t: string) => t !== "null") : p?.type;
    out[key] =
      type === "string"
        ? 12345
        : type === "number" || type === "integer"
          ? "not-a-number"
          : type === "boolean"
            ? "yes"
            : type === "array"
              ? { not: "an array" }
              : "not-an-object";
  }
  return out;
}

export const BASE = "/api/v2";
export const AUTH_CLIENT_PATH = "/auth/api/v2/api-account/oauth2/client";
