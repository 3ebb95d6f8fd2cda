import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * The recorder refused an event. Every subclass names the event type and the JSON path of the
 * offending field; nothing was appended when one is thrown.
 */
export class HarnessEventValidationError extends LittleWorkflowError {
  readonly eventType: string;
  readonly path: string;

  constructor(options: { code: string; eventType: string; path: string; message: string }) {
    super(options.code, `Harness event "${options.eventType}" rejected at ${options.path}: ${options.message}`, {
      details: { eventType: options.eventType, path: options.path },
    });
    this.eventType = options.eventType;
    this.path = options.path;
  }
}

/** The type is not one of the `harness.*` event types. */
export class UnknownHarnessEventTypeError extends HarnessEventValidationError {
  constructor(eventType: string) {
    super({
      code: "harness.unknown_event_type",
      eventType,
      path: "$.type",
      message: "not a harness event type; use one of harness.session.*, harness.model.*, harness.tool_call.*, harness.execute_step.*.",
    });
  }
}

/** A required field is missing or has the wrong JSON type. */
export class HarnessEventFieldError extends HarnessEventValidationError {
  constructor(options: { eventType: string; path: string; expected: string }) {
    super({
      code: "harness.invalid_event_field",
      eventType: options.eventType,
      path: options.path,
      message: `expected ${options.expected}.`,
    });
  }
}

/** The payload is not plain JSON (undefined inside arrays, functions, NaN, cycles …). */
export class HarnessEventNotJsonError extends HarnessEventValidationError {
  constructor(options: { eventType: string; path: string; problem: string }) {
    super({
      code: "harness.event_not_json",
      eventType: options.eventType,
      path: options.path,
      message: `payload must be canonical JSON (${options.problem}).`,
    });
  }
}

export class InvalidHarnessRoleError extends HarnessEventValidationError {
  constructor(options: { eventType: string; role: unknown }) {
    super({
      code: "harness.invalid_role",
      eventType: options.eventType,
      path: "$.payload.role",
      message: `${JSON.stringify(options.role)} is not a harness role (planner, orchestrator, worker.ai-generate, worker.code-run, worker.tool-call, fixer).`,
    });
  }
}

export class InvalidHarnessTaskKindError extends HarnessEventValidationError {
  constructor(options: { eventType: string; kind: unknown }) {
    super({
      code: "harness.invalid_task_kind",
      eventType: options.eventType,
      path: "$.payload.task.kind",
      message: `${JSON.stringify(options.kind)} is not a task kind (plan, orchestrate, execute_step, fix_step).`,
    });
  }
}

/** `manifestHash` is not the hash of `manifest`. */
export class ManifestHashMismatchError extends HarnessEventValidationError {
  constructor(options: { eventType: string; recorded: unknown; computed: string }) {
    super({
      code: "harness.manifest_hash_mismatch",
      eventType: options.eventType,
      path: "$.payload.manifestHash",
      message: `${JSON.stringify(options.recorded)} is not the hash of the manifest (${options.computed}); compute it with hashHarnessManifest(manifest).`,
    });
  }
}

/** `promptHash` is not the hash of `request`. */
export class PromptHashMismatchError extends HarnessEventValidationError {
  constructor(options: { eventType: string; recorded: unknown; computed: string }) {
    super({
      code: "harness.prompt_hash_mismatch",
      eventType: options.eventType,
      path: "$.payload.promptHash",
      message: `${JSON.stringify(options.recorded)} is not the hash of the request (${options.computed}); compute it with hashModelRequest(request).`,
    });
  }
}

/**
 * A `harness.model.called` whose `promptPrefix` cannot be resolved: the call it names is not
 * earlier in the log, or has fewer messages than the prefix claims.
 */
export class ModelPromptPrefixError extends HarnessEventValidationError {
  constructor(options: { callId: string; prefixCallId: string; problem: string }) {
    super({
      code: "harness.prompt_prefix_unresolved",
      eventType: "harness.model.called",
      path: "$.payload.promptPrefix",
      message: `call ${options.callId} starts with the prompt of call ${options.prefixCallId}, which ${options.problem}.`,
    });
  }
}

/** `turn` must be present exactly when the caller is the model. */
export class ToolCallTurnError extends HarnessEventValidationError {
  constructor(options: { eventType: string; caller: string; hasTurn: boolean }) {
    super({
      code: "harness.tool_call_turn",
      eventType: options.eventType,
      path: "$.payload.turn",
      message: options.hasTurn
        ? `a tool call with caller "${options.caller}" must not carry a turn; only model tool calls have one.`
        : `a tool call with caller "model" must carry the turn (a positive integer) it was requested in.`,
    });
  }
}

/** `costUsd` appeared in a payload: cost is derived from tokens downstream, never recorded. */
export class CostOnEventError extends HarnessEventValidationError {
  constructor(options: { eventType: string; path: string }) {
    super({
      code: "harness.cost_on_event",
      eventType: options.eventType,
      path: options.path,
      message: "costUsd is never recorded on an event; record tokens only, cost is derived from the model registry.",
    });
  }
}

/** Token counts that contradict each other (cached > input, reasoning > output). */
export class InconsistentUsageError extends HarnessEventValidationError {
  constructor(options: { eventType: string; path: string; message: string }) {
    super({ code: "harness.inconsistent_usage", ...options });
  }
}
