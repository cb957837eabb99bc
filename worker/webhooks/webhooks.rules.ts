import type { PropertyRow } from "../env";
import { invalidField } from "../errors";
import { endpointProblem, loopbackEndpoint, resolvedProblem } from "./endpoint";
import { resolveName } from "./transport";

/**
 * The endpoint rules of the property's kind; a production endpoint's name is resolved now too
 * (and again before each attempt), so one pointing at a private address is refused here. A name
 * that cannot be resolved at the moment is taken: the attempts check it again. `loopback`: local
 * development, where a receiver on this machine is allowed for every property (config.ts).
 */
export async function checkEndpoint(endpoint: string, property: PropertyRow, loopback: boolean) {
  const problem = endpointProblem(endpoint, property.sandbox, loopback);
  if (problem) throw invalidField("endpoint", problem);
  if (property.sandbox || (loopback && loopbackEndpoint(endpoint))) return;
  const dns = await resolvedProblem(endpoint, resolveName);
  if (dns && !dns.transient)
    throw invalidField("endpoint", `endpoint must be a public address: ${dns.reason}`);
}
