/** Creating an API client: the client and its sandbox property, on a username nobody has. */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { writePlaced } from "../properties/lifecycle";
import { shardCount } from "../shards/shards";
import { toApiClientDto } from "./clients.dto";
import { createClient, deleteClient, type NewClient, usernameTaken } from "./clients.repo";
import type { ClientCreation } from "./clients.schemas";

/** POST /client: the client, then its sandbox property's row in the shard the directory chose. */
export async function createApiClient(c: Context<AppEnv>, body: ClientCreation) {
  const input = clientInput(body);
  const control = c.get("control");
  const { client, clientSecret, entry } = await insertClient(c, input);
  const sandbox = { sandbox: true, sandboxDays: config(c.env).sandboxDays };
  // The client goes if its property cannot be written.
  const property = await writePlaced(
    c.env,
    control,
    entry,
    { ...input.property, passwordHash: client.passwordHash },
    sandbox,
  ).catch(async (err) => {
    await deleteClient(control, client.id);
    throw err;
  });
  return toApiClientDto(client, clientSecret, input.password, property);
}

/** The request's two shapes as one: the client's fields, and its sandbox property's. */
function clientInput(body: ClientCreation): NewClient {
  if (!("sandbox_property" in body)) {
    return {
      name: body.name,
      email: body.email,
      username: body.username,
      password: body.password,
      redirectUri: body.redirect_uri,
      property: body,
    };
  }
  const p = body.sandbox_property;
  return {
    name: p.name,
    email: p.email,
    username: p.username,
    password: p.password,
    redirectUri: body.redirect_uri,
    property: p,
  };
}

const taken = (username: string) => new ApiError("username_taken", `the username "${username}" is taken`);

const uniqueViolation = (e: unknown) =>
  String((e as Error)?.message ?? e).includes("UNIQUE") ||
  String((e as { cause?: unknown })?.cause ?? "").includes("UNIQUE");

/** The client, its directory entry and its grant; a username already taken is a 409. */
async function insertClient(c: Context<AppEnv>, input: NewClient) {
  const control = c.get("control");
  // Checked first to spare the slow password hash; the UNIQUE index settles races.
  if (await usernameTaken(control, input.username)) throw taken(input.username);
  try {
    return await createClient(control, input, shardCount(c.env));
  } catch (e) {
    if (uniqueViolation(e)) throw taken(input.username);
    throw e;
  }
}
