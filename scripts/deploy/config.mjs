// wrangler.toml as a deploy sees it: what it binds, what is still a placeholder, what a deploy
// refuses (each refusal with the command that fixes it), and the edits the deploy writes back
// (database ids, vars) in place, comments kept.
import { readFileSync, writeFileSync } from "node:fs";
import { BlockList, isIPv4 } from "node:net";
import { parse } from "smol-toml";

/** The secrets a deployed Worker cannot do without (worker/env.ts). */
export const REQUIRED_SECRETS = ["OPS_TOKEN", "LINK_SECRET"];
/** The ids wrangler.toml ships with (and a new shard's, until the deploy creates it): zeros but the last group. */
export const isPlaceholderId = (id) => !id || /^00000000-0000-0000-0000-[0-9]{12}$/.test(id);

export function readConfig(path) {
  return configOf(path, readFileSync(path, "utf8"));
}

/** The configuration `text` would be at `path` (a dry run checks edits it does not write). */
export function configOf(path, text) {
  const toml = parse(text);
  return {
    path,
    text,
    name: toml.name,
    databases: (toml.d1_databases ?? []).map((d) => ({
      binding: d.binding,
      name: d.database_name,
      id: d.database_id,
      migrationsDir: d.migrations_dir,
    })),
    queues: [
      ...new Set([...(toml.queues?.producers ?? []), ...(toml.queues?.consumers ?? [])].map((q) => q.queue)),
    ],
    vars: toml.vars ?? {},
  };
}

/**
 * Addresses no guest's browser reaches on the Internet: loopback, private, link-local, carrier-grade
 * NAT, "this network", documentation, benchmarking, multicast and reserved ranges; in IPv6 also the
 * unspecified address and every form that embeds an IPv4 one (mapped, compatible, NAT64, 6to4,
 * Teredo). Two lists: a BlockList matches an IPv4 address against an IPv4-mapped IPv6 rule too.
 */
const blockList = (type, subnets) => {
  const list = new BlockList();
  for (const [net, bits] of subnets) list.addSubnet(net, bits, type);
  return list;
};
const NOT_PUBLIC = {
  ipv4: blockList("ipv4", [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 3],
  ]),
  ipv6: blockList("ipv6", [
    ["::", 96],
    ["::ffff:0:0", 96],
    ["64:ff9b::", 96],
    ["100::", 64],
    ["2001::", 32],
    ["2001:db8::", 32],
    ["2002::", 16],
    ["fc00::", 7],
    ["fe80::", 10],
    ["fec0::", 10],
    ["ff00::", 8],
  ]),
};

/** Names that never lead a guest's browser to this Worker: localhost and the internal suffixes, or no dot at all. */
const INTERNAL_NAME = /^(localhost|.*\.(localhost|local|internal|lan|home\.arpa))$|^[^.]*$/i;

/** Why the host of PUBLIC_ORIGIN cannot be deployed, or null. */
function hostProblem(url, origin) {
  // "localhost." is "localhost": the root's dot must not slip a name past the rules.
  const host = url.hostname.replace(/\.+$/, "");
  const v6 = host.startsWith("[") ? host.slice(1, -1) : undefined;
  if (v6 !== undefined || isIPv4(host)) {
    const type = v6 !== undefined ? "ipv6" : "ipv4";
    if (NOT_PUBLIC[type].check(v6 ?? host, type))
      return `PUBLIC_ORIGIN is a loopback, private or reserved address (${origin}): every link in emails and the OAuth issuer would point to it`;
    return null;
  }
  if (INTERNAL_NAME.test(host))
    return `PUBLIC_ORIGIN is a loopback or internal name (${origin}): every link in emails and the OAuth issuer would point to it`;
  return null;
}

/** Why PUBLIC_ORIGIN cannot be deployed, or null. */
function originProblem(origin) {
  if (!origin) return "PUBLIC_ORIGIN is missing";
  let url;
  try {
    url = new URL(origin);
  } catch {
    return `PUBLIC_ORIGIN "${origin}" is not a URL`;
  }
  const host = hostProblem(url, origin);
  if (host) return host;
  if (url.protocol !== "https:") return `PUBLIC_ORIGIN must be https (${origin})`;
  if (url.username || url.password)
    return `PUBLIC_ORIGIN carries a user or password (${origin}): it would be copied into every link`;
  if (url.pathname !== "/" || url.search || url.hash)
    return `PUBLIC_ORIGIN must be only an origin, scheme, host and port (${origin}): a path, query or fragment would be dropped from every link`;
  return null;
}

/** Why EMAIL_FROM cannot be deployed, or null. */
function emailProblem(from) {
  if (!from) return "EMAIL_FROM is missing";
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(from)) return `EMAIL_FROM "${from}" is not an address`;
  if (/\.(example|test|invalid|localhost)$/i.test(from))
    return `EMAIL_FROM is a placeholder (${from}): the sender must be on a domain set up for Cloudflare Email Service`;
  return null;
}

/**
 * What the configuration lacks for a deploy: [{ what, fix, placeholder? }]. `secrets`: the names
 * known to be set (on Cloudflare, or given to this deploy in the environment).
 */
export function problems(config, { secrets = [] } = {}) {
  const out = [];
  const origin = originProblem(config.vars.PUBLIC_ORIGIN);
  if (origin)
    out.push({
      what: origin,
      fix: "npm run deploy -- --origin https://book.your-domain.com (written to wrangler.toml [vars])",
    });
  const email = emailProblem(config.vars.EMAIL_FROM);
  if (email)
    out.push({
      what: email,
      fix: "npm run deploy -- --email-from bookings@your-domain.com (written to wrangler.toml [vars])",
    });
  for (const d of config.databases) {
    if (isPlaceholderId(d.id)) {
      out.push({
        placeholder: true,
        what: `${d.binding}'s database_id is a placeholder (${d.id})`,
        fix: `npm run deploy (creates "${d.name}" and writes its id), or: npx wrangler d1 create ${d.name}, and its id into wrangler.toml`,
      });
    }
  }
  for (const s of REQUIRED_SECRETS) {
    if (!secrets.includes(s))
      out.push({
        secret: s,
        what: `the secret ${s} is not set`,
        fix: `${s}=$(openssl rand -base64 32) npm run deploy (uploaded with the Worker), or: npx wrangler secret put ${s}`,
      });
  }
  return out;
}

/** wrangler.toml's text with `database_id` of the database `name` set to `id`. */
export function withDatabaseId(text, name, id) {
  const block = new RegExp(
    `(database_name\\s*=\\s*"${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*\\n\\s*database_id\\s*=\\s*)"[^"]*"`,
  );
  if (!block.test(text))
    throw new Error(`wrangler.toml: no database_id line right after database_name = "${name}"`);
  return text.replace(block, `$1"${id}"`);
}

/** wrangler.toml's text with [vars] `key` set to `value` (added at the top of [vars] if absent). */
export function withVar(text, key, value) {
  const line = new RegExp(`^(${key}\\s*=\\s*)"[^"]*"`, "m");
  if (line.test(text)) return text.replace(line, `$1${JSON.stringify(value)}`);
  return text.replace(/^\[vars\]\s*$/m, `[vars]\n${key} = ${JSON.stringify(value)}`);
}

export function writeConfig(config, text) {
  writeFileSync(config.path, text);
  return readConfig(config.path);
}
