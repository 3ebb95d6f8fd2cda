import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import { openHarnessSession } from "../agent/harness-session.js";
import {
  DuplicateToolError,
  InvalidToolNameError,
  NotAToolError,
  ToolInputValidationError,
  ToolNotExecutableError,
  UnknownToolError,
} from "../errors/tool-registry-errors.js";
import { createHarnessEventRecorder } from "../events/harness-event-recorder.js";
import { createMemoryHarnessEventSink } from "../events/memory-harness-event-sink.js";
import { executeRegisteredTool } from "./execute-registered-tool.js";
import { createToolRegistry, mergeToolRegistries } from "./tool-registry.js";

const add = tool({
  description: "Adds two numbers.",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  outputSchema: z.object({ sum: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});
const echo = tool({
  description: "Echoes text.",
  inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }),
  execute: async ({ text }) => text,
});

describe("createToolRegistry", () => {
  it("snapshots descriptors (JSON schemas) with a stable digest per tool and for the set", async () => {
    const registry = createToolRegistry({ echo, add });
    expect(registry.names).toEqual(["add", "echo"]);
    const snapshot = await registry.describe();
    expect(snapshot.tools.map((descriptor) => descriptor.name)).toEqual(["add", "echo"]);
    expect(snapshot.tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(snapshot.tools[0]?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
    expect(snapshot.tools[1]?.outputSchema).toBeUndefined();
    expect(snapshot.tools[0]?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    const sameInOtherOrder = await createToolRegistry({ add, echo }).describe();
    expect(sameInOtherOrder.digest).toBe(snapshot.digest);
    const changed = await createToolRegistry({ add: tool({ ...add, description: "Adds numbers." }), echo }).describe();
    expect(changed.digest).not.toBe(snapshot.digest);
    expect(changed.tools[1]?.digest).toBe(snapshot.tools[1]?.digest);
  });

  it("refuses bad names, case-insensitive duplicates and non-tools with named errors", () => {
    expect(() => createToolRegistry({ "bad name": echo })).toThrow(InvalidToolNameError);
    expect(() => createToolRegistry({ "1st": echo })).toThrow(InvalidToolNameError);
    expect(() => createToolRegistry({ echo, Echo: echo })).toThrow(DuplicateToolError);
    expect(() => createToolRegistry({ echo: (() => "x") as never })).toThrow(NotAToolError);
    expect(() => mergeToolRegistries([createToolRegistry({ echo }), createToolRegistry({ echo })])).toThrow(DuplicateToolError);
    expect(() => createToolRegistry({ echo }).get("nope")).toThrow(UnknownToolError);
    expect(() => createToolRegistry({ echo }).pick(["echo", "nope"])).toThrow(/available: echo/);
  });
});

describe("executeRegisteredTool", () => {
  it("validates input against the tool's schema", async () => {
    const registry = createToolRegistry({ add });
    expect(await executeRegisteredTool({ registry, toolName: "add", args: { a: 1, b: 2 } })).toEqual({ sum: 3 });
    await expect(executeRegisteredTool({ registry, toolName: "add", args: { a: "1" } })).rejects.toBeInstanceOf(ToolInputValidationError);
    const describedOnly = createToolRegistry({ view: tool({ description: "no execute", inputSchema: z.object({}) }) });
    await expect(executeRegisteredTool({ registry: describedOnly, toolName: "view", args: {} })).rejects.toBeInstanceOf(ToolNotExecutableError);
  });

  it("records calls from code with caller \"code\" and no turn, and replays them without calling the tool", async () => {
    let invocations = 0;
    const counted = tool({
      description: "Counts calls.",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        invocations += 1;
        return { doubled: n * 2 };
      },
    });
    const registry = createToolRegistry({ counted });
    const sink = createMemoryHarnessEventSink("run_0000000000000002");
    const recorder = createHarnessEventRecorder({ sink });
    const scope = { runId: "run_0000000000000002", logDir: "/tmp/unused", role: "planner" as const };
    const open = () => openHarnessSession({ recorder, scope, sessionKey: "plan:code", task: { kind: "plan" }, manifest: plannerManifest });
    const first = await open();
    expect(await executeRegisteredTool({ registry, toolName: "counted", args: { n: 2 }, session: first })).toEqual({ doubled: 4 });
    expect(await executeRegisteredTool({ registry, toolName: "counted", args: { n: 5 }, session: first })).toEqual({ doubled: 10 });
    const started = sink.events.filter((event) => event.type === "harness.tool_call.started").map((event) => event.payload as any);
    expect(started.map((payload) => [payload.caller, payload.turn, payload.callIndex])).toEqual([
      ["code", undefined, 0],
      ["code", undefined, 1],
    ]);
    const second = await open();
    expect(await executeRegisteredTool({ registry, toolName: "counted", args: { n: 2 }, session: second })).toEqual({ doubled: 4 });
    expect(await executeRegisteredTool({ registry, toolName: "counted", args: { n: 5 }, session: second })).toEqual({ doubled: 10 });
    expect(invocations).toBe(2);
    expect(second.stats()).toMatchObject({ liveToolCalls: 0, replayedToolCalls: 2 });
  });
});
