import { resolve } from "node:path";
import type { ResolvedModel } from "@little-stack/harness";
import type { WorkerEvent } from "@little-stack/worker";
import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { openFleetWorld, positiveIntegerFlag, schemaOption, worldOption } from "../fleet/world-option.js";
import { readJsonInput } from "../read-json-input.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little worker --world postgres://…`: claims and executes runs until SIGINT/SIGTERM. */
export class WorkerCommand extends Command<CliContext> {
  static override paths = [["worker"]];
  static override usage = Command.Usage({
    description: "Execute runs from a PostgreSQL world's queue, alongside other workers",
    details: `
      Claims runnable runs (submitted with \`little submit\` or \`submitWorkflow\`, or held by a worker
      whose lease lapsed), executes each under a fenced lease and takes over runs of workers that
      died. Only runs whose tools (\`--tools\`) and model slots (\`--models\`) this worker has are
      claimed. One line per event (claimed, completed, failed, lease_lost) goes to stderr, or NDJSON
      to stdout with \`--json\`. SIGINT or SIGTERM stops claiming and waits for the runs in flight.

      \`--data-dir\` must be the folder every worker of this world shares (memory stores, run
      scratch, skills cache — the same network mount on every machine); a worker on a folder the
      others do not share is refused.
    `,
    examples: [["Start a worker", "little worker --world postgres://postgres@127.0.0.1:5432/postgres --tools ./tools.mjs --models models.json --data-dir /mnt/shared/little"]],
  });

  world = worldOption();
  schema = schemaOption();
  tools = Option.String("--tools", { description: "ES module exporting this worker's tools" });
  models = Option.String("--models", { description: "JSON file mapping model slots to providers" });
  concurrency = Option.String("--concurrency", { description: "Runs executed at once (default 4)" });
  leaseMs = Option.String("--lease-ms", { description: "Lease length in ms (default 30000)" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    const { cwd, stdin, env, stdout, stderr } = this.context;
    const concurrency = positiveIntegerFlag("--concurrency", this.concurrency);
    const leaseMs = positiveIntegerFlag("--lease-ms", this.leaseMs);
    const { loadToolsModule } = await import("../run/load-tools-module.js");
    const tools = this.tools === undefined ? undefined : await loadToolsModule({ path: this.tools, cwd });
    let models: Record<string, ResolvedModel> = {};
    if (this.models !== undefined) {
      const file = await readJsonInput({ path: this.models, cwd, stdin });
      const { parseModelSlots, resolveModelSlots } = await import("../run/model-slots-file.js");
      const slots = parseModelSlots({ value: file.value, displayName: file.displayName });
      models = resolveModelSlots({ slots, needed: Object.keys(slots), env, displayName: file.displayName });
    }
    const world = await openFleetWorld({ command: "worker", world: this.world, schema: this.schema, dataDir: resolve(cwd, this.dataDir), ...(leaseMs === undefined ? {} : { leaseMs }) });
    await world.ready();
    const print = (event: WorkerEvent): void => {
      const detail = "error" in event ? { error: event.error instanceof Error ? event.error.message : String(event.error) } : {};
      if (this.json) stdout.write(`${JSON.stringify({ ...event, ...detail, at: new Date().toISOString() })}\n`);
      else stderr.write(`${event.type}${"runId" in event ? ` ${event.runId}` : ""}${"fence" in event ? ` fence ${event.fence}` : ""}${"reason" in event ? ` (${event.reason})` : ""}${"error" in detail ? `: ${detail.error}` : ""}\n`);
    };
    const { startWorker } = await import("@little-stack/worker");
    const worker = startWorker({ world, ...(tools === undefined ? {} : { tools }), models, ...(concurrency === undefined ? {} : { concurrency }), onEvent: print });
    if (!this.json) stderr.write(`worker ${worker.holder} on ${world.settings.target} (schema ${world.settings.schema}), claiming runs…\n`);
    const stop = (): void => void worker.stop();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      await worker.stopped;
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      await world.close();
    }
    return exitCodes.success;
  }
}
