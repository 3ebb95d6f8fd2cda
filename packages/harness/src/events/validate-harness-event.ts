import { CanonicalJsonError, CanonicalText } from "@little-stack/canonical";
import { harnessRoles, harnessTaskKinds } from "../contract/harness.js";
import { hashHarnessManifest } from "../contract/hash-harness-manifest.js";
import type { HarnessManifest } from "../contract/manifests.js";
import {
  CostOnEventError,
  HarnessEventFieldError,
  HarnessEventNotJsonError,
  InconsistentUsageError,
  InvalidHarnessRoleError,
  InvalidHarnessTaskKindError,
  ManifestHashMismatchError,
  PromptHashMismatchError,
  ToolCallTurnError,
  UnknownHarnessEventTypeError,
} from "../errors/harness-event-errors.js";
import { harnessEventTypes, type HarnessEvent, type HarnessEventType, type ModelRequest } from "./harness-event-types.js";
import { hashModelRequest } from "./hash-model-request.js";

type Json = Record<string, unknown>;

/**
 * Checks one event against the harness vocabulary and throws the named error of the first
 * violation. Returns the event typed, with the canonical text of its payload attached (except for
 * `harness.model.called`, whose request is checked through its hash instead).
 */
export function validateHarnessEvent(event: { readonly type: string; readonly payload: unknown }): HarnessEvent {
  const type = event.type;
  if (!(harnessEventTypes as readonly string[]).includes(type)) throw new UnknownHarnessEventTypeError(String(type));
  const check = new FieldChecker(type);
  const payload = check.object(event.payload, "$.payload");
  // A model request is the bulk of a payload and is serialized anyway for its promptHash check
  // (which proves it is JSON); the JSON check covers the rest.
  // A call recorded after a prompt prefix holds only its new messages: it is checked as JSON like
  // any payload (its hash covers the whole prompt, rebuilt by resolveModelCallRequests).
  const modelCall = type === "harness.model.called" && typeof payload.request === "object" && payload.promptPrefix === undefined;
  const canonicalPayload = check.json(modelCall ? { ...payload, request: null } : payload);
  check.noCost(payload, "$.payload");
  validators[type as HarnessEventType](payload, check);
  return (modelCall ? { type, payload } : { type, payload, canonicalPayload }) as HarnessEvent;
}

const userDataFields = new Set(["args", "result", "output", "messages", "toolCalls", "scope", "manifest"]);

const executeStepUses = ["ai.generate", "code.run", "tool.call", "decision", "parallel"];

const validators: Record<HarnessEventType, (payload: Json, check: FieldChecker) => void> = {
  "harness.session.started": (payload, check) => {
    check.string(payload, "runId");
    check.optionalString(payload, "sessionId");
    check.optionalString(payload, "parentRunId");
    if (!(harnessRoles as readonly unknown[]).includes(payload.role)) {
      throw new InvalidHarnessRoleError({ eventType: check.eventType, role: payload.role });
    }
    const task = check.object(payload.task, "$.payload.task");
    if (!(harnessTaskKinds as readonly unknown[]).includes(task.kind)) {
      throw new InvalidHarnessTaskKindError({ eventType: check.eventType, kind: task.kind });
    }
    const manifest = check.object(payload.manifest, "$.payload.manifest");
    checkManifestFields(manifest, String(payload.role), check);
    const computed = hashHarnessManifest(manifest as HarnessManifest);
    if (payload.manifestHash !== computed) {
      throw new ManifestHashMismatchError({ eventType: check.eventType, recorded: payload.manifestHash, computed });
    }
  },
  "harness.session.completed": (payload, check) => {
    check.string(payload, "runId");
    check.optionalString(payload, "sessionId");
    check.optionalString(payload, "stepPath");
    const usage = check.object(payload.usage, "$.payload.usage");
    for (const field of ["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"]) {
      check.count(usage, field, "$.payload.usage");
    }
    check.usageSubsets(usage, "$.payload.usage");
  },
  "harness.session.failed": (payload, check) => {
    check.string(payload, "runId");
    check.optionalString(payload, "sessionId");
    check.optionalString(payload, "stepPath");
    check.errorEnvelope(payload.error, "$.payload.error");
  },
  "harness.model.called": (payload, check) => {
    check.turn(payload);
    check.optionalString(payload, "callId");
    check.optionalString(payload, "stepPath");
    check.string(payload, "promptHash");
    const prefix = payload.promptPrefix === undefined ? undefined : check.object(payload.promptPrefix, "$.payload.promptPrefix");
    if (prefix !== undefined) {
      check.string(prefix, "callId", "$.payload.promptPrefix");
      if (check.count(prefix, "messageCount", "$.payload.promptPrefix") === 0) {
        throw new HarnessEventFieldError({ eventType: check.eventType, path: "$.payload.promptPrefix.messageCount", expected: "a positive integer (leave promptPrefix out for none)" });
      }
    }
    const request = check.object(payload.request, "$.payload.request");
    check.string(request, "model", "$.payload.request");
    check.array(request.messages, "$.payload.request.messages");
    const tools = check.array(request.tools, "$.payload.request.tools");
    tools.forEach((tool, index) => {
      const reference = check.object(tool, `$.payload.request.tools[${index}]`);
      check.string(reference, "name", `$.payload.request.tools[${index}]`);
    });
    // With a prefix, the hash is of a request this event holds only the end of.
    if (prefix !== undefined) return;
    const computed = check.jsonHash(() => hashModelRequest(request as ModelRequest), "$.payload.request");
    if (payload.promptHash !== computed) {
      throw new PromptHashMismatchError({ eventType: check.eventType, recorded: payload.promptHash, computed });
    }
  },
  "harness.model.responded": (payload, check) => {
    check.turn(payload);
    check.string(payload, "callId");
    check.optionalString(payload, "stepPath");
    check.modelIdentity(payload);
    const response = check.object(payload.response, "$.payload.response");
    check.optionalString(response, "text", "$.payload.response");
    check.optionalString(response, "reasoning", "$.payload.response");
    check.optionalString(response, "finishReason", "$.payload.response");
    if (response.toolCalls !== undefined) {
      check.array(response.toolCalls, "$.payload.response.toolCalls").forEach((call, index) => {
        const path = `$.payload.response.toolCalls[${index}]`;
        const request = check.object(call, path);
        check.string(request, "callId", path);
        check.string(request, "toolName", path);
        check.present(request, "args", path);
      });
    }
    const usage = check.object(response.usage, "$.payload.response.usage");
    check.count(usage, "inputTokens", "$.payload.response.usage");
    check.count(usage, "outputTokens", "$.payload.response.usage");
    check.optionalCount(usage, "cachedInputTokens", "$.payload.response.usage");
    check.optionalCount(usage, "reasoningTokens", "$.payload.response.usage");
    check.usageSubsets(usage, "$.payload.response.usage");
    check.optionalCount(payload, "durationMs");
  },
  "harness.model.failed": (payload, check) => {
    check.turn(payload);
    check.string(payload, "callId");
    check.optionalString(payload, "stepPath");
    check.modelIdentity(payload);
    check.errorEnvelope(payload.error, "$.payload.error");
  },
  "harness.tool_call.started": (payload, check) => {
    check.toolCall(payload);
  },
  "harness.tool_call.succeeded": (payload, check) => {
    check.toolCall(payload);
    check.present(payload, "result");
    check.optionalCount(payload, "durationMs");
  },
  "harness.tool_call.failed": (payload, check) => {
    check.toolCall(payload);
    check.errorEnvelope(payload.error, "$.payload.error");
    check.optionalCount(payload, "durationMs");
  },
  "harness.execute_step.started": (payload, check) => {
    check.executeStep(payload);
  },
  "harness.execute_step.succeeded": (payload, check) => {
    check.executeStep(payload);
    check.present(payload, "output");
  },
};

const manifestFields: Record<string, readonly string[]> = {
  planner: ["harnessId", "plannerModelSlotId", "systemPromptHash", "skillsHash", "workflowDefinitionHash", "globalToolsHash", "bashCapabilitiesHash"],
  orchestrator: ["harnessId", "orchestratorModelSlotId", "systemPromptHash", "skillsHash", "globalToolsHash", "bashCapabilitiesHash"],
  worker: ["harnessId", "workflowDefinitionHash", "workflowVersionId", "stepPath", "stepConfigHash", "skillsHash", "allowedToolsHash", "bashCapabilitiesHash"],
  fixer: ["harnessId", "workflowDefinitionHash", "workflowVersionId", "stepPath", "stepConfigHash", "skillsHash", "allowedToolsHash", "bashCapabilitiesHash", "fixerModelSlotId", "fixerSystemHash"],
};

/** The manifest must be the one for the session's role (seed 000, Identity + Manifests). */
function checkManifestFields(manifest: Json, role: string, check: FieldChecker): void {
  const kind = role.startsWith("worker.") ? "worker" : role;
  for (const field of manifestFields[kind] ?? []) check.string(manifest, field, "$.payload.manifest");
  check.array(manifest.memoryStoreIds, "$.payload.manifest.memoryStoreIds").forEach((id, index) => {
    if (typeof id !== "string") {
      throw new HarnessEventFieldError({ eventType: check.eventType, path: `$.payload.manifest.memoryStoreIds[${index}]`, expected: "a string" });
    }
  });
  if (kind === "orchestrator") {
    check.array(manifest.availableWorkflows, "$.payload.manifest.availableWorkflows");
    check.count(manifest, "maxConcurrentSubRuns", "$.payload.manifest");
  }
  if (kind === "fixer") check.count(manifest, "fixerMaxAttempts", "$.payload.manifest");
  if (kind === "worker" || kind === "fixer") {
    check.optionalString(manifest, "modelSlotId", "$.payload.manifest");
    check.optionalString(manifest, "systemPromptHash", "$.payload.manifest");
  }
  if (kind === "planner") check.optionalString(manifest, "outerLoopContextHash", "$.payload.manifest");
}

class FieldChecker {
  constructor(readonly eventType: string) {}

  private fail(path: string, expected: string): never {
    throw new HarnessEventFieldError({ eventType: this.eventType, path, expected });
  }

  object(value: unknown, path: string): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) this.fail(path, "an object");
    return value as Json;
  }

  array(value: unknown, path: string): readonly unknown[] {
    if (!Array.isArray(value)) this.fail(path, "an array");
    return value;
  }

  string(owner: Json, field: string, base = "$.payload"): string {
    const value = owner[field];
    if (typeof value !== "string" || value.length === 0) this.fail(`${base}.${field}`, "a non-empty string");
    return value;
  }

  optionalString(owner: Json, field: string, base = "$.payload"): void {
    if (owner[field] !== undefined) this.string(owner, field, base);
  }

  count(owner: Json, field: string, base = "$.payload"): number {
    const value = owner[field];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      this.fail(`${base}.${field}`, "a non-negative integer");
    }
    return value;
  }

  optionalCount(owner: Json, field: string, base = "$.payload"): void {
    if (owner[field] !== undefined) this.count(owner, field, base);
  }

  present(owner: Json, field: string, base = "$.payload"): void {
    if (!(field in owner) || owner[field] === undefined) this.fail(`${base}.${field}`, "a JSON value (use null for none)");
  }

  turn(payload: Json): void {
    const turn = payload.turn;
    if (typeof turn !== "number" || !Number.isInteger(turn) || turn < 1) this.fail("$.payload.turn", "a positive integer");
  }

  modelIdentity(payload: Json): void {
    const model = this.object(payload.model, "$.payload.model");
    this.string(model, "provider", "$.payload.model");
    this.string(model, "modelId", "$.payload.model");
  }

  errorEnvelope(value: unknown, path: string): void {
    const error = this.object(value, path);
    this.string(error, "name", path);
    if (typeof error.message !== "string") this.fail(`${path}.message`, "a string");
  }

  toolCall(payload: Json): void {
    this.string(payload, "callId");
    this.optionalString(payload, "stepPath");
    this.string(payload, "toolName");
    this.present(payload, "args");
    this.optionalCount(payload, "callIndex");
    const caller = payload.caller;
    if (caller !== "model" && caller !== "code") this.fail("$.payload.caller", '"model" or "code"');
    const hasTurn = payload.turn !== undefined;
    if (hasTurn !== (caller === "model")) throw new ToolCallTurnError({ eventType: this.eventType, caller, hasTurn });
    if (hasTurn) this.turn(payload);
  }

  executeStep(payload: Json): void {
    this.string(payload, "runId");
    this.string(payload, "stepId");
    this.string(payload, "stepPath");
    this.count(payload, "visitIndex");
    if (!executeStepUses.includes(payload.uses as string)) this.fail("$.payload.uses", `one of ${executeStepUses.join(", ")}`);
  }

  usageSubsets(usage: Json, path: string): void {
    const pairs = [
      ["cachedInputTokens", "inputTokens"],
      ["reasoningTokens", "outputTokens"],
    ] as const;
    for (const [part, whole] of pairs) {
      const partValue = usage[part];
      if (typeof partValue === "number" && partValue > (usage[whole] as number)) {
        throw new InconsistentUsageError({
          eventType: this.eventType,
          path: `${path}.${part}`,
          message: `${part} (${partValue}) is a subset of ${whole} (${String(usage[whole])}) and cannot exceed it.`,
        });
      }
    }
  }

  /** Runs a hash of part of the payload, reporting non-JSON values as HarnessEventNotJsonError. */
  jsonHash(hash: () => string, path: string): string {
    try {
      return hash();
    } catch (error) {
      if (error instanceof CanonicalJsonError) {
        throw new HarnessEventNotJsonError({ eventType: this.eventType, path: error.path.replace(/^\$/, path), problem: error.message });
      }
      throw error;
    }
  }

  json(payload: Json): CanonicalText {
    try {
      return CanonicalText.of(payload);
    } catch (error) {
      if (error instanceof CanonicalJsonError) {
        throw new HarnessEventNotJsonError({ eventType: this.eventType, path: error.path.replace(/^\$/, "$.payload"), problem: error.message });
      }
      throw error;
    }
  }

  /**
   * `costUsd` is refused anywhere in the harness's own fields (usage above all); user data (tool
   * args and results, outputs, prompt messages) may legitimately carry such a key and is skipped.
   */
  noCost(value: unknown, path: string): void {
    const trail: (string | number)[] = [];
    if (this.findCost(value, trail)) {
      const where = trail.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
      throw new CostOnEventError({ eventType: this.eventType, path: `${path}${where}` });
    }
  }

  /**
   * True when a `costUsd` key is found, `trail` then holding the way to it. The path text is only
   * made for the error: every event is checked, and formatting a path for each key it has was
   * most of the check's cost.
   */
  private findCost(value: unknown, trail: (string | number)[]): boolean {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        trail.push(index);
        if (this.findCost(value[index], trail)) return true;
        trail.pop();
      }
      return false;
    }
    if (typeof value !== "object" || value === null) return false;
    for (const key of Object.keys(value)) {
      if (userDataFields.has(key)) continue;
      trail.push(key);
      if (key === "costUsd" || this.findCost((value as Record<string, unknown>)[key], trail)) return true;
      trail.pop();
    }
    return false;
  }
}
