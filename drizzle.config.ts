// `npm run db:generate` writes the migrations of both kinds of database from their schemas.
// DB_KIND=control or shard picks one (drizzle-kit takes one schema per run).
import { defineConfig } from "drizzle-kit";

const kind = process.env.DB_KIND === "control" ? "control" : "shard";

export default defineConfig({
  dialect: "sqlite",
  schema: `./worker/db/${kind}.schema.ts`,
  out: `./migrations/${kind}`,
});
