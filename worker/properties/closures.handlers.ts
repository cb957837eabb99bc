/** What closures add to the catalog router: their times and the records they name, checked on every write. */
import type { CatalogResource } from "../lib/crud";
import type { ClosureFields, ClosureRow } from "./catalog.repo";
import * as repo from "./catalog.repo";
import { checkClosure } from "./catalog.rules";
import {
  type Closure,
  type ClosureCreateBody,
  type ClosureUpdateBody,
  closureFieldsOf,
  toClosureDto,
} from "./closures.schemas";

export const closures: CatalogResource<ClosureRow, ClosureCreateBody, ClosureUpdateBody, Closure> = {
  list: ({ db, property }, limit, afterId) => repo.listClosures(db, property.id, limit, afterId),
  get: ({ db, property }, id) => repo.getClosure(db, property.id, id),
  async create({ db, property }, body) {
    const fields: ClosureFields = {
      startHour: null,
      endHour: null,
      ...closureFieldsOf(body),
      startDate: body.start_date,
      endDate: body.end_date ?? body.start_date,
    };
    await checkClosure(db, property.id, fields);
    return repo.insertClosure(db, property.id, fields);
  },
  async update({ db, property }, current, body) {
    const fields = closureFieldsOf(body);
    await checkClosure(db, property.id, { ...current, ...fields });
    return repo.updateClosure(db, current.id, fields);
  },
  remove: ({ db }, closure) => repo.deleteClosure(db, closure.id),
  toDto: toClosureDto,
};
