import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { issuerOf } from "./issuer";
import { OAUTH_PATH } from "./signin";

/** The authorization server's endpoints and what they support, all on PUBLIC_ORIGIN like the issuer. */
export function serverMetadata(c: Context<AppEnv>) {
  const origin = config(c.env).publicOrigin;
  const auth = ["client_secret_basic", "client_secret_post"];
  return {
    issuer: issuerOf(c),
    authorization_endpoint: `${origin}${OAUTH_PATH}/authorize`,
    token_endpoint: `${origin}${OAUTH_PATH}/token`,
    revocation_endpoint: `${origin}${OAUTH_PATH}/revoke`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: auth,
    revocation_endpoint_auth_methods_supported: auth,
    authorization_response_iss_parameter_supported: true,
    ui_locales_supported: ["en", "it", "fr", "de", "es"],
  };
}
