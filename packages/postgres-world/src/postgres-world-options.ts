import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { InvalidWorldOptionsError, resolveDataDir, resolveMaxConcurrentSteps } from "@little-stack/local-world";

export type PostgresWorldOptions = {
  /** `postgres://user:password@host:port/database` (anything `pg` accepts). */
  readonly connectionString: string;
  /**
   * The schema holding the world's tables (created and migrated by the world). Default
   * `little_workflow`. Several worlds can share a database under different schemas.
   */
  readonly schema?: string;
  /**
   * Root of the file-based stores (memory, run scratch, skills cache). With workers on several
   * machines it must be one shared folder (the same network mount on every machine): a run taken
   * over by another worker finds its scratch there. Default `.little-workflow`.
   */
  readonly dataDir?: string;
  /** Cap on in-flight step attempts across all parallel groups of a run. Default 8. */
  readonly maxConcurrentSteps?: number;
  /** How long a lease lasts without renewal, by the database's clock. Default 30 000 ms. */
  readonly leaseMs?: number;
  /** How often held leases are renewed. Default a third of `leaseMs`. */
  readonly renewEveryMs?: number;
  /** Names this world's leases (`holder` of its locks). Default `<hostname>:<pid>:<random>`. */
  readonly holder?: string;
  /** Connections in the pool. Default 10. */
  readonly maxConnections?: number;
  /**
   * A query that gets no answer within this time is abandoned and its connection dropped (a
   * stalled network); an append is then resolved by reading back. Default 15 000 ms.
   */
  readonly queryTimeoutMs?: number;
  /**
   * How long an append or a read keeps retrying while the database is unreachable (restarting,
   * a dropped connection) before it fails with `world.event_log_unavailable`. Default 30 000 ms.
   */
  readonly reconnectWithinMs?: number;
};

export type ResolvedPostgresWorldOptions = {
  readonly connectionString: string;
  readonly schema: string;
  readonly dataDir: string;
  readonly maxConcurrentSteps: number;
  readonly leaseMs: number;
  readonly renewEveryMs: number;
  readonly holder: string;
  readonly maxConnections: number;
  readonly queryTimeoutMs: number;
  readonly reconnectWithinMs: number;
};

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;
const holderPattern = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/;

export function resolvePostgresWorldOptions(options: PostgresWorldOptions): ResolvedPostgresWorldOptions {
  if (typeof options !== "object" || options === null) {
    throw new InvalidWorldOptionsError("connectionString", "is required: postgresWorld({ connectionString: \"postgres://…\" })");
  }
  const { connectionString } = options;
  if (typeof connectionString !== "string" || !/^postgres(ql)?:\/\//.test(connectionString)) {
    throw new InvalidWorldOptionsError("connectionString", "must be a postgres:// or postgresql:// URL");
  }
  const schema = options.schema ?? "little_workflow";
  if (typeof schema !== "string" || !schemaPattern.test(schema)) {
    throw new InvalidWorldOptionsError("schema", "must be 1..63 characters of a-z 0-9 _ starting with a letter or _");
  }
  const leaseMs = positiveInteger("leaseMs", options.leaseMs, 30_000, 100);
  const renewEveryMs = positiveInteger("renewEveryMs", options.renewEveryMs, Math.max(1, Math.floor(leaseMs / 3)), 1);
  if (renewEveryMs >= leaseMs) {
    throw new InvalidWorldOptionsError("renewEveryMs", `must be shorter than leaseMs (${leaseMs}), got ${renewEveryMs}`);
  }
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  if (typeof holder !== "string" || !holderPattern.test(holder)) {
    throw new InvalidWorldOptionsError("holder", "must be 1..200 characters of A-Z a-z 0-9 . _ : @ - starting with a letter or digit");
  }
  return {
    connectionString,
    schema,
    dataDir: resolveDataDir(options.dataDir),
    maxConcurrentSteps: resolveMaxConcurrentSteps(options.maxConcurrentSteps),
    leaseMs,
    renewEveryMs,
    holder,
    maxConnections: positiveInteger("maxConnections", options.maxConnections, 10, 1),
    queryTimeoutMs: positiveInteger("queryTimeoutMs", options.queryTimeoutMs, 15_000, 1),
    reconnectWithinMs: positiveInteger("reconnectWithinMs", options.reconnectWithinMs, 30_000, 0),
  };
}

function positiveInteger(option: string, value: unknown, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidWorldOptionsError(option, `must be an integer ≥ ${minimum}, got ${String(value)}`);
  }
  return value;
}

/** The connection string without its password, for messages. */
export function describeConnection(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    url.password = "";
    return url.toString().replace(/:@/, "@");
  } catch {
    return "postgres://…";
  }
}
