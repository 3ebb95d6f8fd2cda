// A traced run in a child process (plain Node conditions: the OpenTelemetry SDK packages' ES module
// builds, which the test runner's "module" condition would pick, are for bundlers).
// Usage: traced-run.ts <otlpUrl> <dataDir> <runId> full|crash
import { createToolRegistry } from "@little-stack/harness";
import { localWorld, type World } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { createScriptedModel } from "@little-stack/testing";
import { jsonSchema, tool } from "ai";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { otlpHttpTracing } from "../otlp-http-tracing.js";

const [url, dataDir, runId, mode] = process.argv.slice(2) as [string, string, string, "full" | "crash"];

const objectOutput = { mode: "object", schema: { type: "object" } };
const lwir = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "otel.trace-me", version: "0.1.0" },
  input: { schema: { type: "object" } },
  output: { schema: true },
  permissions: { models: ["writer"], tools: ["lookup"], secrets: [], network: [] },
  steps: [
    { id: "lookup", uses: "tool.call", with: { tool: "lookup", args: { customerId: "C-1" } }, output: objectOutput },
    { id: "summarize", uses: "ai.generate", needs: ["lookup"], with: { model: "writer", prompt: "Summarize {{ steps.lookup.output.plan }}" }, output: { mode: "text" } },
    { id: "again", uses: "tool.call", needs: ["summarize"], with: { tool: "lookup", args: { customerId: "C-2" } }, output: objectOutput },
  ],
} as unknown as LwirDocument;
const version = registerWorkflowVersion(lwir) as never;

function setup() {
  const calls: string[] = [];
  const tools = createToolRegistry({
    lookup: tool({
      description: "Looks a customer up.",
      inputSchema: jsonSchema<{ customerId: string }>({ type: "object", properties: { customerId: { type: "string" } }, required: ["customerId"] }),
      execute: async ({ customerId }) => {
        calls.push(customerId);
        appendFileSync(join(dataDir, "tool-calls.log"), `${customerId}\n`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { customerId, plan: "pro" };
      },
    }),
  });
  const writer = createScriptedModel({ provider: "openai.chat", modelId: "gpt-4o-mini", script: [{ text: "A pro customer.", usage: { inputTokens: 120, cachedInputTokens: 64, outputTokens: 9 } }] });
  return { tools, writer, calls };
}

/** A world that stops storing after `surviving` appends to the run, as if the process died there. */
function dyingWorld(inner: World, surviving: number): World {
  let appends = 0;
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "appendEvents") {
        return async (...args: Parameters<World["appendEvents"]>) => {
          appends += 1;
          if (appends > surviving) throw new Error("simulated crash");
          return target.appendEvents(...args);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}


const world = localWorld({ dataDir });
const tracing = await otlpHttpTracing({ url });
const { tools, writer } = setup();
// "crash": dies after the first step's transaction and the model call's response (the third step never runs).
const runWorld = mode === "crash" ? dyingWorld(world, 3) : world;
try {
  await executeWorkflowVersion({ world: runWorld, workflowVersion: version, input: {}, tools, models: { writer }, runId, onEvent: tracing.onEvent });
  await tracing.shutdown();
} catch (error) {
  if (mode !== "crash") throw error;
  // What a killed process had exported is what its batches sent before it died: flush, do not end open spans.
  await tracing.forceFlush();
  process.stdout.write(`crashed: ${String(error)}\n`);
}
await world.close();
