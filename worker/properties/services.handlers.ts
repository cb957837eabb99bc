/** What services add to the catalog router: defaults on creation and their party-size and date rules. */
import { resolveSettings } from "../../shared/schemas";
import type { CatalogResource } from "../lib/crud";
import type { ServiceRow } from "./catalog.repo";
import * as repo from "./catalog.repo";
import { checkService, inUse } from "./catalog.rules";
import { checkPaymentAccount } from "./payment.schemas";
import {
  type Service,
  type ServiceCreateBody,
  type ServiceUpdateBody,
  serviceFieldsOf,
  toServiceDto,
} from "./services.schemas";

function newService(body: ServiceCreateBody) {
  return {
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    paxMin: 1,
    paxMax: null,
    validFrom: null,
    validTo: null,
    ...serviceFieldsOf(body),
    name: body.name,
    startHour: body.start_hour,
    endHour: body.end_hour,
  };
}

export const services: CatalogResource<ServiceRow, ServiceCreateBody, ServiceUpdateBody, Service> = {
  list: ({ db, property }, limit, afterId) => repo.listServices(db, property.id, limit, afterId),
  get: ({ db, property }, id) => repo.getService(db, property.id, id),
  async create({ db, property }, body) {
    const fields = newService(body);
    checkService(fields);
    checkPaymentAccount(property, fields.payment);
    return repo.insertService(db, property.id, fields);
  },
  async update({ db, property }, current, body) {
    const fields = serviceFieldsOf(body);
    checkService({ ...current, ...fields });
    checkPaymentAccount(property, fields.payment);
    return repo.updateService(db, current.id, fields);
  },
  async remove({ db, property }, service) {
    const result = await repo.deleteService(
      db,
      property.id,
      service.id,
      resolveSettings(property.settings).timezone,
    );
    if (!result.deleted) throw inUse("service", service.id, result.usedBy);
  },
  toDto: toServiceDto,
};
