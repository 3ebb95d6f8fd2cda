import { sha256DigestOfBytes } from "@little-stack/canonical";
import { registerWorkflowVersion, type LwirDocument, type LwirStep } from "@little-stack/lwir";
import type { WorkflowVersionLike } from "../execution/workflow-version.js";

export function lwirDocument(options: {
  readonly steps: readonly LwirStep[];
  readonly tools?: readonly string[];
  readonly models?: readonly string[];
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "test.workflow" },
    input: { schema: (options.inputSchema ?? { type: "object" }) as never },
    output: { schema: (options.outputSchema ?? true) as never },
    permissions: { tools: [...(options.tools ?? [])], models: [...(options.models ?? [])] },
    steps: options.steps,
  } as LwirDocument;
}

export function versionOf(lwir: LwirDocument): WorkflowVersionLike {
  const version = registerWorkflowVersion(lwir);
  return { id: version.id, hash: version.hash, lwir: version.lwir as LwirDocument };
}

export function codeFiles(content: string): Record<string, { content: string; sha256: string }> {
  return { "main.js": { content, sha256: sha256DigestOfBytes(content) } };
}

/** The output schema of a parallel step's fan-in (every entry's envelope, completed or failed). */
export const fanInSchema = {
  type: "array",
  items: {
    type: "object",
    properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, error: {}, artifacts: { type: "array" } },
    required: ["itemKey", "status", "artifacts"],
  },
};
