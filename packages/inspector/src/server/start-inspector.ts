import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { serve } from "@hono/node-server";
import { localWorld, type World } from "@little-stack/local-world";
import { createInspectorApp } from "./inspector-app.js";
import { InspectorError } from "./inspector-error.js";

export type InspectorOptions = {
  /** The data dir to inspect (read-only). */
  readonly dataDir: string;
  /** Default 4310; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`: the inspector shows prompts and outputs, so it listens on loopback only unless told otherwise. */
  readonly host?: string;
  /** How often live pages read the log again (ms, default 250). */
  readonly pollMs?: number;
};

export type RunningInspector = {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes the world. */
  close(): Promise<void>;
};

export const defaultInspectorPort = 4310;

/** Serves the inspector over a data dir, read-only: opens the world without writing, listens, returns the URL. */
export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  const dataDir = resolve(options.dataDir);
  if (!existsSync(join(dataDir, "events", "events.db"))) {
    throw new InspectorError("inspector.no_data", `There are no runs in ${options.dataDir} (no events/events.db): pass the --data-dir your runs write to.`, { details: { dataDir } });
  }
  const port = options.port ?? defaultInspectorPort;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InspectorError("inspector.invalid_port", `port must be an integer from 0 to 65535, got ${String(options.port)}.`);
  const host = options.host ?? "127.0.0.1";
  const world: World = localWorld({ dataDir, readOnly: true });
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const app = createInspectorApp({ world, ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }), ...(loopback ? {} : { allowedHosts: [] }) });
  let server: ReturnType<typeof serve>;
  const address = await new Promise<AddressInfo>((resolveAddress, reject) => {
    server = serve({ fetch: app.fetch, port, hostname: host }, (info) => resolveAddress(info));
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(new InspectorError("inspector.listen_failed", error.code === "EADDRINUSE" ? `Port ${port} on ${host} is in use: pass another --port (or 0 for any free one).` : `Cannot listen on ${host}:${port}: ${error.message}`, { cause: error }));
    });
  }).catch(async (error: unknown) => {
    await world.close();
    throw error;
  });
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    close: async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await world.close();
    },
  };
}
