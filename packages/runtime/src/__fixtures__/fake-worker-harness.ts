import { createToolRegistry, executeRegisteredTool, openHarnessSession, type Harness, type HarnessContext, type HarnessResult, type HarnessTask } from "@little-stack/harness";
import { isTruthy, type LwirStep } from "@little-stack/lwir";
import { generateText } from "ai";
import type { RuntimeHarnessContext } from "../execution/harness-dispatch.js";

/**
 * A small worker harness for tests, over the real contract: every task runs in a durable harness
 * session (recorded and replayed through the runtime's sink), tool.call goes through the real
 * tool registry, decision reads the resolved `when` values, ai.generate makes one model call
 * through the session-wrapped model. code.run is simulated: the entrypoint's `// OUTPUT: <json>`
 * line is the output and a `// FAIL` line makes it throw; the fixer removes `// FAIL` lines.
 */
export type FakeWorkerHarness = Harness & {
  readonly id: string;
  readonly calls: { executeStep: number; fixStep: number };
};

export function createFakeWorkerHarness(options: { readonly id?: string } = {}): FakeWorkerHarness {
  const calls = { executeStep: 0, fixStep: 0 };
  return {
    id: options.id ?? "fake-worker",
    calls,
    async run(task: HarnessTask, baseCtx: HarnessContext): Promise<HarnessResult> {
      const ctx = baseCtx as RuntimeHarnessContext;
      if (task.kind !== "execute_step" && task.kind !== "fix_step") throw new Error(`fake harness: unsupported task ${task.kind}`);
      const session = await openHarnessSession({
        recorder: ctx.recorder!,
        scope: ctx.scope,
        sessionKey: ctx.sessionKey,
        task: { kind: task.kind },
        manifest: ctx.manifest,
        stepPath: ctx.stepPath,
      });
      const recorded = session.recordedCompletion;
      if (task.kind === "execute_step") {
        calls.executeStep += 1;
        if (recorded !== undefined) return { kind: "execute_step", output: recorded.output ?? null, artifactRefs: [] };
        try {
          const output = await executeStep(task.step as LwirStep, task.stepInput, ctx, session);
          await session.complete({ output });
          return { kind: "execute_step", output, artifactRefs: [] };
        } catch (error) {
          await session.fail(error);
          throw error;
        }
      }
      calls.fixStep += 1;
      const fixedSource = sourceOf(task.step as LwirStep)
        .split("\n")
        .filter((line) => !line.includes("// FAIL"))
        .join("\n");
      if (recorded !== undefined) return { kind: "fix_step", output: (recorded.output as { output: unknown }).output, fixedSource, attempts: 1 };
      const output = outputOf(fixedSource);
      await session.complete({ output: { output, fixedSource } });
      return { kind: "fix_step", output, fixedSource, attempts: 1 };
    },
  };
}

type Session = Awaited<ReturnType<typeof openHarnessSession>>;

async function executeStep(step: LwirStep, stepInput: unknown, ctx: RuntimeHarnessContext, session: Session): Promise<unknown> {
  switch (step.uses) {
    case "tool.call":
      return executeRegisteredTool({ registry: createToolRegistry(ctx.tools), toolName: step.with.tool, args: stepInput, session, abortSignal: ctx.abortSignal });
    case "decision": {
      const hit = step.with.cases.find((entry) => isTruthy(entry.when as unknown));
      return { chosen: hit?.to ?? step.with.default };
    }
    case "ai.generate": {
      const result = await generateText({
        model: session.wrapModel(ctx.model.model),
        prompt: `${step.with.prompt}\n\n${JSON.stringify(stepInput)}`,
        ...(ctx.system === undefined ? {} : { system: ctx.system }),
        abortSignal: ctx.abortSignal,
      });
      return step.output.mode === "text" || step.output.mode === "choice" ? result.text : (JSON.parse(result.text) as unknown);
    }
    case "code.run": {
      const source = sourceOf(step);
      if (source.includes("// FAIL")) throw new Error(`code.run ${ctx.stepPath}: the entrypoint threw`);
      return outputOf(source);
    }
    default:
      throw new Error(`fake harness: ${step.uses} is the runtime's job`);
  }
}

function sourceOf(step: LwirStep): string {
  if (step.uses !== "code.run") throw new Error("not a code.run step");
  return step.with.files[step.with.entrypoint]!.content;
}

function outputOf(source: string): unknown {
  const line = source.split("\n").find((candidate) => candidate.startsWith("// OUTPUT: "));
  return line === undefined ? null : (JSON.parse(line.slice("// OUTPUT: ".length)) as unknown);
}
