// `npm run db:migrate`: bring the SQLite file of DATABASE_PATH to the latest schema.
import "dotenv/config";
import path from "node:path";
import { migrateFile } from "../migrations/migrator.js";

const databasePath = path.resolve(process.env.DATABASE_PATH || "data/portal.sqlite");
const applied = await migrateFile(databasePath);
console.log(applied.length ? `Applied ${applied.join(", ")} to ${databasePath}` : `${databasePath} is up to date`);
