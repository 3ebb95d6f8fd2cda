import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LwirCodeRunStep } from "@little-stack/lwir";
import { shutdownSandboxWorkers } from "@little-stack/sandbox";
import { tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedV3Model, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { FixStepTask } from "../contract/harness.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import { codeFile, eventTypes, payloadsOf, testContext } from "./__fixtures__/test-context.js";
import { FixerExhaustedError } from "./agent-task-errors.js";
import { workflowHarness } from "./workflow-harness.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "workflow-harness-fixer-"));
  await mkdir(join(root, "skills", "debugging"), { recursive: true });
  await writeFile(join(root, "skills", "debugging", "SKILL.md"), "---\nname: debugging\ndescription: How to debug code.run steps.\n---\nRead the error first.\n");
  await mkdir(join(root, "scratch"), { recursive: true });
  await mkdir(join(root, "org"), { recursive: true });
});
afterAll(async () => {
  await shutdownSandboxWorkers();
  await rm(root, { recursive: true, force: true });
});

const brokenSource = "export async function run({ input, tools }) {\n  const profile = await tools.lookupProfile({ id: input.signals[0] });\n  return { score: profile.bonus.toFixed(1) };\n}\n";
const wrongFix = "export async function run({ input, tools }) {\n  await tools.lookupProfile({ id: input.signals[0] });\n  throw new Error('still broken');\n}\n";
const rightFix = "export async function run({ input, tools }) {\n  const profile = await tools.lookupProfile({ id: input.signals[0] });\n  return { score: profile.bonus * input.signals.length };\n}\n";

const step: LwirCodeRunStep = {
  id: "score",
  uses: "code.run",
  with: { entrypoint: "score.js", files: { "score.js": codeFile(brokenSource) }, sandbox: { network: "deny" } },
  output: { mode: "object", schema: { type: "object", properties: { score: { type: "number" } }, required: ["score"] } },
  onFailure: { fixer: { model: "fixer-model", maxAttempts: 3, system: "fix it" } },
};

const task: FixStepTask = {
  kind: "fix_step",
  step,
  stepInput: { signals: ["a", "b"] },
  originalAttemptError: { name: "CodeOutputSchemaError", message: "code.run step \"score\" returned an output that does not match its output schema: $.score: must be number", code: "harness.code_output_schema_mismatch" },
  priorFixAttempts: 0,
};

const script: FixtureTurn[] = [
  { toolCalls: [{ toolName: "bash", args: { cmd: "cat .agents/skills/debugging/SKILL.md && echo 'score must be a number' > notes.md" } }] },
  { toolCalls: [{ toolName: "try_fix", args: { files: { "score.js": wrongFix } } }] },
  { toolCalls: [{ toolName: "try_fix", args: { files: { "score.js": rightFix } } }] },
];

function fixerContext(options: { turns: FixtureTurn[]; calls: unknown[]; events?: readonly HarnessEventEnvelope[] }) {
  const model = scriptedV3Model(options.turns);
  const { ctx, sink } = testContext({
    role: "fixer",
    model,
    ...(options.events === undefined ? {} : { events: options.events }),
    tools: {
      lookupProfile: tool({
        description: "Profile bonus for a signal.",
        inputSchema: z.object({ id: z.string() }),
        execute: async ({ id }) => {
          options.calls.push(id);
          return { bonus: 5 };
        },
      }),
    },
    extra: {
      system: "fix it",
      stepPath: "score",
      sessionKey: "fix:score@attempt_1",
      memoryMounts: [{ mountPath: "/mnt/memory/org", mode: "ro", hostPath: join(root, "org"), storeId: "org", purpose: "organization-wide knowledge" }],
      scratchMounts: [{ mountPath: "/mnt/scratch/own", mode: "rw", hostPath: join(root, "scratch"), purpose: "your working area" }],
      skills: [{ name: "debugging", description: "How to debug code.run steps.", source: "./skills/debugging", contentHash: "sha256:0" }],
      mounts: [{ mountPath: ".agents/skills/debugging/", mode: "ro", hostPath: join(root, "skills", "debugging") }],
    },
  });
  return { ctx, sink, model };
}

describe("fix_step", () => {
  it("tries fixes in the step's sandbox until one runs and matches the schema; fixedSource lands in the events", async () => {
    const calls: unknown[] = [];
    const { ctx, sink, model } = fixerContext({ turns: script, calls });
    const result = await workflowHarness.run(task, ctx);
    expect(result).toEqual({ kind: "fix_step", output: { score: 10 }, fixedSource: rightFix, attempts: 2 });
    // The loop ends at the first working try: no fourth model call.
    expect(model.calls).toHaveLength(3);
    // Both tries ran in the sandbox and called the tool from code.
    expect(calls).toEqual(["a", "a"]);

    const system = model.calls[0]!.prompt[0] as { role: string; content: string };
    expect(system.role).toBe("system");
    const order = ["fix it", "You are the Fixer", "Available skills", "Memory mounts", "Scratch mounts", "Available tools:\n- lookupProfile"].map((marker) => system.content.indexOf(marker));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);
    expect((model.calls[0]!.tools ?? []).map((offered) => offered.name).sort()).toEqual(["bash", "try_fix"]);
    const brief = JSON.stringify(model.calls[0]!.prompt[1]);
    expect(brief).toContain("toFixed(1)");
    expect(brief).toContain("harness.code_output_schema_mismatch");

    // bash ran over the real mounts: the skill was readable, the note landed in scratch.
    expect(await readFile(join(root, "scratch", "notes.md"), "utf8")).toBe("score must be a number\n");
    const bashResult = payloadsOf(sink.events, "harness.tool_call.succeeded").find((payload) => payload.toolName === "bash");
    expect(bashResult).toMatchObject({ caller: "model", turn: 1, result: { exitCode: 0, stdout: expect.stringContaining("Read the error first.") } });

    // The wrong try's error went back to the model.
    expect(JSON.stringify(model.calls[2]!.prompt)).toContain("still broken");

    const codeCalls = payloadsOf(sink.events, "harness.tool_call.started").filter((payload) => payload.caller === "code");
    expect(codeCalls.map((payload) => [payload.toolName, payload.callIndex, payload.turn])).toEqual([
      ["lookupProfile", 0, undefined],
      ["lookupProfile", 0, undefined],
    ]);
    expect(codeCalls[0]!.callId).not.toBe(codeCalls[1]!.callId);
    const completed = payloadsOf(sink.events, "harness.session.completed")[0]!;
    expect(completed.output).toMatchObject({ output: { score: 10 }, fixedSource: rightFix, attempts: 2, fixedFiles: { "score.js": codeFile(rightFix) } });
    expect(eventTypes(sink.events).at(-1)).toBe("session.completed");
  });

  it("resumes mid-session: recorded turns and tries are replayed, only the rest runs live", async () => {
    const firstCalls: unknown[] = [];
    const first = fixerContext({ turns: script, calls: firstCalls });
    const live = await workflowHarness.run(task, first.ctx);
    // Cut right after the first try_fix result (a model-called tool) was committed.
    const firstTry = first.sink.events.findIndex((event) => event.type === "harness.tool_call.succeeded" && (event.payload as { toolName: string }).toolName === "try_fix");
    const survivors = first.sink.events.slice(0, firstTry + 1);
    const secondCalls: unknown[] = [];
    const second = fixerContext({ turns: [script[2]!], calls: secondCalls, events: survivors });
    const resumed = await workflowHarness.run(task, second.ctx);
    expect(resumed).toEqual(live);
    expect(second.model.calls).toHaveLength(1);
    expect(secondCalls).toEqual(["a"]);
  });

  it("fails with every try's error when the tries run out", async () => {
    const calls: unknown[] = [];
    const limited = { ...task, step: { ...step, onFailure: { fixer: { model: "fixer-model", maxAttempts: 2, system: "fix it" } } } };
    const wrong = { toolCalls: [{ toolName: "try_fix", args: { files: { "score.js": wrongFix } } }] };
    const syntax = { toolCalls: [{ toolName: "try_fix", args: { files: { "score.js": "export async function run( {" } } }] };
    const { ctx, sink, model } = fixerContext({ turns: [wrong, syntax, wrong], calls });
    const error = await workflowHarness.run(limited, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FixerExhaustedError);
    const attempts = (error as FixerExhaustedError).attempts;
    expect(attempts.map((attempt) => [attempt.attempt, attempt.error.code])).toEqual([
      [1, "sandbox.guest_threw"],
      [2, "sandbox.syntax_error"],
    ]);
    expect(model.calls).toHaveLength(2);
    expect(eventTypes(sink.events).at(-1)).toBe("session.failed");
  });

  it("counts several try_fix calls of one response in call order: the one over maxAttempts is refused, not run", async () => {
    const calls: unknown[] = [];
    const single = { ...task, step: { ...step, onFailure: { fixer: { model: "fixer-model", maxAttempts: 1, system: "fix it" } } } };
    const both = { toolCalls: [{ toolName: "try_fix", args: { files: { "score.js": wrongFix } } }, { toolName: "try_fix", args: { files: { "score.js": rightFix } } }] };
    const { ctx, sink } = fixerContext({ turns: [both], calls });
    const error = await workflowHarness.run(single, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FixerExhaustedError);
    expect((error as FixerExhaustedError).attempts.map((attempt) => attempt.error.code)).toEqual(["sandbox.guest_threw"]);
    expect(calls).toEqual(["a"]);
    const refused = payloadsOf(sink.events, "harness.tool_call.succeeded").find(
      (payload) => payload.toolName === "try_fix" && (payload.args as { files: Record<string, string> }).files["score.js"] === rightFix,
    );
    expect(refused).toMatchObject({ result: { ok: false, error: { name: "FixerAttemptsExhausted" } } });
  });

  it("does not open a session when earlier fix sessions used every attempt", async () => {
    const { ctx, sink, model } = fixerContext({ turns: script, calls: [] });
    await expect(workflowHarness.run({ ...task, priorFixAttempts: 3 }, ctx)).rejects.toBeInstanceOf(FixerExhaustedError);
    expect(model.calls).toHaveLength(0);
    expect(sink.events).toEqual([]);
  });
});
