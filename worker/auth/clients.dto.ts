import type { PropertyRow } from "../env";
import { toPropertyDto } from "../properties/properties.repo";
import type { ClientRow } from "./clients.repo";

/** A client just created, as the API shows it: its secret once, and the password as it was sent. */
export function toApiClientDto(
  client: ClientRow,
  clientSecret: string,
  password: string,
  property: PropertyRow,
) {
  return {
    id: client.id,
    client_id: client.clientId,
    client_secret: clientSecret,
    name: client.name,
    email: client.email,
    username: client.username,
    password,
    redirect_uri: client.redirectUri,
    production_enabled: client.productionEnabled,
    properties: [toPropertyDto(property)],
  };
}
