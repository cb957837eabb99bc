/**
 * Where the restaurant's clock is: times are labelled "Time in Milano", with the city of the
 * restaurant's address, else the city of its zone, never the raw zone. A zone's city is named
 * in the page's language where that language has a name of its own for it (Roma, Wien, Londres).
 */
import { msg } from "@lit/localize";
import type { PublicProfile } from "../api.js";
import { zoneCity } from "../format.js";

type Place = Pick<PublicProfile, "address" | "timezone">;

export function placeOf(p: Place): string {
  return p.address?.city?.trim() || zoneName(p.timezone);
}

/** The zones whose city has other names in the widget's languages; the rest read as their id spells them. */
function zoneName(timezone: string): string {
  const city = zoneCity(timezone);
  switch (city) {
    case "Rome":
      return msg("Rome", { id: "city.rome" });
    case "Paris":
      return msg("Paris", { id: "city.paris" });
    case "Berlin":
      return msg("Berlin", { id: "city.berlin" });
    case "Vienna":
      return msg("Vienna", { id: "city.vienna" });
    case "Zurich":
      return msg("Zurich", { id: "city.zurich" });
    case "Brussels":
      return msg("Brussels", { id: "city.brussels" });
    case "London":
      return msg("London", { id: "city.london" });
    case "Lisbon":
      return msg("Lisbon", { id: "city.lisbon" });
  }
  return city;
}

/** The country of an address by its name in the page's language ("IT" -> "Italia"); anything else as written. */
export function countryName(country: string, locale: string): string {
  if (!/^[a-z]{2}$/i.test(country)) return country;
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(country.toUpperCase()) ?? country;
  } catch {
    return country;
  }
}
