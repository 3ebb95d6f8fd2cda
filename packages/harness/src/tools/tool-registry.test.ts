import { asSchema, generateText, jsonSchema, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import { scriptedV3Model } from "../__fixtures__/scripted-v3-model.js";
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

describe("the arguments a code tool call records", () => {
  it("are a copy made when the call starts: the tool gets its own input, and what it changes there is not recorded", async () => {
    const received: unknown[] = [];
    const mutating = tool({
      description: "Changes its input.",
      inputSchema: jsonSchema<{ list: number[]; when?: unknown; gone?: unknown }>({ type: "object" }),
      execute: async (input) => {
        received.push(input);
        input.list.push(99);
        return { length: input.list.length };
      },
    });
    const registry = createToolRegistry({ mutating });
    const sink = createMemoryHarnessEventSink("run_0000000000000004");
    const recorder = createHarnessEventRecorder({ sink });
    const session = await openHarnessSession({ recorder, scope: { runId: "run_0000000000000004", logDir: "/tmp/unused", role: "planner" }, sessionKey: "plan:args", task: { kind: "plan" }, manifest: plannerManifest });
    const args = { list: [1, 2] };
    expect(await executeRegisteredTool({ registry, toolName: "mutating", args, session })).toEqual({ length: 3 });
    expect(received[0]).toBe(args);
    expect(args.list).toEqual([1, 2, 99]);
    // Not plain JSON (a Date, an undefined field): recorded as JSON.stringify sees it, as before.
    const when = new Date(Date.UTC(2026, 11, 7));
    await executeRegisteredTool({ registry, toolName: "mutating", args: { list: [], when, gone: undefined }, session });
    const recorded = sink.events.filter((event) => event.type === "harness.tool_call.succeeded").map((event) => (event.payload as { args: unknown }).args);
    expect(recorded).toEqual([{ list: [1, 2] }, { list: [], when: "2026-12-07T00:00:00.000Z" }]);
  });
});

describe("jsonSchema() tools: their input schema is enforced like a Zod tool's", () => {
  const numberSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false } as const;
  const counting = () => {
    const received: unknown[] = [];
    const half = tool({
      description: "Halves n.",
      inputSchema: jsonSchema<{ n: number }>(numberSchema),
      execute: async (input) => {
        received.push(input);
        return { half: input.n / 2 };
      },
    });
    return { half, received };
  };

  it("refuses a bad input from a tool.call step or from code before the tool runs", async () => {
    const { half, received } = counting();
    const registry = createToolRegistry({ half });
    expect(await executeRegisteredTool({ registry, toolName: "half", args: { n: 4 } })).toEqual({ half: 2 });
    for (const args of [{ n: "not a number" }, {}, { n: 1, extra: true }]) {
      const error = await executeRegisteredTool({ registry, toolName: "half", args }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputValidationError);
      expect((error as Error).message).toMatch(/Arguments for tool "half" do not match its input schema: \$/);
    }
    const typed = (await executeRegisteredTool({ registry, toolName: "half", args: { n: "x" } }).catch((caught: unknown) => caught)) as Error;
    expect(typed.message).toContain("$.n must be of type number");
    expect(received).toEqual([{ n: 4 }]);
    // Picked subsets keep the check; the pinned JSON Schema (and digest) is the tool's own.
    await expect(executeRegisteredTool({ registry: registry.pick(["half"]), toolName: "half", args: { n: "x" } })).rejects.toBeInstanceOf(ToolInputValidationError);
    const [descriptor] = (await registry.describe()).tools;
    expect(descriptor!.inputSchema).toEqual(numberSchema);
    // Once its validator is compiled, the check answers without a promise (a tool.call step awaits nothing for it).
    const answer = asSchema(registry.get("half").inputSchema).validate!({ n: "y" });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ success: false });
  });

  it("refuses a bad input from a model: the tool never runs and the model is told", async () => {
    const { half, received } = counting();
    const registry = createToolRegistry({ half });
    const model = scriptedV3Model([{ toolCalls: [{ toolName: "half", args: { n: "not a number" } }] }, { text: "done" }]);
    const result = await generateText({ model, tools: registry.tools, prompt: "halve", stopWhen: stepCountIs(3) });
    expect(received).toEqual([]);
    const toolError = result.steps[0]!.content.find((part) => part.type === "tool-error");
    expect(toolError).toBeDefined();
    expect(String((toolError as { error: unknown }).error)).toMatch(/\$\.n must be of type number/);
  });
});

describe("tool errors recorded in the log are bounded", () => {
  it("a tool throwing a 20 MB message records its start and a marker, not 20 MB", async () => {
    const huge = tool({
      description: "Fails loudly.",
      inputSchema: z.object({}),
      execute: async (): Promise<unknown> => {
        throw new Error("e".repeat(20 * 1024 * 1024));
      },
    });
    const registry = createToolRegistry({ huge });
    const sink = createMemoryHarnessEventSink("run_0000000000000003");
    const recorder = createHarnessEventRecorder({ sink });
    const scope = { runId: "run_0000000000000003", logDir: "/tmp/unused", role: "planner" as const };
    const session = await openHarnessSession({ recorder, scope, sessionKey: "plan:huge", task: { kind: "plan" }, manifest: plannerManifest });
    await executeRegisteredTool({ registry, toolName: "huge", args: {}, session }).catch(() => undefined);
    const failed = sink.events.find((event) => event.type === "harness.tool_call.failed")!.payload as { error: { message: string } };
    expect(failed.error.message.length).toBeLessThan(17 * 1024);
    expect(failed.error.message.endsWith(`… [truncated: ${20 * 1024 * 1024} characters in all]`)).toBe(true);
  });
});
