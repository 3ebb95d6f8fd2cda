// A worker in its own process, for the fleet fault tests: one postgresWorld + startWorker,
// configured by environment, printing one JSON line per worker event on stdout. Runs until killed
// or sent SIGTERM (graceful stop).
import { appendFileSync } from "node:fs";
import type { World } from "@little-stack/local-world";
import { postgresWorld } from "@little-stack/postgres-world";
import { startWorker } from "../start-worker.js";
import { fleetTools } from "./fleet-workflow.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const world = postgresWorld({
  connectionString: env("FLEET_PG"),
  schema: env("FLEET_SCHEMA"),
  dataDir: env("FLEET_DATA_DIR"),
  leaseMs: Number(env("FLEET_LEASE_MS")),
  holder: env("FLEET_HOLDER"),
  reconnectWithinMs: 120_000,
  queryTimeoutMs: 5_000,
});
const ackFile = process.env.FLEET_ACK_FILE;
// Every append the world acknowledged, written down once it resolved: the parent checks that
// each one is still in the database after restarts.
const acknowledging = new Proxy(world, {
  get(target, property, receiver) {
    if (property === "appendEvents" && ackFile !== undefined) {
      return async (...args: Parameters<World["appendEvents"]>) => {
        const stored = await target.appendEvents(...args);
        if (stored.length > 0) appendFileSync(ackFile, stored.map((event) => `${event.runId} ${event.sequence} ${event.eventId}\n`).join(""));
        return stored;
      };
    }
    const value = Reflect.get(target, property, receiver) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
});

const worker = startWorker({
  world: acknowledging,
  tools: fleetTools({ logFile: env("FLEET_TOOL_LOG"), ...(process.env.FLEET_GATE === undefined ? {} : { gateFile: process.env.FLEET_GATE }) }),
  concurrency: Number(process.env.FLEET_CONCURRENCY ?? "4"),
  pollEveryMs: Number(process.env.FLEET_POLL_MS ?? "200"),
  onEvent(event) {
    const line = { ...event, pid: process.pid, at: Date.now(), ...("error" in event ? { error: String((event.error as Error)?.message ?? event.error) } : {}) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ type: "started", pid: process.pid, at: Date.now() })}\n`);
process.on("SIGTERM", () => {
  void worker.stop().then(async () => {
    await world.close();
    process.exit(0);
  });
});
