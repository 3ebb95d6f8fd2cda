import type { ToolDescriptor } from "@little-stack/harness";
import type { LwirFinding } from "@little-stack/lwir";

/** What an LWIR must bind to: the definition's identity, schemas and capabilities. */
export type BindingTarget = {
  readonly workflowId: string;
  /** The definition's input schema (JSON Schema). */
  readonly inputSchema: unknown;
  /** The definition's output schema: what the run's output must satisfy. */
  readonly outputSchema: unknown;
  readonly modelSlotIds: readonly string[];
  readonly toolNames: readonly string[];
  /** The workflow's tools with their input schemas (for `tool.call` arguments) and output schemas (for `tool.call` output modes). */
  readonly tools?: readonly Pick<ToolDescriptor, "name" | "inputSchema" | "outputSchema">[];
};

/** Every finding code the binding pass can return (lwir.md §8 `binding.*`, plus five of ours). */
export const BINDING_FINDING_CODES = [
  "binding.workflow_name_mismatch",
  "binding.input_schema_mismatch",
  "binding.output_schema_mismatch",
  "binding.model_disallowed",
  "binding.tool_disallowed",
  "binding.secret_disallowed",
  "binding.network_disallowed",
  "binding.terminal_output_mismatch",
  "binding.tool_args_mismatch",
  "binding.tool_output_mismatch",
  "binding.fan_in_output_mismatch",
  "binding.unguarded_optional_read",
] as const;

export type BindingFindingCode = (typeof BINDING_FINDING_CODES)[number];

/** A finding of the binding pass: its code is one of BINDING_FINDING_CODES. */
export type BindingFinding = LwirFinding<BindingFindingCode>;
