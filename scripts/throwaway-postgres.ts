/**
 * A throwaway PostgreSQL cluster on loopback (scripts/pg-cluster.sh) and databases on it, for the tests
 * and the bench: each user of a cluster takes a port of its own, so runs never share one.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const CLUSTER_SCRIPT = path.resolve(import.meta.dirname, "pg-cluster.sh");

/** Starts a fresh cluster on `port` (an old one there is removed first) and returns its server URL. */
export function startCluster(port: string): string {
  return execFileSync(CLUSTER_SCRIPT, ["start", port], { encoding: "utf8" }).trim();
}

/** The cluster's postmaster on `port` (its data folder's postmaster.pid, as scripts/pg-cluster.sh places it). */
export function postmasterPid(port: string): number {
  const folder = process.env.PG_CLUSTER_DIR ?? `/tmp/ats-pg-cluster-${port}`;
  return Number(fs.readFileSync(path.join(folder, "data", "postmaster.pid"), "utf8").split("\n")[0]);
}

/** Stops the cluster on `port` and removes its folder. */
export function stopCluster(port: string) {
  execFileSync(CLUSTER_SCRIPT, ["stop", port]);
}

/** Stops the cluster on `port` with its data kept (`"down"`), or starts it again (`"up"`): an outage. */
export function switchCluster(port: string, state: "down" | "up") {
  execFileSync(CLUSTER_SCRIPT, [state, port]);
}

/** The server's URL with another database name. */
export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.href;
}

/** Makes an empty database on the server and returns its URL. */
export async function createDatabase(server: string, database: string): Promise<string> {
  await onServer(server, `create database ${database}`);
  return databaseUrl(server, database);
}

/** Drops the database, ending any connection still open to it. */
export async function dropDatabase(server: string, database: string) {
  await onServer(server, `drop database ${database} with (force)`);
}

async function onServer(server: string, statement: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
