import { createToolRegistry, executeRegisteredTool, openHarnessSession, type Harness, type HarnessContext, type ToolRegistry } from "@little-stack/harness";
import type { RuntimeHarnessContext } from "@little-stack/runtime";
import { jsonSchema, tool } from "ai";

/** The benches' one tool: `noop` returns its input; `onCall` sees each execution (timestamps). */
export function noopTools(onCall: () => void = () => undefined): ToolRegistry {
  return createToolRegistry({
    noop: tool({
      description: "Returns its input.",
      inputSchema: jsonSchema<{ i: number }>({ type: "object", properties: { i: { type: "number" } }, required: ["i"] }),
      execute: async (input) => {
        onCall();
        return input;
      },
    }),
  });
}

/** A minimal worker harness over the real contract: tool.call in a durable session. */
export function toolCallHarness(tools: ToolRegistry): Harness & { id: string } {
  return {
    id: "bench-worker",
    async run(task, baseCtx: HarnessContext) {
      const ctx = baseCtx as RuntimeHarnessContext;
      if (task.kind !== "execute_step" || task.step.uses !== "tool.call") throw new Error("bench harness runs tool.call only");
      const session = await openHarnessSession({ recorder: ctx.recorder!, scope: ctx.scope, sessionKey: ctx.sessionKey, task, manifest: ctx.manifest, stepPath: ctx.stepPath });
      const output = await executeRegisteredTool({ registry: tools, toolName: String(task.step.with?.tool), args: task.stepInput, session });
      await session.complete({ output });
      return { kind: "execute_step", output, artifactRefs: [] };
    },
  };
}
