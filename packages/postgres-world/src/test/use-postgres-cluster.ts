import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "./postgres-cluster.js";

/** What `usePostgresCluster` hands a test file once its `beforeAll` ran. */
export type TestPostgres = {
  readonly cluster: PostgresCluster;
  /** A small pool for the test's own queries (audits, tampering); survives cluster restarts. */
  readonly admin: pg.Pool;
};

/**
 * Starts a throwaway cluster before the file's tests and stops it (deleting its folder) after
 * them. Read `cluster` and `admin` inside tests or hooks, not at import time.
 */
export function usePostgresCluster(): TestPostgres {
  let cluster: PostgresCluster | undefined;
  let admin: pg.Pool | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    admin = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
    admin.on("error", () => undefined); // idle connections are cut when the cluster restarts
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await cluster?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("usePostgresCluster: the cluster is started in beforeAll; read it inside a test or hook");
    return value;
  };
  return {
    get cluster() {
      return started(cluster);
    },
    get admin() {
      return started(admin);
    },
  };
}
