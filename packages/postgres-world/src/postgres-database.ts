import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { isConnectionFailure, unavailable } from "./postgres-errors.js";
import type { ResolvedPostgresWorldOptions } from "./postgres-world-options.js";

/**
 * The pool, and the one rule for talking to a database that may restart or stall under us: a
 * statement that failed because of the connection is retried (after `resolve`, when the caller
 * must first find out whether an ambiguous write committed) until `reconnectWithinMs` passed.
 */
export type PostgresDatabase = {
  readonly pool: pg.Pool;
  /** The connection string without its password (for messages). */
  readonly target: string;
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: readonly unknown[]): Promise<pg.QueryResult<Row>>;
  /**
   * The same through a named prepared statement: parsed and planned once per connection, for the
   * statements on the hot path (the append). `name` must be unique for `sql`.
   */
  prepared<Row extends pg.QueryResultRow = pg.QueryResultRow>(name: string, sql: string, values: readonly unknown[]): Promise<pg.QueryResult<Row>>;
  /**
   * Runs `attempt` until it settles without a connection failure. `attempt(ambiguous)` is told
   * whether an earlier attempt failed on the connection after it may have been executed.
   */
  retrying<T>(operation: string, attempt: (ambiguous: boolean) => Promise<T>): Promise<T>;
  end(): Promise<void>;
};

export function openPostgresDatabase(options: ResolvedPostgresWorldOptions, target: string): PostgresDatabase {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections,
    query_timeout: options.queryTimeoutMs,
    connectionTimeoutMillis: Math.min(options.queryTimeoutMs, 10_000),
    idleTimeoutMillis: 30_000,
    application_name: `little-workflow ${options.holder}`.slice(0, 63),
  });
  // An idle connection dropped by a database restart must not crash the process: the next
  // query gets a fresh connection.
  pool.on("error", () => undefined);

  return {
    pool,
    target,
    query: (sql, values) => pool.query(sql, values as unknown[] | undefined),
    prepared: (name, sql, values) => pool.query({ name, text: sql, values: values as unknown[] }),
    async retrying(operation, attempt) {
      const deadline = Date.now() + options.reconnectWithinMs;
      let ambiguous = false;
      for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
        try {
          return await attempt(ambiguous);
        } catch (error) {
          if (!isConnectionFailure(error)) throw error;
          if (Date.now() >= deadline) throw unavailable(target, operation, error);
          ambiguous = true;
          await sleep(pause);
        }
      }
    },
    end: () => pool.end(),
  };
}
