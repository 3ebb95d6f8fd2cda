import type { SandboxLimits } from "./sandbox-limits.js";

/** A step file ready for the engine: its JavaScript, or the syntax error that stripping its types hit. */
export type PreparedSource =
  | { readonly code: string }
  | { readonly syntaxError: { readonly line: number; readonly column: number; readonly message: string } };

/** Messages between the host (executeCode) and a sandbox worker thread. All plain data. */
export type ExecuteRequestMessage = {
  readonly type: "execute";
  /** Path → JavaScript (hash-checked and type-stripped by the host), or why it does not parse. */
  readonly files: Readonly<Record<string, PreparedSource>>;
  readonly entrypoint: string;
  readonly inputJson: string;
  readonly seedWords: readonly [number, number, number, number];
  readonly clockStartMs: number;
  readonly allowedTools: readonly string[];
  readonly limits: SandboxLimits;
  /** Absolute deadline, `Date.now()` milliseconds (one clock for every thread of the process). */
  readonly deadline: number;
};

export type ToolResultMessage =
  | { readonly type: "tool_result"; readonly callIndex: number; readonly ok: true; readonly resultJson: string }
  | { readonly type: "tool_result"; readonly callIndex: number; readonly ok: false; readonly message: string };

export type HostToWorkerMessage = ExecuteRequestMessage | ToolResultMessage;

export type ToolCallMessage = {
  readonly type: "tool_call";
  readonly callIndex: number;
  readonly toolName: string;
  readonly argsJson: string;
};

/** Why an execution failed, as the worker saw it; the host turns it into a SandboxError. */
export type ExecutionFailure =
  | { readonly kind: "syntax_error"; readonly file: string; readonly line: number; readonly column: number; readonly message: string }
  | { readonly kind: "module_not_found"; readonly importer: string; readonly specifier: string; readonly message: string }
  | { readonly kind: "invalid_entrypoint"; readonly message: string }
  | { readonly kind: "guest_threw"; readonly name: string; readonly message: string; readonly stack: string }
  | { readonly kind: "guest_stalled"; readonly pendingToolCalls: number }
  | { readonly kind: "timeout" }
  | { readonly kind: "out_of_memory"; readonly message: string }
  | { readonly kind: "output_too_large"; readonly bytes: number }
  | { readonly kind: "output_not_json"; readonly path: string; readonly problem: string }
  | { readonly kind: "tool_not_allowed"; readonly toolName: string }
  | { readonly kind: "tool_call_failed"; readonly toolName: string; readonly callIndex: number; readonly message: string }
  | { readonly kind: "tool_call_limit"; readonly toolName: string }
  | { readonly kind: "internal"; readonly message: string };

export type ExecutionOutcome =
  | { readonly ok: true; readonly outputJson: string }
  | { readonly ok: false; readonly failure: ExecutionFailure };

export type OutcomeMessage = {
  readonly type: "outcome";
  readonly outcome: ExecutionOutcome;
  readonly logs: readonly string[];
  readonly toolCallCount: number;
};

export type WorkerToHostMessage = { readonly type: "ready" } | ToolCallMessage | OutcomeMessage;
