/**
 * A property's sign-in on the hosted pages: its username and password, hashed once and written to
 * the directory (where the hosted sign-in finds them in one control read, under a unique key)
 * and to the property's row in its shard.
 */
import { ApiError, abortReason } from "../errors";
import { hashPassword } from "../lib/crypto";
import { usernameKey } from "../lib/username";
import type { Credentials } from "../shards/directory.repo";

/** The directory's fields for the given username (already normalised by the route) and password; only what is given. */
export async function credentialChanges(input: {
  username?: string | null | undefined;
  password?: string | undefined;
}): Promise<Partial<Credentials>> {
  const out: Partial<Credentials> = {};
  if (input.username !== undefined) {
    out.username = input.username;
    out.usernameKey = input.username === null ? null : usernameKey(input.username);
  }
  if (input.password !== undefined) out.passwordHash = await hashPassword(input.password);
  return out;
}

/** A new property's credentials: what was given, the rest null. */
export async function newCredentials(input: {
  username?: string | null | undefined;
  password?: string | undefined;
  passwordHash?: string | undefined;
}): Promise<Credentials> {
  const given = await credentialChanges({
    username: input.username ?? null,
    ...(input.passwordHash ? {} : { password: input.password }),
  });
  return { username: null, usernameKey: null, passwordHash: input.passwordHash ?? null, ...given };
}

/** Turns the UNIQUE failure of a username key (a property's or a client's) into 409 "username taken". */
export function asUsernameTaken(err: unknown, username: string | null | undefined): unknown {
  return abortReason(err, ["username_key"])
    ? new ApiError("username_taken", `the username "${username ?? ""}" is taken`)
    : err;
}
