import { canonicalJson, sha256DigestOfBytes } from "@little-stack/canonical";
import type { LwirOutputMode } from "@little-stack/lwir";
import { executeCode, type SandboxLimits } from "@little-stack/sandbox";
import { jsonSchema, tool } from "ai";
import { toErrorEnvelope, type ErrorEnvelope } from "../contract/error-envelope.js";
import { outputModeMismatches } from "./output-mode-mismatches.js";
import type { OutputMismatch } from "./output-schema-errors.js";

export type TestCodeInput = {
  readonly files: Readonly<Record<string, string>>;
  readonly entrypoint: string;
  readonly input?: unknown;
  readonly output?: LwirOutputMode;
  readonly toolStubs?: Readonly<Record<string, unknown>>;
};

/** What `test_code` returns to the model (recorded as the tool result). */
export type TestCodeResult =
  | { readonly ok: true; readonly output: unknown; readonly logs: readonly string[]; readonly toolCalls: readonly { readonly toolName: string; readonly args: unknown }[] }
  | { readonly ok: false; readonly error: ErrorEnvelope; readonly mismatches?: readonly OutputMismatch[]; readonly logs?: readonly string[] };

const testCodeInput = jsonSchema<TestCodeInput>({
  type: "object",
  properties: {
    files: { type: "object", description: "Path → full source of every file (e.g. { \"main.ts\": \"export async function run({ input, tools }) { … }\" }); no hashes needed.", additionalProperties: { type: "string" } },
    entrypoint: { type: "string", description: "The file that exports run (.ts or .js)." },
    input: { description: "The step input the code receives as `input` (what the step's input / with.args / the workflow input resolves to)." },
    output: { type: "object", description: "Optional output mode to check the result against, as in the step: { mode: \"object\", schema } …" },
    toolStubs: { type: "object", description: "Optional: tool name → the result every tools.<name>(…) call returns. Real tools cannot run while planning." },
  },
  required: ["files", "entrypoint"],
  additionalProperties: false,
});

class ToolNotExecutableWhilePlanningError extends Error {
  override readonly name = "ToolNotExecutableWhilePlanning";
}

/**
 * `test_code`: runs code in the same QuickJS sandbox (same limits) that executes code.run steps,
 * so the planner can check a body before it puts it in a plan. Workflow tools are not executable
 * while planning: a call answers from `toolStubs` when the model gave one, else throws an error
 * the code sees, saying so. The output is checked against `output` when given.
 */
export function createTestCodeTool(options: {
  readonly runId: string;
  readonly toolNames: readonly string[];
  readonly limits?: Partial<SandboxLimits>;
  readonly abortSignal?: AbortSignal;
}) {
  return tool({
    description: "Run code.run source in the step sandbox with an input; returns { ok: true, output, logs, toolCalls } or { ok: false, error }. Free: spends no revision.",
    inputSchema: testCodeInput,
    execute: async (request, { toolCallId }): Promise<TestCodeResult> => {
      const files = Object.fromEntries(Object.entries(request.files ?? {}).map(([path, content]) => [path, { content: String(content), sha256: sha256DigestOfBytes(String(content)) }]));
      const stubs = request.toolStubs ?? {};
      const toolCalls: { toolName: string; args: unknown }[] = [];
      try {
        const result = await executeCode({
          files,
          entrypoint: request.entrypoint,
          input: request.input ?? null,
          determinismSeed: `${options.runId}/test_code/${toolCallId}`,
          allowedTools: [...new Set([...options.toolNames, ...Object.keys(stubs)])],
          ...(options.limits === undefined ? {} : { limits: options.limits }),
          ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
          callTool: async ({ toolName, args }) => {
            toolCalls.push({ toolName, args });
            if (Object.hasOwn(stubs, toolName)) return JSON.parse(canonicalJson(stubs[toolName] ?? null)) as unknown;
            throw new ToolNotExecutableWhilePlanningError(`tools.${toolName}(…) cannot run while planning (tools are executed only when the workflow runs); pass toolStubs: { "${toolName}": <a result> } to test code that calls it.`);
          },
        });
        if (request.output !== undefined) {
          const mismatches = outputModeMismatches(request.output, result.output);
          if (mismatches.length > 0) {
            return { ok: false, error: { name: "OutputMismatch", message: "The code ran, but its output does not match the output mode.", retriable: false }, mismatches, logs: result.logs ?? [] };
          }
        }
        return { ok: true, output: result.output, logs: result.logs ?? [], toolCalls };
      } catch (error) {
        if (options.abortSignal?.aborted === true) throw error;
        const details = (error as { details?: { logs?: unknown } }).details;
        const logs = Array.isArray(details?.logs) ? (details.logs as string[]).slice(-20) : undefined;
        return { ok: false, error: toErrorEnvelope(error), ...(logs === undefined || logs.length === 0 ? {} : { logs }) };
      }
    },
  });
}
