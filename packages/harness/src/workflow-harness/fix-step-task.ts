import { canonicalJson, LittleWorkflowError, sha256DigestOfBytes } from "@little-stack/canonical";
import type { LwirCodeFile, LwirCodeRunStep } from "@little-stack/lwir";
import type { SandboxLimits } from "@little-stack/sandbox";
import { jsonSchema, tool, type ModelMessage, type ToolSet } from "ai";
import { toErrorEnvelope, type ErrorEnvelope } from "../contract/error-envelope.js";
import type { FixStepTask, HarnessResult } from "../contract/harness.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { allowedToolNames, pickTools } from "./allowed-tools.js";
import { FixerExhaustedError, type FixAttempt } from "./agent-task-errors.js";
import { CodeOutputSchemaError } from "./output-schema-errors.js";
import { promptToolDescriptions } from "./prompt-tool-descriptions.js";
import { fixerAddendum } from "./role-addenda.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { runCodeInSandbox } from "./run-code-in-sandbox.js";
import { sessionBashTool } from "./session-bash-tool.js";
import { countToolCalls, toolCallOutcomes } from "./tool-call-history.js";
import { stepPathOf, type WorkflowHarnessContext } from "./workflow-harness-context.js";
import { withDurableSession } from "./with-durable-session.js";
import { FixStepUnsupportedError } from "./workflow-harness-errors.js";

/** What `try_fix` returns to the model (recorded as the tool result). */
export type TryFixResult =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: ErrorEnvelope & { readonly mismatches?: readonly unknown[]; readonly logs?: readonly string[] } };

const refusedName = "FixerAttemptsExhausted";

const tryFixInput = jsonSchema<{ files: Record<string, string> }>({
  type: "object",
  properties: {
    files: {
      type: "object",
      description: "Path → full new content of every file you change (e.g. the entrypoint). Files you leave out keep their current content.",
      additionalProperties: { type: "string" },
    },
  },
  required: ["files"],
  additionalProperties: false,
});

/** The step's files with the fixer's changes applied, hashed as LWIR requires. */
export function applyFix(original: Readonly<Record<string, LwirCodeFile>>, changes: Readonly<Record<string, string>>): Record<string, LwirCodeFile> {
  const files: Record<string, LwirCodeFile> = { ...original };
  for (const [path, content] of Object.entries(changes)) files[path] = { content, sha256: sha256DigestOfBytes(content) };
  return files;
}

function failureOf(error: unknown): TryFixResult {
  const envelope = toErrorEnvelope(error);
  const details = LittleWorkflowError.is(error) ? (error as LittleWorkflowError & { details?: Record<string, unknown> }).details : undefined;
  const logs = Array.isArray(details?.logs) ? (details.logs as string[]).slice(-20) : undefined;
  return {
    ok: false,
    error: {
      ...envelope,
      ...(error instanceof CodeOutputSchemaError ? { mismatches: error.mismatches } : {}),
      ...(logs === undefined || logs.length === 0 ? {} : { logs }),
    },
  };
}

function fixerBrief(task: FixStepTask, step: LwirCodeRunStep): string {
  const sources = Object.entries(step.with.files)
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([path, file]) => `--- ${path}${path === step.with.entrypoint ? " (entrypoint)" : ""}\n${file.content}`)
    .join("\n\n");
  return [
    `The code.run step "${step.id}" failed.`,
    `Error: ${canonicalJson(task.originalAttemptError)}`,
    `Output mode (the output must match it): ${canonicalJson(step.output)}`,
    `Step input (JSON): ${canonicalJson(task.stepInput ?? null)}`,
    `Source files:\n${sources}`,
    "Repair the source and call try_fix with the changed files.",
  ].join("\n\n");
}

/**
 * fix_step: an agent loop (role fixer) with bash and a `try_fix` tool that runs a repaired
 * source in the same sandbox as the step (same input, same tools, each tool call recorded with
 * caller "code") and checks the output schema. The first try that works ends the session;
 * `fixedSource` (the repaired entrypoint) and the full repaired file map are recorded in
 * `harness.session.completed`. At most `onFailure.fixer.maxAttempts − priorFixAttempts` tries.
 */
export async function runFixStepTask(options: {
  readonly task: FixStepTask;
  readonly ctx: WorkflowHarnessContext;
  readonly maxSteps: number;
  readonly defaultMaxAttempts: number;
  readonly sandboxLimits?: Partial<SandboxLimits>;
}): Promise<HarnessResult> {
  const { task, ctx } = options;
  const step = task.step;
  if (step.uses !== "code.run") throw new FixStepUnsupportedError({ stepId: step.id, uses: step.uses });
  const maxAttempts = step.onFailure?.fixer?.maxAttempts ?? options.defaultMaxAttempts;
  const budget = Math.max(0, maxAttempts - task.priorFixAttempts);
  const stepPath = stepPathOf(task, ctx);
  const system = ctx.system ?? step.onFailure?.fixer?.system;
  const fixerCtx: WorkflowHarnessContext = { ...ctx, ...(system === undefined ? {} : { system }) };
  const codeTools = pickTools(ctx.tools, allowedToolNames(ctx));

  if (budget === 0) throw new FixerExhaustedError({ stepId: step.id, maxAttempts, attempts: [] });

  const body = async (session: HarnessSession) => {
    // Tries started per turn in this process (a turn is identified by the length of its prompt),
    // so that several try_fix calls in one response are counted in call order.
    const startedInTurn = new Map<number, number>();
    const tryFix = tool({
      description: "Run a repaired source in the step's sandbox with the step's input; returns { ok: true, output } or { ok: false, error }.",
      inputSchema: tryFixInput,
      execute: async ({ files }, { toolCallId, messages }): Promise<TryFixResult> => {
        const inTurn = startedInTurn.get(messages.length) ?? 0;
        startedInTurn.set(messages.length, inTurn + 1);
        if (countToolCalls(messages as ModelMessage[], "try_fix") + inTurn >= budget) {
          return { ok: false, error: { name: refusedName, message: `No tries left (maxAttempts ${maxAttempts}); this source was not run.` } };
        }
        const candidate = applyFix(step.with.files, files ?? {});
        try {
          const output = await runCodeInSandbox({
            session,
            stepId: step.id,
            stepPath,
            files: candidate,
            entrypoint: step.with.entrypoint,
            input: task.stepInput,
            outputMode: step.output,
            tools: codeTools,
            callNamespace: `${session.sessionKey}/${toolCallId}`,
            abortSignal: ctx.abortSignal,
            ...(options.sandboxLimits === undefined ? {} : { limits: options.sandboxLimits }),
          });
          return { ok: true, output };
        } catch (error) {
          if (ctx.abortSignal?.aborted === true) throw error;
          return failureOf(error);
        }
      },
    });
    const bash = sessionBashTool(fixerCtx);
    const tools: ToolSet = { ...(bash === undefined ? {} : { bash }), try_fix: tryFix };
    const result = await runAgentLoop({
      session,
      ctx: fixerCtx,
      roleAddendum: fixerAddendum,
      promptTools: await promptToolDescriptions(codeTools),
      tools,
      messages: [{ role: "user", content: fixerBrief(task, step) }],
      maxSteps: options.maxSteps,
      stopWhen: ({ steps }) => {
        const tries = toolCallOutcomes(steps, "try_fix");
        return tries.length >= budget || tries.some((entry) => (entry.output as TryFixResult).ok);
      },
    });
    // Refused calls (over the budget) did not run: they are not attempts.
    const tries = toolCallOutcomes(result.steps, "try_fix").filter((entry) => (entry.output as TryFixResult).ok || (entry.output as { error: ErrorEnvelope }).error.name !== refusedName);
    const attempts: FixAttempt[] = [];
    for (const [index, entry] of tries.entries()) {
      const outcome = entry.output as TryFixResult;
      if (outcome.ok) {
        const fixedFiles = applyFix(step.with.files, (entry.input as { files?: Record<string, string> }).files ?? {});
        const fixedSource = fixedFiles[step.with.entrypoint]!.content;
        const used = task.priorFixAttempts + index + 1;
        return {
          result: { kind: "fix_step" as const, output: outcome.output, fixedSource, attempts: used },
          completion: { output: outcome.output, fixedSource, fixedFiles, attempts: used },
        };
      }
      attempts.push({ attempt: task.priorFixAttempts + index + 1, error: outcome.error });
    }
    throw new FixerExhaustedError({ stepId: step.id, maxAttempts, attempts });
  };

  return withDurableSession({
    task,
    ctx: fixerCtx,
    fromRecorded: (output) => {
      const recorded = output as { output: unknown; fixedSource: string; attempts: number };
      return { kind: "fix_step", output: recorded.output, fixedSource: recorded.fixedSource, attempts: recorded.attempts };
    },
    body,
  });
}
