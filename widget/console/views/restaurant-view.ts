/**
 * The restaurant (`/console/restaurant`): services (hours, weekdays, online, pacing), rooms and
 * tables, closures, each service's payment policy, the embed snippet and booking links and the audit
 * (managers and owners); the Stripe account, the profile, connected apps and staff (owners); one's
 * own account (everyone).
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import type { ConsoleRole } from "../../../shared/console.js";
import { formatDate, weekdayName } from "../../format.js";
import type { ConsoleApi, Property, Room, Schema, Service, StaffMember, Table } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { propertyOf, servicesOf } from "../parts/reads.js";
import { atLeast } from "../parts/roles.js";
import "./account-section.js";
import "./audit-section.js";
import "./payments-section.js";
import { policyFields, policyOf, samePolicy } from "./payment-policy.js";
import "./staff-section.js";
import { ConsoleView } from "./view.js";

type Place = "service" | "room" | "table" | "closure" | "profile" | "apps";

interface Loaded {
  services: Service[];
  rooms: Room[];
  tables: Table[];
  closures: Schema<"Closure">[];
  property: Property;
  links: Schema<"BookingLink">[];
  apps: Schema<"ConnectedApp">[] | undefined;
  staff: StaffMember[];
}

/** Everything the view shows to this role, read side by side. */
async function load(a: ConsoleApi, role: ConsoleRole, signal: AbortSignal): Promise<Loaded> {
  const all = { params: { query: { limit: 100 } }, signal };
  const [manager, owner] = [atLeast(role, "manager"), atLeast(role, "owner")];
  const own = { params: { path: { property_id: a.propertyId } }, signal };
  const [services, rooms, tables, closures, property, links, apps, staff] = await Promise.all([
    servicesOf(a, signal),
    a.list(a.GET("/rooms", all)),
    a.list(a.GET("/tables", all)),
    a.list(a.GET("/closures", all)),
    propertyOf(a, signal),
    manager ? a.list(a.GET("/bookings/links", { signal })).catch(() => []) : [],
    owner ? a.list(a.GET("/properties/{property_id}/apps", own)).catch(() => undefined) : undefined,
    owner ? a.list(a.GET("/properties/{property_id}/staff", own)).catch(() => []) : [],
  ]);
  return { services, rooms, tables, closures, property, links, apps, staff };
}

const box = "width:auto;display:inline;min-height:0";

/** @csspart section - each section of the settings */
@localized()
export class RestaurantView extends ConsoleView {
  /** the last error, at the form that caused it */
  @state() private error: { place: Place; id?: number; err: unknown } | undefined;
  @state() private said: { place: Place; id?: number; text: string } | undefined;

  private data = new Task(this, {
    task: (_args, { signal }) => load(this.api, this.session.role, signal),
    args: () => [this.version] as const,
  });

  override render() {
    return html`<h1 tabindex="-1">${msg("Restaurant", { id: "console.nav.restaurant" })}</h1>
      ${this.data.render({
        pending: () =>
          this.data.value
            ? this.show(this.data.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (d) => this.show(d),
        error: (err) => actionError(err),
      })}`;
  }

  /** Each role's sections: what it may change, nothing it would be refused. */
  private show(d: Loaded) {
    const role = this.session.role;
    const manager = atLeast(role, "manager");
    const owner = atLeast(role, "owner");
    return html`${manager ? html`${this.services(d.services)} ${this.rooms(d.rooms, d.tables)} ${this.closures(d.closures)}` : nothing}
      ${owner ? html`<bc-payments-section .api=${this.api} .version=${this.version}></bc-payments-section>` : nothing}
      ${owner ? this.profile(d.property) : nothing} ${manager ? this.embed(d) : nothing} ${owner ? this.apps(d.apps) : nothing}
      ${owner ? html`<bc-staff-section .api=${this.api} .version=${this.version}></bc-staff-section>` : nothing}
      ${manager ? html`<bc-audit-section .api=${this.api} .staff=${d.staff} .version=${this.version}></bc-audit-section>` : nothing}
      ${this.session.staff ? html`<bc-account-section .api=${this.api} .session=${this.session}></bc-account-section>` : nothing}`;
  }

  private errorAt(place: Place, id?: number) {
    return this.error?.place === place && this.error.id === id ? this.error.err : undefined;
  }

  private feedback(place: Place, id?: number) {
    const err = this.errorAt(place, id);
    const said = this.said?.place === place && this.said.id === id ? this.said.text : "";
    return html`<div aria-live="polite">${said ? html`<p class="message success" role="status">${said}</p>` : nothing}</div>
      ${err && !(err as { errors?: unknown[] }).errors?.length ? actionError(err) : nothing}`;
  }

  private async attempt(place: Place, id: number | undefined, work: () => Promise<unknown>) {
    this.error = undefined;
    this.said = undefined;
    try {
      await work();
      this.said = { place, id, text: msg("Saved.", { id: "console.saved" }) };
      this.data.run();
    } catch (err) {
      this.error = { place, id, err };
    }
  }

  private services(services: Service[]) {
    return html`<section part="section" aria-labelledby="services-title">
      <h2 id="services-title">${msg("Services", { id: "console.rest.services" })}</h2>
      <div class="grid">${services.map((s) => this.service(s))}</div>
    </section>`;
  }

  private service(s: Service) {
    const err = this.errorAt("service", s.id);
    const f = (name: string) => `s${s.id}-${name}`;
    return html`<form aria-labelledby=${f("title")} @submit=${(e: SubmitEvent) => this.saveService(e, s)} novalidate>
      <h3 id=${f("title")}>${s.name}</h3>
      <label>${msg("First start", { id: "console.rest.start" })}<input name="start_hour" type="time" .value=${s.start_hour.slice(0, 5)} aria-invalid=${invalid(err, "start_hour")} aria-describedby=${f("e-start")} /></label>
      ${fieldError(err, "start_hour", f("e-start"))}
      <label>${msg("Last start", { id: "console.rest.end" })}<input name="end_hour" type="time" .value=${s.end_hour.slice(0, 5)} aria-invalid=${invalid(err, "end_hour")} aria-describedby=${f("e-end")} /></label>
      ${fieldError(err, "end_hour", f("e-end"))}
      <fieldset>
        <legend>${msg("Weekdays", { id: "console.rest.weekdays" })}</legend>
        ${[1, 2, 3, 4, 5, 6, 7].map((d) => html`<label style="font-weight:400;margin-inline-end:0.5rem"><input type="checkbox" name="weekday" value=${d} style=${box} ?checked=${s.weekdays.includes(d)} /> ${weekdayName(d, this.locale, "short")}</label>`)}
      </fieldset>
      ${fieldError(err, "weekdays", f("e-days"))}
      <label style="font-weight:400"><input type="checkbox" name="online" style=${box} ?checked=${s.online} /> ${msg("Bookable online", { id: "console.rest.online" })}</label>
      <label>${msg("Most covers arriving per interval", { id: "console.rest.covers" })}<input name="max_covers_per_interval" type="number" min="1" .value=${s.max_covers_per_interval == null ? "" : String(s.max_covers_per_interval)} aria-invalid=${invalid(err, "max_covers_per_interval")} aria-describedby=${f("e-covers")} /></label>
      ${fieldError(err, "max_covers_per_interval", f("e-covers"))}
      <label>${msg("Pacing interval (minutes)", { id: "console.rest.interval" })}<input name="pacing_interval" type="number" min="5" .value=${String(s.pacing_interval)} /></label>
      ${policyFields(s, err, f)}
      <div class="actions"><button class="btn small" type="submit">${msg(str`Save ${s.name}`, { id: "console.rest.service.save" })}</button></div>
      ${this.feedback("service", s.id)}
    </form>`;
  }

  private saveService(e: SubmitEvent, s: Service) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const covers = String(data.get("max_covers_per_interval") ?? "");
    const body: Schema<"ServiceUpdate"> = {
      start_hour: `${data.get("start_hour")}:00`,
      end_hour: `${data.get("end_hour")}:00`,
      weekdays: data.getAll("weekday").map(Number),
      online: data.get("online") === "on",
      max_covers_per_interval: covers ? Number(covers) : null,
      pacing_interval: Number(data.get("pacing_interval")) || s.pacing_interval,
    };
    // the policy only when changed: saving hours never meets a refusal of the policy as it stands
    const payment = policyOf(data);
    if (!samePolicy(payment, s.payment)) body.payment = payment;
    const api = this.api;
    return this.attempt("service", s.id, () =>
      api.done(api.PUT("/services/{id}", { params: { path: { id: s.id } }, body })),
    );
  }

  private rooms(rooms: Room[], tables: Table[]) {
    const err = this.errorAt("table");
    return html`<section part="section" aria-labelledby="rooms-title">
      <h2 id="rooms-title">${msg("Rooms and tables", { id: "console.rest.rooms" })}</h2>
      ${rooms.map(
        (r) =>
          html`<h3>${r.name}</h3><p>${
            tables
              .filter((t) => t.room_id === r.id)
              .map((t) => `${t.name} (${t.guests_min}–${t.guests_max})`)
              .join(", ") || "—"
          }</p>`,
      )}
      <form class="toolbar" aria-label=${msg("Add a table", { id: "console.rest.table.add" })} @submit=${this.addTable} novalidate>
        <label>${msg("Room", { id: "console.rest.room" })}<select name="room_id">${rooms.map((r) => html`<option value=${r.id}>${r.name}</option>`)}</select></label>
        <label>${msg("Table name", { id: "console.rest.table.name" })}<input name="name" aria-invalid=${invalid(err, "name")} aria-describedby="e-tname" /></label>
        <label>${msg("Fewest guests", { id: "console.rest.table.min" })}<input name="guests_min" type="number" min="1" value="1" /></label>
        <label>${msg("Most guests", { id: "console.rest.table.max" })}<input name="guests_max" type="number" min="1" value="4" aria-invalid=${invalid(err, "guests_max")} aria-describedby="e-tmax" /></label>
        <button class="btn small" type="submit">${msg("Add a table", { id: "console.rest.table.add" })}</button>
      </form>
      ${fieldError(err, "name", "e-tname")} ${fieldError(err, "guests_max", "e-tmax")} ${this.feedback("table")}
    </section>`;
  }

  private addTable = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const input = {
      name: String(data.get("name") ?? "").trim(),
      room_id: Number(data.get("room_id")),
      guests_min: Number(data.get("guests_min")),
      guests_max: Number(data.get("guests_max")),
    };
    return this.attempt("table", undefined, () => this.api.done(this.api.POST("/tables", { body: input })));
  };

  private closures(closures: Schema<"Closure">[]) {
    const err = this.errorAt("closure");
    return html`<section part="section" aria-labelledby="closures-title">
      <h2 id="closures-title">${msg("Closures", { id: "console.rest.closures" })}</h2>
      <ul>
        ${closures.map(
          (
            c,
          ) => html`<li>${formatDate(c.start_date, this.locale, "long")}${c.end_date !== c.start_date ? ` – ${formatDate(c.end_date, this.locale, "long")}` : ""}${c.reason ? ` · ${c.reason}` : ""}
          <button class="btn secondary small" type="button" @click=${() => this.attempt("closure", undefined, () => this.api.done(this.api.DELETE("/closures/{id}", { params: { path: { id: c.id } } })))}>${msg("Reopen", { id: "console.rest.closure.delete" })}</button></li>`,
        )}
      </ul>
      <form class="toolbar" aria-label=${msg("Close the restaurant", { id: "console.rest.closure.add" })} @submit=${this.addClosure} novalidate>
        <label>${msg("From", { id: "console.rest.from" })}<input name="start_date" type="date" aria-invalid=${invalid(err, "start_date")} aria-describedby="e-cfrom" /></label>
        <label>${msg("To", { id: "console.rest.to" })}<input name="end_date" type="date" aria-invalid=${invalid(err, "end_date")} aria-describedby="e-cto" /></label>
        <label>${msg("Reason", { id: "console.rest.reason" })}<input name="reason" /></label>
        <button class="btn small" type="submit">${msg("Close the restaurant", { id: "console.rest.closure.add" })}</button>
      </form>
      ${fieldError(err, "start_date", "e-cfrom")} ${fieldError(err, "end_date", "e-cto")} ${this.feedback("closure")}
    </section>`;
  }

  private addClosure = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const text = (n: string) => String(data.get(n) ?? "").trim() || undefined;
    return this.attempt("closure", undefined, () =>
      this.api.done(
        this.api.POST("/closures", {
          body: { start_date: text("start_date") ?? "", end_date: text("end_date"), reason: text("reason") },
        }),
      ),
    );
  };

  private profile(p: Property) {
    const err = this.errorAt("profile");
    const field = (name: "name" | "phone" | "email" | "website", label: string, type = "text") =>
      html`<label>${label}<input name=${name} type=${type} .value=${p[name] ?? ""} aria-invalid=${invalid(err, name)} aria-describedby="e-p-${name}" /></label>${fieldError(err, name, `e-p-${name}`)}`;
    return html`<section part="section" aria-labelledby="profile-title">
      <h2 id="profile-title">${msg("Profile", { id: "console.guest.profile" })}</h2>
      <form class="grid" @submit=${this.saveProfile} novalidate>
        ${field("name", msg("Name", { id: "console.col.name" }))} ${field("phone", msg("Phone", { id: "console.new.phone" }), "tel")}
        ${field("email", msg("Email", { id: "console.new.email" }), "email")} ${field("website", msg("Website", { id: "console.rest.website" }), "url")}
        <label>${msg("Address", { id: "console.rest.address" })}<input name="address" .value=${String(p.position?.address ?? "")} /></label>
        <label>${msg("Welcome message", { id: "console.rest.welcome" })}<textarea name="welcome_message" .value=${p.settings.welcome_message ?? ""}></textarea></label>
        <label>${msg("Accent colour", { id: "console.rest.accent" })}<input name="accent_color" type="color" .value=${p.settings.accent_color ?? "#1d5c8a"} /></label>
        <div class="actions"><button class="btn" type="submit">${msg("Save the profile", { id: "console.rest.profile.save" })}</button></div>
      </form>
      ${this.feedback("profile")}
    </section>`;
  }

  private saveProfile = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const text = (n: string) => String(data.get(n) ?? "").trim() || null;
    const p = this.data.value!.property;
    const body: Schema<"PropertyUpdate"> = {
      name: text("name") ?? p.name,
      phone: text("phone"),
      email: text("email"),
      website: text("website"),
      position: { ...p.position, address: text("address") ?? undefined },
      settings: { welcome_message: text("welcome_message"), accent_color: text("accent_color") },
    };
    const api = this.api;
    return this.attempt("profile", undefined, () =>
      api.done(api.PUT("/properties/{id}", { params: { path: { id: p.id } }, body })),
    );
  };

  private embed(d: Loaded) {
    const origin = location.origin;
    const snippet = `<script type="module" src="${origin}/widget/booking-engine.js"></script>\n<booking-engine property="${d.property.public_key}"></booking-engine>`;
    return html`<section part="section" aria-labelledby="embed-title">
      <h2 id="embed-title">${msg("Your booking widget and links", { id: "console.rest.embed" })}</h2>
      <label>${msg("Paste this into your website", { id: "console.rest.snippet" })}<textarea readonly rows="3" .value=${snippet}></textarea></label>
      <ul>${d.links.map((l) => html`<li><a href=${l.link} target="_blank" rel="noopener">${l.link}</a></li>`)}</ul>
    </section>`;
  }

  private apps(apps: Loaded["apps"]) {
    return html`<section part="section" aria-labelledby="apps-title">
      <h2 id="apps-title">${msg("Connected apps", { id: "console.rest.apps" })}</h2>
      ${
        apps === undefined
          ? html`<p class="muted">${msg("The connected apps cannot be read right now.", { id: "console.rest.apps.none" })}</p>`
          : apps.length
            ? html`<ul>${apps.map((a) => html`<li>${a.name} <button class="btn secondary small" type="button" @click=${() => this.revoke(a.client_id)}>${msg(str`Disconnect ${a.name}`, { id: "console.rest.apps.revoke" })}</button></li>`)}</ul>`
            : html`<p class="muted">${msg("No app is connected.", { id: "console.rest.apps.empty" })}</p>`
      }
      ${this.feedback("apps")}
    </section>`;
  }

  private revoke(clientId: string) {
    const api = this.api;
    const path = { property_id: api.propertyId, client_id: clientId };
    return this.attempt("apps", undefined, () =>
      api.done(api.DELETE("/properties/{property_id}/apps/{client_id}", { params: { path } })),
    );
  }
}
