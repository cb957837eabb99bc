/** The search engine's settings, parsed once per set of bindings (wrangler.toml vars and secrets). */
import { z } from "zod";
import type { Bindings } from "../env";

export const DEFAULT_NOTIFICATION_URL = "https://mapsbooking.googleapis.com";

/** The fields of a Google service-account key (the JSON file the Cloud console hands out) we use. */
const ServiceAccountKey = z.object({
  client_email: z.string().min(3).max(320),
  private_key: z.string().includes("PRIVATE KEY"),
  private_key_id: z.string().max(200).optional(),
  token_uri: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), "an http(s) URL"),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

export interface SearchengineConfig {
  /** the partner's Basic credentials; both set, or the booking server and feeds answer 401 to everyone */
  credentials: { user: string; password: string } | undefined;
  partnerId: string | undefined;
  notificationUrl: string;
  /** the key, or why there is none (the notification's attempt record says so) */
  serviceAccount: ServiceAccountKey | { problem: string };
}

const parsed = new WeakMap<Bindings, SearchengineConfig>();

function parseKey(raw: string | undefined): SearchengineConfig["serviceAccount"] {
  if (!raw)
    return {
      problem:
        "SEARCHENGINE_SERVICE_ACCOUNT is not set: no service-account key to call the notification API with",
    };
  try {
    const key = ServiceAccountKey.safeParse(JSON.parse(raw));
    if (key.success) return key.data;
    return {
      problem: `SEARCHENGINE_SERVICE_ACCOUNT lacks ${key.error.issues.map((i) => i.path.join(".")).join(", ")}`,
    };
  } catch {
    return { problem: "SEARCHENGINE_SERVICE_ACCOUNT is not JSON" };
  }
}

export function searchengineConfig(env: Bindings): SearchengineConfig {
  let config = parsed.get(env);
  if (!config) {
    const { SEARCHENGINE_USER: user, SEARCHENGINE_PASSWORD: password } = env;
    config = {
      credentials: user && password ? { user, password } : undefined,
      partnerId: env.SEARCHENGINE_PARTNER_ID || undefined,
      notificationUrl: (env.SEARCHENGINE_NOTIFICATION_URL || DEFAULT_NOTIFICATION_URL).replace(/\/+$/, ""),
      serviceAccount: parseKey(env.SEARCHENGINE_SERVICE_ACCOUNT),
    };
    parsed.set(env, config);
  }
  return config;
}
