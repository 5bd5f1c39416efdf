// `npm run db:migrate`: bring the database to the latest schema: PostgreSQL at DATABASE_URL when it is
// set, else the SQLite file of DATABASE_PATH.
import "dotenv/config";
import path from "node:path";
import { migrateFile, migrateUrl } from "../migrations/migrator.js";

const databaseUrl = process.env.DATABASE_URL || undefined;
const target = databaseUrl
  ? new URL(databaseUrl).pathname.slice(1)
  : path.resolve(process.env.DATABASE_PATH || "data/portal.sqlite");
const applied = databaseUrl ? await migrateUrl(databaseUrl) : await migrateFile(target);
console.log(applied.length ? `Applied ${applied.join(", ")} to ${target}` : `${target} is up to date`);
