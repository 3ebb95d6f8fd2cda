import { appendFileSync } from "node:fs";
import { createToolRegistry } from "@little-stack/harness";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { tool } from "ai";
import { z } from "zod";

/**
 * The workflow of the fleet tests: a seed tool call, a parallel fan-out (one tool call per item,
 * two at a time) and a final tool call over everything. Each `record` call appends
 * `<toolCallId> <pid>` to the log file once it has run, so the parent counts executions across
 * worker processes; `gate` waits until its gate file exists (for pausing a run mid-flight).
 */
export function fleetWorkflowVersion() {
  const object = { mode: "object", schema: { type: "object" } } as const;
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "fleet.test" },
    input: { schema: { type: "object", properties: { n: { type: "number" }, items: { type: "array" }, gate: { type: "boolean" } }, required: ["n", "items"] } },
    output: { schema: { type: "object" } },
    permissions: { tools: ["record", "gate"], models: [] },
    steps: [
      { id: "seed", uses: "tool.call", with: { tool: "record", args: { label: "seed", value: "{{ input.n }}" } }, output: object },
      {
        id: "fan",
        uses: "parallel",
        needs: ["seed"],
        with: {
          items: "{{ input.items }}",
          itemKey: "{{ item }}",
          cardinality: { kind: "matches_items" },
          maxBranches: 10,
          maxConcurrency: 2,
          failureMode: "fail_fast",
          fanIn: { order: "input", output: "array" },
        },
        steps: [{ id: "work", uses: "tool.call", with: { tool: "record", args: { label: "work", value: "{{ item }}" } }, output: object }],
        output: {
          mode: "array",
          schema: { type: "array", items: { type: "object", properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, artifacts: { type: "array" } }, required: ["itemKey", "status", "artifacts"] } },
        },
      },
      { id: "wait", uses: "tool.call", needs: ["fan"], with: { tool: "gate", args: { open: "{{ coalesce(input.gate, false) }}" } }, output: object },
      {
        id: "final",
        uses: "tool.call",
        needs: ["wait", "fan", "seed"],
        with: { tool: "record", args: { label: "final", value: { n: "{{ steps.seed.output.value }}", fan: "{{ steps.fan.output }}" } } },
        output: object,
      },
    ],
  } as unknown as LwirDocument;
  const version = registerWorkflowVersion(lwir);
  return { id: version.id, hash: version.hash, lwir: version.lwir as LwirDocument };
}

export function fleetInput(index: number, options: { readonly gate?: boolean } = {}) {
  return { n: index, items: [`a${index}`, `b${index}`, `c${index}`], ...(options.gate === true ? { gate: true } : {}) };
}

export function fleetTools(options: { readonly logFile?: string; readonly gateFile?: string; readonly delayMs?: number }) {
  const delayMs = options.delayMs ?? 15;
  return createToolRegistry({
    record: tool({
      description: "Records a labelled value and returns it.",
      inputSchema: z.object({ label: z.string(), value: z.unknown() }),
      execute: async ({ label, value }, { toolCallId }) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (options.logFile !== undefined) appendFileSync(options.logFile, `${toolCallId} ${process.pid}\n`);
        return { label, value };
      },
    }),
    gate: tool({
      description: "Waits until the gate file exists when asked to.",
      inputSchema: z.object({ open: z.boolean() }),
      execute: async ({ open }, { toolCallId }) => {
        if (open && options.gateFile !== undefined) {
          const { existsSync } = await import("node:fs");
          if (options.logFile !== undefined) appendFileSync(options.logFile, `gate-begin ${toolCallId} ${process.pid}\n`);
          while (!existsSync(options.gateFile)) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return { passed: true };
      },
    }),
  });
}
