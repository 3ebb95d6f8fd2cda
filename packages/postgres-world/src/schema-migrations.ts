import type pg from "pg";
import { PostgresSchemaError } from "./postgres-errors.js";

/**
 * Versioned migrations, applied in order and never edited once released (add a new version
 * instead). Each runs in the migrating transaction, so a database is at version n or n+1,
 * never in between.
 */
const migrations: readonly { readonly version: number; readonly name: string; readonly sql: (schema: string) => string }[] = [
  {
    version: 1,
    name: "events, runs with leases and the run queue, artifacts, outer-loop manifests",
    sql: (s) => `
CREATE TABLE ${s}.world_meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO ${s}.world_meta (key, value) VALUES ('world_id', md5(random()::text || clock_timestamp()::text));

-- One row per run: the head of its log (kept in the appending statement), its lease, its queue state.
-- Updated by every append: no index covers the columns an append changes and pages keep room, so
-- those updates stay HOT (no index writes).
CREATE TABLE ${s}.runs (
  run_id text PRIMARY KEY,
  last_sequence integer NOT NULL DEFAULT 0 CHECK (last_sequence >= 0),
  first_event_type text,
  first_recorded_at text,
  last_event_type text,
  last_recorded_at text,
  fence bigint NOT NULL DEFAULT 0,
  lease_token text,
  holder text,
  lease_owner text,
  lease_expires_at timestamptz,
  submission text,
  tools text[],
  models text[],
  queue_state text CHECK (queue_state IN ('queued', 'running', 'finished')),
  outcome text CHECK (outcome IN ('completed', 'failed')),
  failure text,
  submitted_at timestamptz,
  claims integer NOT NULL DEFAULT 0
) WITH (fillfactor = 70);
CREATE INDEX runs_runnable ON ${s}.runs (submitted_at, run_id) WHERE queue_state IN ('queued', 'running');

-- Payloads are the canonical JSON text itself (text, not jsonb, which would re-normalize it).
CREATE TABLE ${s}.events (
  run_id text NOT NULL,
  sequence integer NOT NULL CHECK (sequence >= 1),
  event_id text NOT NULL,
  type text NOT NULL,
  recorded_at text NOT NULL,
  payload text NOT NULL,
  -- The fence the appender held (NULL for an unfenced append): an audit of who wrote what.
  fence bigint,
  PRIMARY KEY (run_id, sequence)
);

CREATE TABLE ${s}.artifacts (
  id text PRIMARY KEY,
  run_id text NOT NULL,
  step_path text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  encoding text NOT NULL,
  sha256 text NOT NULL,
  size bigint NOT NULL,
  bytes bytea NOT NULL
);

CREATE TABLE ${s}.outer_loops (id text PRIMARY KEY, manifest text NOT NULL);
`,
  },
];

export const latestSchemaVersion = migrations[migrations.length - 1]!.version;

/**
 * Brings the schema to the latest version. Safe from any number of workers at once: every
 * migrator first takes one transaction-scoped advisory lock (keyed by the schema name), so they
 * run one after the other and all but the first find nothing left to do. A schema already at a
 * newer version than this package knows is refused rather than used.
 */
export async function migrateSchema(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  let failed: unknown;
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`little-stack/postgres-world:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    );
    const applied = await client.query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    const versions = new Set(applied.rows.map((row) => row.version));
    const newest = Math.max(0, ...versions);
    if (newest > latestSchemaVersion) {
      throw new PostgresSchemaError(
        schema,
        `is at version ${newest}, newer than this @little-stack/postgres-world knows (${latestSchemaVersion}); upgrade the package on this worker`,
      );
    }
    for (const migration of migrations) {
      if (versions.has(migration.version)) continue;
      await client.query(migration.sql(schema));
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    await client.query("COMMIT");
  } catch (error) {
    failed = error;
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release(failed instanceof Error && !(failed instanceof PostgresSchemaError) ? failed : undefined);
  }
}
