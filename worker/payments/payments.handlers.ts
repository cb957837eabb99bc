/** The payments API's handlers: the restaurant's Stripe account, refunds and no-show fees. */
import type { Context } from "hono";
import { recordChange } from "../audit/audit";
import { config } from "../config";
import type { AppEnv } from "../env";
import { authoriseProperty } from "../properties/authorise";
import { present } from "../reservations/reservations.dto";
import { bookingContext } from "../reservations/reservations.handlers";
import { accountDto, connect } from "./accounts";
import { chargeNoShow, refund } from "./money";

type Ctx = Context<AppEnv>;

export async function connectAccount(
  c: Ctx,
  propertyId: number,
  body: { return_url?: string; refresh_url?: string },
) {
  const property = await authoriseProperty(c, propertyId);
  const back = body.return_url ?? `${config(c.env).publicOrigin}/console/restaurant`;
  const link = await connect(
    { control: c.get("control"), db: c.get("db"), stripe: config(c.env).stripe, property },
    { return_url: back, refresh_url: body.refresh_url ?? back },
  );
  await recordChange(c, {
    action: "connected",
    subject: "property",
    subjectId: propertyId,
    fields: ["payment_account"],
  });
  return c.json({ data: [link] }, 200);
}

export async function getAccount(c: Ctx, propertyId: number) {
  const property = await authoriseProperty(c, propertyId);
  return c.json({ data: [accountDto(property)] }, 200);
}

export async function refundPayment(c: Ctx, id: number, amount: number | undefined) {
  const row = await refund(bookingContext(c), config(c.env).stripe, id, amount);
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}

export async function noShowFee(c: Ctx, id: number) {
  const row = await chargeNoShow(bookingContext(c), config(c.env).stripe, id);
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}
