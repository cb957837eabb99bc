import type { Context } from "hono";
import { recordChange } from "../audit/audit";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { setSwitch } from "./searchengine.repo";

/** The property of the Property header joins or leaves the search engine's merchants. */
export async function applySwitch(c: Context<AppEnv>, body: { enable_searchengine: boolean }) {
  // The search engine's feeds and bookings are real guests': a sandbox property stays out of them.
  if (body.enable_searchengine && c.get("property").sandbox) {
    throw new ApiError(
      "validation_error",
      "a sandbox property cannot join the search engine: its feeds and bookings are real guests'. Create a production property (POST /properties) and turn it on there",
      {
        errors: [
          { path: "enable_searchengine", message: "a sandbox property cannot turn the search engine on" },
        ],
      },
    );
  }
  await setSwitch(c.get("db"), c.get("property").id, body.enable_searchengine);
  await recordChange(c, {
    action: "updated",
    subject: "property",
    subjectId: c.get("property").id,
    fields: ["enable_searchengine"],
  });
  return { status: "ACCEPTED" as const };
}
