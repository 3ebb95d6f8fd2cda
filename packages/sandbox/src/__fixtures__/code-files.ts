import { createHash } from "node:crypto";
import type { CodeRunFile } from "../code-files.js";
import type { ExecuteCodeOptions } from "../execute-code.js";

/** A code.run file with its correct LWIR hash. */
export function codeFile(content: string): CodeRunFile {
  return { content, sha256: `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}` };
}

/** Options for a one-file step; tools answer with an echo unless `callTool` is given. */
export function singleFileOptions(
  source: string,
  overrides: Partial<ExecuteCodeOptions> & { entrypoint?: string } = {},
): ExecuteCodeOptions {
  const entrypoint = overrides.entrypoint ?? "main.js";
  return {
    files: { [entrypoint]: codeFile(source) },
    entrypoint,
    input: null,
    determinismSeed: "run_test/step",
    allowedTools: [],
    callTool: async ({ toolName, args, callIndex }) => ({ toolName, args, callIndex }),
    ...overrides,
  };
}

/** The rejection of `promise`, or a failure if it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error("expected the promise to reject, but it resolved");
}
