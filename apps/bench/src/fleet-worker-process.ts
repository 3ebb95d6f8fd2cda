// One worker process for the postgres-fleet benchmark: postgresWorld + startWorker over the
// benchmark's chain workflow, configured by environment; prints a JSON line per worker event.
import { postgresWorld } from "@little-stack/postgres-world";
import { startWorker } from "@little-stack/worker";
import { chainTools } from "./fleet-chain-workflow.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};
const world = postgresWorld({
  connectionString: env("BENCH_PG"),
  schema: env("BENCH_SCHEMA"),
  dataDir: env("BENCH_DATA_DIR"),
  leaseMs: Number(env("BENCH_LEASE_MS")),
  holder: env("BENCH_HOLDER"),
});
await world.ready();
const worker = startWorker({
  world,
  tools: chainTools(Number(process.env.BENCH_TOOL_DELAY_MS ?? "0")),
  concurrency: Number(env("BENCH_CONCURRENCY")),
  pollEveryMs: Number(env("BENCH_POLL_MS")),
  onEvent(event) {
    if (event.type === "claim_error" || event.type === "run_error") process.stderr.write(`worker ${process.pid}: ${event.type}: ${(event.error as Error).message}\n`);
    process.stdout.write(`${JSON.stringify({ type: event.type, runId: "runId" in event ? event.runId : undefined, at: Date.now() })}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ type: "started", at: Date.now() })}\n`);
process.on("SIGTERM", () => void worker.stop().then(() => world.close()).then(() => process.exit(0)));
