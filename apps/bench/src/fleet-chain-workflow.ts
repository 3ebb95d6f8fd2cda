// The benchmark workflow of postgres-fleet: a chain of `steps` sequential tool.call steps, each
// passing a counter on (so every step depends on the one before and commits its own result).
import { createToolRegistry } from "@little-stack/harness";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { jsonSchema, tool } from "ai";

export function chainVersion(steps: number) {
  const object = { mode: "object", schema: { type: "object" } } as const;
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bench.fleet-chain" },
    input: { schema: { type: "object" } },
    output: { schema: { type: "object" } },
    permissions: { tools: ["bump"], models: [] },
    steps: Array.from({ length: steps }, (_, index) => ({
      id: `s${index}`,
      uses: "tool.call",
      ...(index === 0 ? {} : { needs: [`s${index - 1}`] }),
      with: { tool: "bump", args: { n: index === 0 ? "{{ input.n }}" : `{{ steps.s${index - 1}.output.n }}` } },
      output: object,
    })),
  } as unknown as LwirDocument;
  const version = registerWorkflowVersion(lwir);
  return { id: version.id, hash: version.hash, lwir: version.lwir as LwirDocument };
}

export function chainTools(delayMs = 0) {
  return createToolRegistry({
    bump: tool({
      description: "Adds one.",
      inputSchema: jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
      execute: async ({ n }) => {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return { n: n + 1 };
      },
    }),
  });
}
