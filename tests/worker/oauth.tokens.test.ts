/**
 * The token endpoint's grants of a restaurant's approval: authorization_code with
 * PKCE, refresh_token with rotation and reuse detection, RFC 7009 on refresh tokens, tokens that
 * reach the approved property only, and revoking a grant.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import { AUTH, call, dateInDays, expectProblem, newClient, seedCatalog, shardOf } from "./helpers";
import {
  approve,
  Browser,
  connected,
  opsRevokeGrant,
  pkce,
  REDIRECT,
  restaurant,
  revoke,
  token,
} from "./oauth.fixtures";

const bearer = (access: string, property?: number) => ({
  token: access,
  ...(property !== undefined && { property }),
});

async function codeFor(
  r: Awaited<ReturnType<typeof restaurant>>,
  integrator: Awaited<ReturnType<typeof newClient>>,
) {
  const { verifier, challenge } = await pkce();
  const params = await approve(new Browser(), {
    clientId: integrator.clientId,
    challenge,
    username: r.username,
    password: r.password,
  });
  return { code: params.get("code")!, verifier };
}

describe("grant_type=authorization_code", () => {
  it("answers an access token, a refresh token and property_ids, with no-store", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    const res = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      access_token: expect.stringMatching(/^at_/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^rt_/),
      property_ids: [r.propertyId],
    });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("grants the property as ops grant does: the client's own token reaches it too", async () => {
    const { integrator, propertyId } = await connected();
    expect((await call("/api/v2/rooms", bearer(integrator.token, propertyId))).status).toBe(200);
  });

  it("gives a token that reaches the approved restaurant only", async () => {
    const { integrator, propertyId, tokens } = await connected();
    const list = await call("/api/v2/properties", bearer(tokens.access_token));
    expect(list.json.data.map((p: { id: number }) => p.id)).toEqual([propertyId]);
    expect((await call("/api/v2/rooms", bearer(tokens.access_token, propertyId))).status).toBe(200);
    // Not the integrator's own sandbox, although its client may act there.
    expectProblem(
      await call("/api/v2/rooms", bearer(tokens.access_token, integrator.propertyId)),
      403,
      "property forbidden",
    );
    expectProblem(
      await call(`/api/v2/properties/${integrator.propertyId}`, bearer(tokens.access_token)),
      403,
      "property forbidden",
    );
    const created = await call("/api/v2/properties", {
      ...bearer(tokens.access_token),
      body: { name: "Not mine to make" },
    });
    expectProblem(created, 403, "insufficient scope");
    expect(created.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
  });

  it("refuses a missing code_verifier (invalid_request) and a wrong one (invalid_grant), and the code still works after", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    const missing = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
    });
    expect([missing.status, missing.json.error]).toEqual([400, "invalid_request"]);
    const other = await pkce();
    const wrong = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: other.verifier,
    });
    expect([wrong.status, wrong.json.error]).toEqual([400, "invalid_grant"]);
    const short = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: "too-short",
    });
    expect([short.status, short.json.error]).toEqual([400, "invalid_request"]);
    expect(
      (
        await token(integrator, {
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        })
      ).status,
    ).toBe(200);
  });

  it("binds the code to its client and its redirect_uri", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const thief = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    const stolen = await token(thief, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect([stolen.status, stolen.json.error]).toEqual([400, "invalid_grant"]);
    const elsewhere = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "https://integrator.example/other",
      code_verifier: verifier,
    });
    expect([elsewhere.status, elsewhere.json.error]).toEqual([400, "invalid_grant"]);
    const noSecret = await call(`${AUTH}/token`, {
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: integrator.clientId,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect([noSecret.status, noSecret.json.error]).toEqual([401, "invalid_client"]);
  });

  it("takes a code once: used again, it is refused and the tokens it gave are revoked", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    const first = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect((await call("/api/v2/rooms", bearer(first.json.access_token, r.propertyId))).status).toBe(200);
    const again = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect([again.status, again.json.error]).toEqual([400, "invalid_grant"]);
    expectProblem(
      await call("/api/v2/rooms", bearer(first.json.access_token, r.propertyId)),
      401,
      "invalid token",
    );
    const refreshed = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: first.json.refresh_token,
    });
    expect([refreshed.status, refreshed.json.error]).toEqual([400, "invalid_grant"]);
  });

  it("gives exactly one of two racing redemptions of a code its tokens", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    const both = await Promise.all(
      [1, 2].map(() =>
        token(integrator, {
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }),
      ),
    );
    expect(both.map((b) => b.status).sort()).toEqual([200, 400]);
  });

  it("refuses a code after its 60 seconds", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    setClock(new Date(Date.now() + 61_000).toISOString());
    try {
      const late = await token(integrator, {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      expect([late.status, late.json.error, late.json.error_description]).toEqual([
        400,
        "invalid_grant",
        "the authorization code expired",
      ]);
    } finally {
      setClock(undefined);
    }
  });

  it("refuses a code of a restaurant deleted meanwhile", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { code, verifier } = await codeFor(r, integrator);
    await r.owner.call(`/api/v2/properties/${r.propertyId}`, { method: "DELETE" });
    const res = await token(integrator, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect([res.status, res.json.error]).toEqual([400, "invalid_grant"]);
  });
});

describe("grant_type=refresh_token", () => {
  it("rotates: a new pair each time, for the same restaurant", async () => {
    const { integrator, propertyId, tokens } = await connected();
    const next = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    expect(next.status, next.text).toBe(200);
    expect(next.json.property_ids).toEqual([propertyId]);
    expect(next.json.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call("/api/v2/rooms", bearer(next.json.access_token, propertyId))).status).toBe(200);
    const third = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: next.json.refresh_token,
    });
    expect(third.status).toBe(200);
  });

  it("detects reuse: an old refresh token revokes its whole family", async () => {
    const { integrator, propertyId, tokens } = await connected();
    const next = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    const replay = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    expect([replay.status, replay.json.error]).toEqual([400, "invalid_grant"]);
    // The family is gone: the newest refresh token and every access token of it.
    const afterReuse = await token(integrator, {
      grant_type: "refresh_token",
      refresh_token: next.json.refresh_token,
    });
    expect([afterReuse.status, afterReuse.json.error]).toEqual([400, "invalid_grant"]);
    for (const access of [tokens.access_token, next.json.access_token])
      expectProblem(await call("/api/v2/rooms", bearer(access, propertyId)), 401, "invalid token");
    // The client itself keeps its grant: client_credentials still reaches the restaurant.
    expect((await call("/api/v2/rooms", bearer(integrator.token, propertyId))).status).toBe(200);
  });

  it("treats two racing uses of one refresh token as reuse", async () => {
    const { integrator, tokens } = await connected();
    const both = await Promise.all(
      [1, 2].map(() =>
        token(integrator, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }),
      ),
    );
    expect(both.filter((b) => b.status === 200).length).toBeLessThanOrEqual(1);
    const winner = both.find((b) => b.status === 200);
    if (winner)
      expect(
        (await token(integrator, { grant_type: "refresh_token", refresh_token: winner.json.refresh_token }))
          .status,
      ).toBe(400);
  });

  it("refuses another client's refresh token, and an unknown one", async () => {
    const { tokens } = await connected();
    const other = await newClient();
    for (const refresh of [tokens.refresh_token, "rt_nothing"]) {
      const res = await token(other, { grant_type: "refresh_token", refresh_token: refresh });
      expect([res.status, res.json.error]).toEqual([400, "invalid_grant"]);
    }
  });
});

describe("POST /revoke (RFC 7009) with a refresh token", () => {
  it("ends the refresh token and every token of its family, and answers 200", async () => {
    const { integrator, propertyId, tokens } = await connected();
    const res = await revoke(integrator, tokens.refresh_token);
    expect(res.status).toBe(200);
    expect(
      (await token(integrator, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })).json
        .error,
    ).toBe("invalid_grant");
    expectProblem(await call("/api/v2/rooms", bearer(tokens.access_token, propertyId)), 401, "invalid token");
  });

  it("does nothing for another client's token, and still answers 200", async () => {
    const { integrator, propertyId, tokens } = await connected();
    const other = await newClient();
    expect((await revoke(other, tokens.refresh_token)).status).toBe(200);
    expect((await call("/api/v2/rooms", bearer(tokens.access_token, propertyId))).status).toBe(200);
    expect(
      (await token(integrator, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status,
    ).toBe(200);
  });
});

describe("revoking a grant (ops revoke-grant)", () => {
  it("ends the client's tokens for the property and deletes its webhook subscriptions there, nothing else", async () => {
    const { integrator, propertyId, tokens, owner } = await connected();
    const hook = { endpoint: "https://hooks.integrator.example/", webhook_type: "RESERVATION_CREATED" };
    const sub = (
      await call("/api/v2/webhooks/subscription", { ...bearer(integrator.token, propertyId), body: hook })
    ).json.data[0];
    const ownSub = (await integrator.call("/api/v2/webhooks/subscription", { body: hook })).json.data[0];
    const ownerSub = (await owner.call("/api/v2/webhooks/subscription", { body: hook, property: propertyId }))
      .json.data[0];

    const res = await opsRevokeGrant(integrator.clientId, propertyId);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({ granted: true, subscriptions_deleted: 1 });

    // Every token of the client is refused there: the approval's and client_credentials'.
    expectProblem(await call("/api/v2/rooms", bearer(tokens.access_token, propertyId)), 401, "invalid token");
    expectProblem(
      await call("/api/v2/rooms", bearer(integrator.token, propertyId)),
      403,
      "property forbidden",
    );
    expect(
      (await token(integrator, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })).json
        .error,
    ).toBe("invalid_grant");
    // Its subscription there is deleted; its own property's and the owner's are untouched.
    const d1 = await shardOf(propertyId);
    const deleted = await d1
      .prepare("SELECT deleted_at FROM webhook_subscriptions WHERE id = ?")
      .bind(sub.id)
      .first<{ deleted_at: string | null }>();
    expect(deleted!.deleted_at).not.toBeNull();
    expect((await integrator.call(`/api/v2/webhooks/subscription/${ownSub.id}`)).status).toBe(200);
    expect((await owner.call(`/api/v2/webhooks/subscription/${ownerSub.id}`)).status).toBe(200);
    expect((await call("/api/v2/rooms", bearer(integrator.token, integrator.propertyId))).status).toBe(200);
  });

  it("sends the client nothing more: a new reservation makes no delivery for its old subscription", async () => {
    const { integrator, propertyId, owner } = await connected();
    const sub = (
      await call("/api/v2/webhooks/subscription", {
        ...bearer(integrator.token, propertyId),
        body: { endpoint: "https://hooks.integrator.example/", webhook_type: "RESERVATION_CREATED" },
      })
    ).json.data[0];
    const ownerView = {
      ...owner,
      propertyId,
      call: (path: string, o = {}) => owner.call(path, { property: propertyId, ...o }),
    };
    const { service } = await seedCatalog(ownerView);
    expect((await opsRevokeGrant(integrator.clientId, propertyId)).status).toBe(200);
    const booked = await ownerView.call("/api/v2/reservations", {
      body: {
        start_date: dateInDays(12),
        start_hour: "19:00:00",
        pax: 2,
        service_id: service.id,
        customer: { first_name: "Ada", email: "ada@example.com" },
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const d1 = await shardOf(propertyId);
    const deliveries = await d1
      .prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id = ?")
      .bind(sub.id)
      .first<{ n: number }>();
    expect(deliveries!.n).toBe(0);
  });

  it("answers granted: false for a grant that was not there, and 404 for an unknown client", async () => {
    const r = await restaurant();
    const stranger = await newClient();
    expect((await opsRevokeGrant(stranger.clientId, r.propertyId)).json.data[0].granted).toBe(false);
    expect((await opsRevokeGrant("ci_nobody_at_all", r.propertyId)).status).toBe(404);
    expect(
      (
        await call("/__ops/revoke-grant", {
          body: { client_id: stranger.clientId, property_id: r.propertyId },
        })
      ).status,
    ).toBe(401);
    expect(env.OPS_TOKEN).toBeTruthy();
  });
});
