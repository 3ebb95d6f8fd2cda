import { sha256DigestOfBytes } from "@little-stack/canonical";
import { z } from "zod";

/** A code.run file as a fixed plan needs it: content and its `sha256:` digest. */
export function codeFile(content: string): { content: string; sha256: string } {
  return { content, sha256: sha256DigestOfBytes(content) };
}

/** The JSON Schema of a Zod schema, as a plan writes it. */
export function schemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema) as Record<string, unknown>;
}

/** A fixed plan's header: the definition's id and schemas, and the permissions. */
export function document(options: {
  readonly name: string;
  readonly input: z.ZodType | Record<string, unknown>;
  readonly output: z.ZodType | Record<string, unknown> | boolean;
  readonly models?: readonly string[];
  readonly tools?: readonly string[];
  readonly steps: readonly unknown[];
}): Record<string, unknown> {
  const json = (schema: z.ZodType | Record<string, unknown> | boolean) => (schema instanceof z.ZodType ? schemaOf(schema) : schema);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: options.name },
    input: { schema: json(options.input) },
    output: { schema: json(options.output) },
    permissions: { models: [...(options.models ?? [])], tools: [...(options.tools ?? [])] },
    steps: options.steps,
  };
}

/** The fan-in output mode of a parallel step whose branch output has `branchOutput` as schema. */
export function fanIn(branchOutput: unknown): Record<string, unknown> {
  return {
    mode: "array",
    schema: {
      type: "array",
      items: {
        type: "object",
        required: ["itemKey", "status", "artifacts"],
        properties: {
          itemKey: { type: "string" },
          status: { type: "string", enum: ["completed", "failed"] },
          output: branchOutput,
          outputRef: { type: "string" },
          error: { type: "object" },
          artifacts: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
}
