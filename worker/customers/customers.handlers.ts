/** /customers of the property of the request: list and search, find, update, merge and erase. */

import type { Context } from "hono";
import { resolveSettings } from "../../shared/schemas";
import { givenFields, recordChange, requestActor } from "../audit/audit";
import type { AppEnv, Db } from "../env";
import { ApiError, abortReason } from "../errors";
import { decodeCursor, idCursor, page } from "../lib/pagination";
import type { CustomerFields, CustomerRow } from "./customers.repo";
import * as repo from "./customers.repo";
import { checkEmailFree, emailTaken, mergedFields, mergeTarget, requireCustomer } from "./customers.rules";
import {
  type CustomerUpdateBody,
  customerFieldsOf,
  type ListQuestion,
  type MergeRequest,
  toCustomerDto,
} from "./customers.schemas";
import { eraseCustomer } from "./erasure";

type Ctx = Context<AppEnv>;

const actor = requestActor;

/** The customers with their counts, in the property's clock. */
async function present(c: Ctx, rows: CustomerRow[]) {
  const counts = await repo.customerCounts(
    c.get("db"),
    rows.map((r) => r.id),
  );
  const tz = resolveSettings(c.get("property").settings).timezone;
  return rows.map((r) => toCustomerDto(r, counts.get(r.id) ?? repo.NO_COUNTS, tz));
}

export async function listCustomers(c: Ctx, q: ListQuestion) {
  const rows = await repo.listCustomers(
    c.get("db"),
    c.get("property").id,
    q.limit,
    decodeCursor(q.next_cursor, idCursor)?.id,
    q.search,
  );
  const result = page(rows, q.limit, (r) => ({ id: r.id }));
  return { data: await present(c, result.data), next_cursor: result.next_cursor };
}

export async function getCustomer(c: Ctx, id: number) {
  return { data: await present(c, [await requireCustomer(c.get("db"), c.get("property").id, id)]) };
}

/** The write of an update; another customer may take the email between the check and the write. */
async function writeCustomer(db: Db, id: number, fields: CustomerFields) {
  try {
    return await repo.updateCustomer(db, id, fields);
  } catch (err) {
    if (abortReason(err, ["customers.property_id, customers.email"] as const)) throw emailTaken(undefined);
    throw err;
  }
}

export async function updateCustomer(c: Ctx, id: number, body: CustomerUpdateBody) {
  const db = c.get("db");
  const propertyId = c.get("property").id;
  const current = await requireCustomer(db, propertyId, id);
  const fields = customerFieldsOf(body);
  await checkEmailFree(db, propertyId, current.id, fields.email);
  const updated = await writeCustomer(db, current.id, fields);
  if (!updated) throw new ApiError("user_not_found", `customer ${current.id} was merged away a moment ago`);
  await recordChange(c, {
    action: "updated",
    subject: "customer",
    subjectId: current.id,
    fields: givenFields(body),
  });
  return { data: await present(c, [updated]) };
}

export async function mergeCustomer(c: Ctx, id: number, body: MergeRequest) {
  const db = c.get("db");
  const propertyId = c.get("property").id;
  const source = await requireCustomer(db, propertyId, id);
  const into = await mergeTarget(db, propertyId, source, body.into);
  const merged = await repo.mergeCustomers(db, source, into, mergedFields(source, into), actor(c));
  if (!merged)
    throw new ApiError(
      "user_not_found",
      `customer ${source.id} or ${into.id} was erased or merged away a moment ago`,
    );
  await recordChange(c, {
    action: "merged",
    subject: "customer",
    subjectId: into.id,
    fields: [`from:${source.id}`],
  });
  return { data: await present(c, [merged]) };
}

export async function eraseCustomerOf(c: Ctx, id: number) {
  const db = c.get("db");
  const customer = await requireCustomer(db, c.get("property").id, id);
  await eraseCustomer(c.env, db, customer, actor(c));
  await recordChange(c, { action: "erased", subject: "customer", subjectId: customer.id });
  return { data: [customer.id] };
}
