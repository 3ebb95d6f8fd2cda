import { jsonSchema, tool, type ToolExecutionOptions } from "ai";
import { describe, expect, it } from "vitest";
import { executeRegisteredTool } from "./execute-registered-tool.js";
import { createToolRegistry } from "./tool-registry.js";

function capturingRegistry(seen: ToolExecutionOptions[]) {
  return createToolRegistry({
    probe: tool({
      description: "Keeps its execution options.",
      inputSchema: jsonSchema({ type: "object" }),
      execute: async (_input, options) => {
        seen.push(options);
        return { ok: true };
      },
    }),
  });
}

describe("executeRegisteredTool's abort signal", () => {
  it("reads signalFrom's abortSignal only when the tool reads its own", async () => {
    const seen: ToolExecutionOptions[] = [];
    const controller = new AbortController();
    let reads = 0;
    const source = {
      get abortSignal() {
        reads += 1;
        return controller.signal;
      },
    };
    await executeRegisteredTool({ registry: capturingRegistry(seen), toolName: "probe", args: {}, signalFrom: source });
    expect(reads).toBe(0);
    expect(seen[0]!.abortSignal).toBe(controller.signal);
    expect(reads).toBe(1);
    expect(Object.keys(seen[0]!)).toEqual(["toolCallId", "messages", "abortSignal"]);
    expect({ ...seen[0]! }.abortSignal).toBe(controller.signal);
  });

  it("gives every call's options the same accessor, not a getter of its own (one hidden class for all)", async () => {
    const seen: ToolExecutionOptions[] = [];
    const registry = capturingRegistry(seen);
    const signal = new AbortController().signal;
    await executeRegisteredTool({ registry, toolName: "probe", args: {}, signalFrom: { abortSignal: signal } });
    await executeRegisteredTool({ registry, toolName: "probe", args: {}, abortSignal: signal });
    const getters = seen.map((options) => Object.getOwnPropertyDescriptor(options, "abortSignal")?.get);
    expect(getters[0]).toBeTypeOf("function");
    expect(getters[1]).toBe(getters[0]);
  });

  it("leaves abortSignal out of the options when none is given", async () => {
    const seen: ToolExecutionOptions[] = [];
    await executeRegisteredTool({ registry: capturingRegistry(seen), toolName: "probe", args: {} });
    expect("abortSignal" in seen[0]!).toBe(false);
  });
});
