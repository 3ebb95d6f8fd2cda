import type { LwirCodeFile, LwirOutputMode } from "@little-stack/lwir";
import { executeCode, type SandboxLimits } from "@little-stack/sandbox";
import { asSchema, type Tool, type ToolSet } from "ai";
import { codeToolCallId } from "../agent/call-ids.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { ToolInputValidationError } from "../errors/tool-registry-errors.js";
import { outputModeMismatches } from "./output-mode-mismatches.js";
import { CodeOutputSchemaError } from "./output-schema-errors.js";

export type RunCodeInSandboxOptions = {
  readonly session: HarnessSession;
  readonly stepId: string;
  readonly stepPath: string;
  readonly files: Readonly<Record<string, LwirCodeFile>>;
  readonly entrypoint: string;
  readonly input: unknown;
  readonly outputMode: LwirOutputMode;
  /** The tools the code may call (permissions.tools ∩ ctx.tools), sorted. */
  readonly tools: ToolSet;
  readonly limits?: Partial<SandboxLimits>;
  readonly abortSignal?: AbortSignal;
  /**
   * Namespaces the ids of this execution's tool calls within the session. Undefined for the
   * step's own execution (ids from run, session key = step path + attempt, and callIndex); the
   * fixer passes one per try, since each try restarts callIndex at 0.
   */
  readonly callNamespace?: string;
};

/**
 * Runs code in `@little-stack/sandbox` with the recording tool bridge: each call the code makes
 * is recorded as `harness.tool_call.*` with `caller: "code"` under a deterministic id, and a
 * recorded result is answered from the log without calling the tool again. The output is
 * checked against the step's output mode (`CodeOutputSchemaError` lists every mismatch).
 */
export async function runCodeInSandbox(options: RunCodeInSandboxOptions): Promise<unknown> {
  const { session, tools } = options;
  const { runId } = session;
  const sessionKey = options.callNamespace ?? session.sessionKey;
  const result = await executeCode({
    files: options.files,
    entrypoint: options.entrypoint,
    input: options.input ?? null,
    // Same seed on every attempt and on replay: the same run and step draw the same numbers.
    determinismSeed: `${runId}/${options.stepPath}`,
    allowedTools: Object.keys(tools),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
    callTool: async ({ toolName, args, callIndex }) => {
      const tool = tools[toolName] as Tool | undefined;
      // The sandbox checks allowedTools too; this guards the host side independently.
      if (tool?.execute === undefined) throw new Error(`Tool "${toolName}" is not callable from this step.`);
      const input = await validatedInput(tool, toolName, args);
      const callId = codeToolCallId({ runId, sessionKey, callIndex });
      const execute = tool.execute;
      return session.callTool({
        toolName,
        args: input,
        callId,
        callIndex,
        execute: () => execute.call(tool, input, { toolCallId: callId, messages: [], ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) }),
      });
    },
  });
  const mismatches = outputModeMismatches(options.outputMode, result.output);
  if (mismatches.length > 0) throw new CodeOutputSchemaError({ stepId: options.stepId, mismatches });
  return result.output;
}

async function validatedInput(tool: Tool, toolName: string, args: unknown): Promise<unknown> {
  const schema = asSchema(tool.inputSchema);
  if (schema.validate === undefined) return args;
  const checked = await schema.validate(args);
  if (!checked.success) throw new ToolInputValidationError({ name: toolName, problem: checked.error.message });
  return checked.value;
}
