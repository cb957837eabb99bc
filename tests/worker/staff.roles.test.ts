/**
 * The console's roles: the table itself (worker/staff/roles.ts), and each role against each group
 * of the console's routes through the real Worker (403 role_required naming the role, or through
 * to the route). A platform's session acts as a manager, or a host when its link asked.
 */
import { describe, expect, it } from "vitest";
import { API_RULES, CONSOLE_RULES, missingRole, type Role, ruleFor } from "../../worker/staff/roles";
import { ConsoleBrowser } from "./console.helpers";
import { addMember, staffedRestaurant } from "./staff.helpers";

const ROLES: Role[] = ["host", "manager", "owner"];

describe("the roles table", () => {
  it.each([
    ["GET", "/reservations", "host"],
    ["POST", "/reservations", "host"],
    ["PATCH", "/reservations/5/checkin", "host"],
    ["DELETE", "/reservations/5", "host"],
    ["POST", "/reservations/5/payment/refund", "manager"],
    ["POST", "/reservations/searchengine", "manager"],
    ["GET", "/bookings/slots", "host"],
    ["GET", "/bookings/links", "manager"],
    ["PUT", "/customers/5", "manager"],
    ["POST", "/customers/5/merge", "manager"],
    ["GET", "/services/3", "host"],
    ["POST", "/services", "manager"],
    ["DELETE", "/tables/3", "manager"],
    ["GET", "/properties/1/audit", "manager"],
    ["GET", "/properties/1/staff", "owner"],
    ["DELETE", "/properties/1/apps/abc", "owner"],
    ["PUT", "/properties/1", "owner"],
    ["POST", "/properties/1/payments/account", "owner"],
    ["GET", "/a/route/nobody/placed", "owner"],
  ])("%s %s needs %s", (method, path, role) => {
    expect(ruleFor(API_RULES, method, path).role).toBe(role);
  });

  it.each([
    ["GET", "/session", "host"],
    ["POST", "/session/switch", "host"],
    ["POST", "/password", "host"],
    ["DELETE", "/passkeys/4", "host"],
    ["GET", "/live", "host"],
    ["GET", "/a/console/route/nobody/placed", "owner"],
  ])("the console's own %s %s needs %s", (method, path, role) => {
    expect(ruleFor(CONSOLE_RULES, method, path).role).toBe(role);
  });

  it("lets a host write a guest's notes only, and a member their own PIN only", () => {
    const host = { role: "host" as const, staffId: 7 };
    const notes = { method: "PUT", path: "/customers/5" };
    expect(missingRole(API_RULES, host, { ...notes, body: ["notes"] })).toBeUndefined();
    expect(missingRole(API_RULES, host, { ...notes, body: ["notes", "banned"] })).toBe("manager");
    const pin = { method: "PATCH", path: "/properties/1/staff/7", target: 7 };
    expect(missingRole(API_RULES, host, { ...pin, body: ["pin"] })).toBeUndefined();
    expect(missingRole(API_RULES, host, { ...pin, body: ["pin"], target: 8 })).toBe("owner");
    expect(missingRole(API_RULES, host, { ...pin, body: ["role"] })).toBe("owner");
    expect(missingRole(API_RULES, { role: "host", staffId: null }, { ...pin, body: ["pin"] })).toBe("owner");
  });
});

/** One request of each group of console routes, and the least role that passes it. */
function groups(p: {
  propertyId: number;
  serviceId: number;
  tableId: number;
  reservationId: number;
  customerId: number;
}) {
  const api = "/console/api/v2";
  return [
    { group: "the day", least: "host", method: "GET", path: `${api}/reservations` },
    { group: "a booking", least: "host", method: "POST", path: `${api}/reservations`, body: { x: 1 } },
    {
      group: "seating",
      least: "host",
      method: "PATCH",
      path: `${api}/reservations/${p.reservationId}/checkin`,
    },
    {
      group: "a guest's notes",
      least: "host",
      method: "PUT",
      path: `${api}/customers/${p.customerId}`,
      body: { notes: "window" },
    },
    {
      group: "a guest's ban",
      least: "manager",
      method: "PUT",
      path: `${api}/customers/${p.customerId}`,
      body: { banned: false },
    },
    { group: "the catalog read", least: "host", method: "GET", path: `${api}/tables` },
    {
      group: "the catalog",
      least: "manager",
      method: "PUT",
      path: `${api}/services/${p.serviceId}`,
      body: { name: "Dinner" },
    },
    { group: "booking links", least: "manager", method: "GET", path: `${api}/bookings/links` },
    { group: "the audit", least: "manager", method: "GET", path: `${api}/properties/${p.propertyId}/audit` },
    { group: "staff", least: "owner", method: "GET", path: `${api}/properties/${p.propertyId}/staff` },
    {
      group: "connected apps",
      least: "owner",
      method: "GET",
      path: `${api}/properties/${p.propertyId}/apps`,
    },
    {
      group: "the profile",
      least: "owner",
      method: "PUT",
      path: `${api}/properties/${p.propertyId}`,
      body: { phone: "+39 06 1" },
    },
  ] as const;
}

describe("each role against each group of console routes", () => {
  it("answers 403 role_required below the group's role and goes through at or above it", async () => {
    const r = await staffedRestaurant("Roles Matrix");
    const booked = await r.owner.call("/api/v2/reservations", {
      property: r.propertyId,
      body: {
        start_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", last_name: "Rossi", email: "ada.roles@example.com" },
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.json.data[0];
    const browsers: Record<Role, ConsoleBrowser> = {
      host: (await addMember(r, "host")).browser,
      manager: (await addMember(r, "manager")).browser,
      owner: r.ownerBrowser,
    };
    const ids = {
      propertyId: r.propertyId,
      serviceId: r.service.id,
      tableId: r.table.id,
      reservationId: reservation.id,
      customerId: reservation.customer.id,
    };
    const rank = (role: Role) => ROLES.indexOf(role);
    for (const g of groups(ids)) {
      for (const role of ROLES) {
        const res = await browsers[role].fetch(g.path, {
          method: g.method,
          ...("body" in g && { body: g.body }),
        });
        const refused = res.status === 403 && res.json?.code === "role_required";
        expect(refused, `${role} on ${g.group}: ${res.status} ${res.text.slice(0, 200)}`).toBe(
          rank(role) < rank(g.least as Role),
        );
        if (refused) expect(res.json.role).toBe(g.least);
      }
    }
  });

  it("gives a platform's session the manager role, or the host role when its link asked", async () => {
    const r = await staffedRestaurant("Roles Platform");
    const roleOf = async (body?: object) => {
      const link = await r.owner.call("/api/v2/console/links", {
        method: "POST",
        property: r.propertyId,
        body,
      });
      expect(link.status, link.text).toBe(201);
      const browser = new ConsoleBrowser();
      const followed = await browser.fetch(new URL(link.json.data[0].url).pathname);
      expect(followed.status).toBe(303);
      const session = await browser.fetch("/console/session");
      return { browser, session: session.json.data[0] };
    };
    const manager = await roleOf();
    expect(manager.session).toMatchObject({
      role: "manager",
      staff: null,
      actor: { kind: "app", name: "Restaurant's own POS" },
    });
    expect((await manager.browser.fetch(`/console/api/v2/properties/${r.propertyId}/audit`)).status).toBe(
      200,
    );
    const host = await roleOf({ role: "host" });
    expect(host.session.role).toBe("host");
    const audit = await host.browser.fetch(`/console/api/v2/properties/${r.propertyId}/audit`);
    expect(audit.status).toBe(403);
    expect(audit.json.role).toBe("manager");
  });
});
