// Operator commands (not API routes, as SPEC says production is enabled by the vendor).
//   npm run ops -- enable-production <client_id>      [--remote | --persist-to DIR]
//   npm run ops -- disable-production <client_id>
//   npm run ops -- grant <client_id> <property_id>     authorise another client for a property
//   npm run ops -- revoke-grant <client_id> <property_id>
//   npm run ops -- list-clients
// Local by default (the D1 of `npm start`); --remote acts on the deployed database.
import { parseArgs } from "node:util";
import { defaultPersistDir, wrangler } from "./dev-server.mjs";

const USAGE = `usage: npm run ops -- <command> [args] [--remote | --persist-to DIR]
commands:
  enable-production <client_id>        let the client create production (non-sandbox) properties
  disable-production <client_id>       back to sandbox-only
  grant <client_id> <property_id>      authorise the client for an existing property
  revoke-grant <client_id> <property_id>
  list-clients                         clients with their production flag and properties`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { remote: { type: "boolean", default: false }, "persist-to": { type: "string" }, help: { type: "boolean", short: "h" } },
});
const [command, ...args] = positionals;

function fail(message) {
  console.error(`ops: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const clientIdArg = (v) => (/^ci_[A-Za-z0-9_-]{10,60}$/.test(v ?? "") ? v : fail(`"${v ?? ""}" is not a client_id (ci_...)`));
const intArg = (v, what) => (/^[1-9]\d{0,15}$/.test(v ?? "") ? Number(v) : fail(`"${v ?? ""}" is not a ${what}`));

function sql(statement) {
  const where = values.remote ? ["--remote"] : ["--local", "--persist-to", values["persist-to"] ?? defaultPersistDir()];
  const r = wrangler(["d1", "execute", "DB", ...where, "--json", "--command", statement]);
  if (r.status !== 0) {
    console.error(r.stderr || r.stdout);
    process.exit(1);
  }
  const out = JSON.parse(r.stdout);
  return out[0]?.results ?? [];
}

function setProduction(clientId, enabled) {
  const rows = sql(`UPDATE api_clients SET production_enabled = ${enabled ? 1 : 0} WHERE client_id = '${clientId}' RETURNING id, client_id, username, production_enabled`);
  if (!rows.length) fail(`no client ${clientId}`);
  console.log(`client ${clientId} (${rows[0].username}): production ${enabled ? "enabled" : "disabled"}`);
}

if (values.help || !command) {
  console.log(USAGE);
  process.exit(command ? 0 : 2);
}

switch (command) {
  case "enable-production":
    setProduction(clientIdArg(args[0]), true);
    break;
  case "disable-production":
    setProduction(clientIdArg(args[0]), false);
    break;
  case "grant": {
    const clientId = clientIdArg(args[0]);
    const propertyId = intArg(args[1], "property id");
    const rows = sql(
      `INSERT INTO property_grants (client_id, property_id)
       SELECT c.id, p.id FROM api_clients c, properties p WHERE c.client_id = '${clientId}' AND p.id = ${propertyId} AND p.deleted_at IS NULL
       ON CONFLICT DO NOTHING RETURNING client_id, property_id`,
    );
    const exists = sql(`SELECT 1 AS ok FROM property_grants g JOIN api_clients c ON c.id = g.client_id WHERE c.client_id = '${clientId}' AND g.property_id = ${propertyId}`);
    if (!exists.length) fail(`no client ${clientId} or no property ${propertyId}`);
    console.log(rows.length ? `client ${clientId} may now act on property ${propertyId}` : `client ${clientId} already had property ${propertyId}`);
    break;
  }
  case "revoke-grant": {
    const clientId = clientIdArg(args[0]);
    const propertyId = intArg(args[1], "property id");
    const rows = sql(
      `DELETE FROM property_grants WHERE property_id = ${propertyId} AND client_id = (SELECT id FROM api_clients WHERE client_id = '${clientId}') RETURNING property_id`,
    );
    console.log(rows.length ? `client ${clientId} no longer acts on property ${propertyId}` : `client ${clientId} had no grant on property ${propertyId}`);
    break;
  }
  case "list-clients": {
    const rows = sql(
      `SELECT c.client_id, c.username, c.production_enabled, group_concat(g.property_id) AS properties
       FROM api_clients c LEFT JOIN property_grants g ON g.client_id = c.id GROUP BY c.id ORDER BY c.id`,
    );
    console.table(rows.map((r) => ({ client_id: r.client_id, username: r.username, production: !!r.production_enabled, properties: r.properties ?? "" })));
    break;
  }
  default:
    fail(`unknown command "${command}"`);
}
