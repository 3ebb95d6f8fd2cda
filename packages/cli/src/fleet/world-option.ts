import type { PostgresWorld } from "@little-stack/postgres-world";
import { Option } from "clipanion";
import { CliUsageError } from "../cli-errors.js";

/** `--world postgres://…`: the shared world of a fleet of workers. */
export function worldOption(): string | undefined {
  return Option.String("--world", { description: "PostgreSQL connection string of the shared world (postgres://user@host:port/db)" });
}

export function schemaOption(): string | undefined {
  return Option.String("--schema", { description: "Schema of the world's tables (default little_workflow)" });
}

/**
 * Opens the PostgreSQL world a fleet command names; a missing or malformed --world is a usage
 * error. The driver is loaded here, not at startup, so commands that never touch PostgreSQL start
 * as fast as before.
 */
export async function openFleetWorld(options: {
  readonly command: string;
  readonly world: string | undefined;
  readonly schema: string | undefined;
  readonly dataDir?: string;
  readonly leaseMs?: number;
}): Promise<PostgresWorld> {
  if (options.world === undefined || options.world === "") {
    throw new CliUsageError(`little ${options.command} needs --world postgres://user@host:port/database (the PostgreSQL world the workers share)`);
  }
  if (!/^postgres(ql)?:\/\//.test(options.world)) {
    throw new CliUsageError(`--world must be a postgres:// URL, got ${JSON.stringify(options.world.slice(0, 40))} — e.g. --world postgres://postgres@127.0.0.1:5432/postgres`);
  }
  const { postgresWorld } = await import("@little-stack/postgres-world");
  return postgresWorld({
    connectionString: options.world,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
}

/** A positive integer flag, or a usage error naming it. */
export function positiveIntegerFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new CliUsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return number;
}
