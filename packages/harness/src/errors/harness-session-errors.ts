import { LittleWorkflowError } from "@little-stack/canonical";

/** A session was opened or used in a way that cannot be made durable. */
export class HarnessSessionError extends LittleWorkflowError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}

/** A tool returned something that is not JSON, so it could not be recorded and replayed. */
export class ToolResultNotJsonError extends LittleWorkflowError {
  constructor(options: { toolName: string; callId: string; problem: string }) {
    super(
      "harness.tool_result_not_json",
      `Tool "${options.toolName}" (call ${options.callId}) returned a value that is not plain JSON (${options.problem}); return JSON values only so the result can be recorded and replayed.`,
      { details: { ...options } },
    );
  }
}

/** Replays a recorded tool failure: same name and message as the original error. */
export class RecordedToolCallError extends Error {
  readonly callId: string;
  readonly code?: string;

  constructor(options: { callId: string; name: string; message: string; code?: string }) {
    super(options.message);
    this.name = options.name;
    this.callId = options.callId;
    if (options.code !== undefined) this.code = options.code;
  }
}
