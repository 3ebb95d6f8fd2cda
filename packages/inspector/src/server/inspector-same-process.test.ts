import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRegistry } from "@little-stack/harness";
import { localWorld } from "@little-stack/local-world";
import { registerWorkflowVersion } from "@little-stack/lwir";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { jsonSchema, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { RunView } from "./run-views.js";
import { startInspector } from "./start-inspector.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Steps whose tool answers at once and whose world is SQLite (synchronous) never wait on I/O:
// the inspector's HTTP server in the same process is served only because the runtime gives the
// event loop a turn between steps.
describe("the inspector in the process that runs the workflow", () => {
  it("answers over HTTP while a long chain of instant steps is still running, and sees it running", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lw-inspector-same-process-"));
    dirs.push(dataDir);
    const world = localWorld({ dataDir, durability: "process" });
    const inspector = await startInspector({ dataDir, port: 0 });
    const length = 1_500;
    let calls = 0;
    let asked: Promise<{ view: RunView; callsWhenAnswered: number }> | undefined;
    const runId = "run-watched";
    const tools = createToolRegistry({
      noop: tool({
        description: "Returns its input.",
        inputSchema: jsonSchema<{ i: number }>({ type: "object", properties: { i: { type: "number" } }, required: ["i"] }),
        execute: async (input) => {
          calls += 1;
          // A page asking for the run once it is under way.
          if (input.i === 100) asked = fetch(new URL(`/api/runs/${runId}`, inspector.url)).then(async (response) => ({ view: (await response.json()) as RunView, callsWhenAnswered: calls }));
          return input;
        },
      }),
    });
    const version = registerWorkflowVersion({
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "watched.chain" },
      input: { schema: { type: "object" } },
      output: { schema: true },
      permissions: { tools: ["noop"], models: [] },
      steps: Array.from({ length }, (_, index) => ({
        id: `s${index}`,
        uses: "tool.call",
        ...(index === 0 ? {} : { needs: [`s${index - 1}`] }),
        with: { tool: "noop", args: { i: index } },
        output: { mode: "object", schema: { type: "object" } },
      })),
    } as never);
    try {
      await executeWorkflowVersion({ world, workflowVersion: version as never, input: {}, tools, runId });
      expect(calls).toBe(length);
      const { view, callsWhenAnswered } = await asked!;
      // Answered mid-run: the server read a log that was still growing.
      expect(callsWhenAnswered).toBeLessThan(length);
      expect(view.status).toBe("running");
      const completed = view.steps.filter((step) => step.status === "completed").length;
      expect(completed).toBeGreaterThanOrEqual(100);
      expect(completed).toBeLessThan(length);
    } finally {
      await inspector.close();
      await world.close();
    }
  }, 60_000);
});
