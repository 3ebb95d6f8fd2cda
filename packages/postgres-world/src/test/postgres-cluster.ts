import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on 127.0.0.1, started from the machine's binaries. */
export type PostgresCluster = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly connectionString: string;
  readonly port: number;
  /** The cluster's folder (data, socket, log); removed by `stop()`. */
  readonly directory: string;
  /** `pg_ctl restart`; `immediate` is a crash of the server processes (no shutdown checkpoint). */
  restart(options?: { readonly mode?: "fast" | "immediate" }): Promise<void>;
  /** Stops the server (`immediate`) and deletes its folder. Idempotent. */
  stop(): Promise<void>;
};

/**
 * The directory of `initdb`/`pg_ctl`: `LITTLE_PG_BIN`, else the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian's layout). Throws naming the fix when none exists.
 */
export function findPostgresBinaries(): string {
  const fromEnv = process.env.LITTLE_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "initdb")))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  if (versions.length === 0) {
    throw new Error(
      "No PostgreSQL server binaries found (looked for /usr/lib/postgresql/<version>/bin/initdb). Install them (Debian: apt-get install -y postgresql) or set LITTLE_PG_BIN.",
    );
  }
  return join(root, versions[0]!, "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * `initdb` + `pg_ctl start` on a fresh temp folder and a free port. PostgreSQL refuses to run as
 * root: when this process is root, the folder is given to the `postgres` user and the binaries
 * run through `runuser -u postgres --`.
 */
export async function startPostgresCluster(options: { readonly settings?: Readonly<Record<string, string>> } = {}): Promise<PostgresCluster> {
  const bin = findPostgresBinaries();
  const directory = await mkdtemp(join(tmpdir(), "little-pg-"));
  const asRoot = process.getuid?.() === 0;
  const asPostgres = async (command: string, args: readonly string[]): Promise<void> => {
    const file = join(bin, command);
    try {
      if (asRoot) await run("runuser", ["-u", "postgres", "--", file, ...args], { timeout: 120_000 });
      else await run(file, [...args], { timeout: 120_000 });
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      throw new Error(`${command} failed: ${failure.stderr?.trim() || failure.message}`);
    }
  };
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]).catch(() => {
      throw new Error("Running as root needs a `postgres` user to own the cluster (Debian's postgresql package creates it).");
    });
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    await chown(directory, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(directory, "data");
  const port = await freePort();
  await asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const settings = { listen_addresses: "127.0.0.1", max_connections: "200", ...options.settings };
  const serverOptions = [`-p ${port}`, `-k ${directory}`, ...Object.entries(settings).map(([key, value]) => `-c ${key}=${value}`)].join(" ");
  const ctl = (action: string, extra: readonly string[] = []) =>
    asPostgres("pg_ctl", ["-D", data, "-o", serverOptions, "-w", "-t", "60", "-l", join(directory, "server.log"), ...extra, action]);
  await ctl("start");
  let stopped = false;
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    directory,
    async restart(restartOptions = {}) {
      await ctl("restart", ["-m", restartOptions.mode ?? "fast"]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
