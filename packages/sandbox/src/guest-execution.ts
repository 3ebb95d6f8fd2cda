import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
} from "quickjs-emscripten";
import { errorTextLimits, truncationMarkerRoom } from "./error-text-limits.js";
import { guestPreludeSource } from "./guest-prelude.js";
import { resolveModuleSpecifier } from "./module-resolution.js";
import type {
  ExecuteRequestMessage,
  ExecutionFailure,
  ExecutionOutcome,
  ToolCallMessage,
  ToolResultMessage,
} from "./worker-protocol.js";

const wasmPageBytes = 64 * 1024;
/** The QuickJS build declares a memory import of at least 256 pages. */
const minimumPages = 256;
/** Within this many bytes of the maximum, a failure that cannot be described is treated as OOM. */
const nearlyFullBytes = 2 * 1024 * 1024;
/** Module name given to imports that do not resolve; absolute, so it is never a step file path. */
const unresolvedPrefix = "/unresolved:";

export type GuestExecutionOptions = {
  readonly request: ExecuteRequestMessage;
  readonly wasmModule: WebAssembly.Module;
  readonly postToolCall: (message: ToolCallMessage) => void;
};

type ErrorFacts = { readonly name: string; readonly message: string; readonly stack: string };

type Settled =
  | { readonly state: "fulfilled"; readonly value: QuickJSHandle }
  | { readonly state: "rejected"; readonly error: QuickJSHandle }
  | { readonly state: "failed"; readonly failure: ExecutionFailure };

/** A QuickJS compile error's stack is one frame without a function name: "    at file.js:2:34". */
const compileLocation = /^\s*at ([^\s()]+):(\d+):(\d+)\s*$/;

/**
 * One execution of a code.run step inside a fresh QuickJS/WASM instance whose memory has a fixed
 * maximum. Runs inside a worker thread; the host enforces the wall clock by terminating it.
 */
export class GuestExecution {
  readonly logs: string[] = [];
  toolCallCount = 0;

  private readonly request: ExecuteRequestMessage;
  private readonly wasmModule: WebAssembly.Module;
  private readonly postToolCall: (message: ToolCallMessage) => void;
  private readonly memory: WebAssembly.Memory;
  private readonly pendingToolCalls = new Map<number, { deferred: QuickJSDeferredPromise; toolName: string }>();
  private readonly inbox: ToolResultMessage[] = [];
  private readonly resolutionFailures: Extract<ExecutionFailure, { kind: "module_not_found" }>[] = [];
  private syntaxFailure: Extract<ExecutionFailure, { kind: "syntax_error" }> | undefined;
  private wake: (() => void) | undefined;
  private interrupted = false;
  private logBytes = 0;
  private logsTruncated = false;
  private context: QuickJSContext | undefined;
  /** The original String.prototype.slice, taken before guest code runs: cuts long error texts inside the VM. */
  private sliceText: QuickJSHandle | undefined;
  /** Set when the WASM memory could not grow: an allocation failed for want of memory. */
  private memoryExhausted = false;

  constructor(options: GuestExecutionOptions) {
    this.request = options.request;
    this.wasmModule = options.wasmModule;
    this.postToolCall = options.postToolCall;
    const maximum = Math.max(minimumPages, Math.floor(options.request.limits.memoryBytes / wasmPageBytes));
    this.memory = new WebAssembly.Memory({ initial: minimumPages, maximum });
    // The engine grows its heap through this object; a refused grow is how an allocation fails.
    // QuickJS then often cannot even allocate the exception and throws null, which alone would
    // read as a guest `throw null` — the flag tells the two apart.
    const grow = this.memory.grow.bind(this.memory);
    this.memory.grow = (delta: number): number => {
      try {
        return grow(delta);
      } catch (error) {
        this.memoryExhausted = true;
        throw error;
      }
    };
  }

  /** Called by the worker when the host answers a tool call; applied between guest jobs. */
  deliverToolResult(message: ToolResultMessage): void {
    this.inbox.push(message);
    this.wake?.();
  }

  async run(): Promise<ExecutionOutcome> {
    try {
      return await this.runUnguarded();
    } catch (error) {
      return { ok: false, failure: this.classifyHostException(error) };
    }
  }

  private async runUnguarded(): Promise<ExecutionOutcome> {
    const { request } = this;
    const quickjs = await newQuickJSWASMModuleFromVariant(
      newVariant(RELEASE_SYNC, { wasmModule: this.wasmModule, wasmMemory: this.memory }),
    );
    const runtime = quickjs.newRuntime();
    runtime.setMaxStackSize(request.limits.stackBytes);
    // Once it fires it keeps firing: after the deadline no guest code runs again.
    runtime.setInterruptHandler(() => {
      if (this.interrupted) return true;
      if (Date.now() >= request.deadline) this.interrupted = true;
      return this.interrupted;
    });
    runtime.setModuleLoader(
      (moduleName) => this.loadModule(moduleName),
      (importer, specifier) => this.normalizeModule(importer, specifier),
    );
    const context = runtime.newContext();
    this.context = context;

    const invoke = this.installPrelude(context);
    if ("failure" in invoke) return { ok: false, failure: invoke.failure };

    const entry = this.evaluateEntry(context);
    const namespace = await this.settle(runtime, entry);
    if (namespace.state === "failed") return { ok: false, failure: namespace.failure };
    if (namespace.state === "rejected") return { ok: false, failure: this.classifyGuestError(namespace.error, "load") };

    const called = context.callFunction(invoke.handle, context.undefined, namespace.value, context.newString(request.inputJson));
    const envelope = await this.settle(runtime, called.error ? { error: called.error } : { value: called.value });
    if (envelope.state === "failed") return { ok: false, failure: envelope.failure };
    if (envelope.state === "rejected") return { ok: false, failure: this.classifyGuestError(envelope.error, "run") };
    return this.readEnvelope(context, envelope.value);
  }

  private installPrelude(context: QuickJSContext): { handle: QuickJSHandle } | { failure: ExecutionFailure } {
    const { request } = this;
    const slice = context.evalCode("String.prototype.slice", "<sandbox-intrinsics>", { type: "global" });
    if (slice.error) return { failure: this.classifyGuestError(slice.error, "prelude") };
    this.sliceText = slice.value;
    const factory = context.evalCode(guestPreludeSource, "<sandbox-prelude>", { type: "global" });
    if (factory.error) return { failure: this.classifyGuestError(factory.error, "prelude") };
    const config = context.newString(
      JSON.stringify({ seedWords: request.seedWords, clockStartMs: request.clockStartMs, allowedTools: request.allowedTools, errorTextLimits: { ...errorTextLimits, markerRoom: truncationMarkerRoom } }),
    );
    const callTool = context.newFunction("callTool", (nameHandle, argsHandle) =>
      this.bridgeToolCall(context, context.getString(nameHandle), context.getString(argsHandle)),
    );
    const log = context.newFunction("log", (levelHandle, textHandle) => {
      this.addLog(context.getString(levelHandle), context.getString(textHandle));
    });
    const made = context.callFunction(factory.value, context.undefined, config, callTool, log);
    if (made.error) return { failure: this.classifyGuestError(made.error, "prelude") };
    return { handle: made.value };
  }

  private evaluateEntry(context: QuickJSContext): { value: QuickJSHandle } | { error: QuickJSHandle } | { failure: ExecutionFailure } {
    const { entrypoint, files } = this.request;
    const source = files[entrypoint] ?? { code: "" };
    if ("syntaxError" in source) return { failure: { kind: "syntax_error", file: entrypoint, ...source.syntaxError } };
    const result = context.evalCode(source.code, entrypoint, { type: "module" });
    return result.error ? { error: result.error } : { value: result.value };
  }

  /** Runs guest jobs and waits for tool results until `start` settles, the deadline passes, or nothing can settle it. */
  private async settle(
    runtime: QuickJSRuntime,
    start: { value: QuickJSHandle } | { error: QuickJSHandle } | { failure: ExecutionFailure },
  ): Promise<Settled> {
    if ("failure" in start) return { state: "failed", failure: start.failure };
    if ("error" in start) return { state: "rejected", error: start.error };
    const context = this.context as QuickJSContext;
    for (;;) {
      if (this.interrupted) return { state: "failed", failure: { kind: "timeout" } };
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        // Only uncatchable errors escape a job (interrupt, out of memory); the promise they would
        // have settled stays pending, so they decide the outcome here.
        const failure = this.classifyGuestError(jobs.error, "run");
        jobs.error.dispose();
        if (failure.kind === "timeout" || failure.kind === "out_of_memory") return { state: "failed", failure };
      }
      if (this.interrupted) return { state: "failed", failure: { kind: "timeout" } };
      const state = context.getPromiseState(start.value);
      if (state.type === "fulfilled") return { state: "fulfilled", value: state.value };
      if (state.type === "rejected") return { state: "rejected", error: state.error };
      if (runtime.hasPendingJob()) continue;
      if (this.inbox.length === 0) {
        if (this.pendingToolCalls.size === 0) {
          return { state: "failed", failure: { kind: "guest_stalled", pendingToolCalls: 0 } };
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
      // Check the clock before touching the guest again: a late answer must not resume it.
      if (Date.now() >= this.request.deadline) {
        this.interrupted = true;
        return { state: "failed", failure: { kind: "timeout" } };
      }
      this.applyToolResults(context);
    }
  }

  private applyToolResults(context: QuickJSContext): void {
    for (const message of this.inbox.splice(0)) {
      const pending = this.pendingToolCalls.get(message.callIndex);
      if (!pending) continue;
      this.pendingToolCalls.delete(message.callIndex);
      const { deferred, toolName } = pending;
      if (message.ok) {
        const value = context.newString(message.resultJson);
        deferred.resolve(value);
        value.dispose();
      } else {
        const error = this.newBridgeError(context, {
          name: "ToolCallError",
          kind: "tool_call_failed",
          toolName,
          callIndex: message.callIndex,
          message: message.message,
        });
        deferred.reject(error);
        error.dispose();
      }
      deferred.dispose();
    }
  }

  private bridgeToolCall(context: QuickJSContext, toolName: string, argsJson: string): QuickJSHandle {
    const deferred = context.newPromise();
    const { allowedTools, limits } = this.request;
    if (!allowedTools.includes(toolName)) {
      const error = this.newBridgeError(context, {
        name: "ToolNotAllowedError",
        kind: "tool_not_allowed",
        toolName,
        callIndex: -1,
        message:
          `tools.${toolName} is not available to this step; allowed tools: ` +
          `${allowedTools.length === 0 ? "none" : allowedTools.join(", ")} (the plan's permissions.tools).`,
      });
      deferred.reject(error);
      error.dispose();
      return this.detach(deferred);
    }
    if (this.toolCallCount >= limits.maxToolCalls) {
      const error = this.newBridgeError(context, {
        name: "ToolCallLimitError",
        kind: "tool_call_limit",
        toolName,
        callIndex: -1,
        message: `tools.${toolName} refused: this execution already made ${limits.maxToolCalls} tool calls (limits.maxToolCalls).`,
      });
      deferred.reject(error);
      error.dispose();
      return this.detach(deferred);
    }
    const callIndex = this.toolCallCount;
    this.toolCallCount += 1;
    this.pendingToolCalls.set(callIndex, { deferred, toolName });
    this.postToolCall({ type: "tool_call", callIndex, toolName, argsJson });
    return deferred.handle.dup();
  }

  private detach(deferred: QuickJSDeferredPromise): QuickJSHandle {
    const handle = deferred.handle.dup();
    deferred.dispose();
    return handle;
  }

  private newBridgeError(
    context: QuickJSContext,
    facts: { name: string; kind: string; toolName: string; callIndex: number; message: string },
  ): QuickJSHandle {
    const error = context.newError({ name: facts.name, message: facts.message });
    for (const [key, value] of [
      ["kind", context.newString(facts.kind)],
      ["toolName", context.newString(facts.toolName)],
      ["callIndex", context.newNumber(facts.callIndex)],
    ] as const) {
      context.setProp(error, key, value);
      value.dispose();
    }
    return error;
  }

  private addLog(level: string, text: string): void {
    if (this.logsTruncated) return;
    const line = level === "log" ? text : `[${level}] ${text}`;
    const bytes = Buffer.byteLength(line, "utf8");
    if (this.logBytes + bytes > this.request.limits.maxLogBytes) {
      this.logsTruncated = true;
      this.logs.push(`[sandbox] further console output dropped (limits.maxLogBytes = ${this.request.limits.maxLogBytes})`);
      return;
    }
    this.logBytes += bytes;
    this.logs.push(line);
  }

  private loadModule(moduleName: string): string | { error: Error } {
    const unresolved = this.resolutionFailures[Number(moduleName.slice(unresolvedPrefix.length))];
    if (moduleName.startsWith(unresolvedPrefix) && unresolved) return { error: new Error(unresolved.message) };
    const source = Object.hasOwn(this.request.files, moduleName) ? this.request.files[moduleName] : undefined;
    if (source === undefined) return { error: new Error(`No step file "${moduleName}".`) };
    if ("syntaxError" in source) {
      const { line, column, message } = source.syntaxError;
      this.syntaxFailure ??= { kind: "syntax_error", file: moduleName, line, column, message };
      return { error: new SyntaxError(`${moduleName}:${line}:${column}: ${message}`) };
    }
    return source.code;
  }

  private normalizeModule(importer: string, specifier: string): string {
    const files = this.request.files;
    const resolution = resolveModuleSpecifier(importer, specifier, (path) => Object.hasOwn(files, path));
    if (resolution.ok) return resolution.path;
    // quickjs-emscripten 0.32 mishandles a normalizer error (the import then loads ""), so the
    // failure is routed to a name no file can have, and the loader raises it.
    this.resolutionFailures.push({ kind: "module_not_found", importer, specifier, message: resolution.message });
    return `${unresolvedPrefix}${this.resolutionFailures.length - 1}`;
  }

  private readEnvelope(context: QuickJSContext, envelope: QuickJSHandle): ExecutionOutcome {
    const okHandle = context.getProp(envelope, "ok");
    const ok = context.typeof(okHandle) === "boolean" && context.dump(okHandle) === true;
    okHandle.dispose();
    if (ok) {
      const jsonHandle = context.getProp(envelope, "json");
      const isText = context.typeof(jsonHandle) === "string";
      const outputJson = isText ? context.getString(jsonHandle) : "";
      jsonHandle.dispose();
      if (!isText) return { ok: false, failure: { kind: "output_not_json", path: "$", problem: "it has no JSON text (a toJSON() returned undefined?)" } };
      const bytes = Buffer.byteLength(outputJson, "utf8");
      if (bytes > this.request.limits.maxOutputBytes) return { ok: false, failure: { kind: "output_too_large", bytes } };
      return { ok: true, outputJson };
    }
    const facts = this.readProps(context, envelope, ["kind", "name", "message", "stack", "toolName", "callIndex", "path", "problem"]);
    return { ok: false, failure: this.classifyEnvelopeFailure(facts) };
  }

  private classifyEnvelopeFailure(facts: Record<string, string>): ExecutionFailure {
    const message = facts["message"] ?? "";
    switch (facts["kind"]) {
      case "invalid_entrypoint":
        return { kind: "invalid_entrypoint", message };
      case "output_not_json":
        return { kind: "output_not_json", path: facts["path"] ?? "$", problem: facts["problem"] ?? "" };
      case "tool_not_allowed":
        return { kind: "tool_not_allowed", toolName: facts["toolName"] ?? "" };
      case "tool_call_limit":
        return { kind: "tool_call_limit", toolName: facts["toolName"] ?? "" };
      case "tool_call_failed":
        return { kind: "tool_call_failed", toolName: facts["toolName"] ?? "", callIndex: Number(facts["callIndex"]), message };
      default:
        return this.classifyErrorFacts({ name: facts["name"] ?? "Error", message, stack: facts["stack"] ?? "" }, "run");
    }
  }

  private classifyGuestError(handle: QuickJSHandle, phase: "prelude" | "load" | "run"): ExecutionFailure {
    if (this.interrupted) return { kind: "timeout" };
    const context = this.context;
    let facts: ErrorFacts = { name: "", message: "", stack: "" };
    if (context) {
      try {
        const read = this.readProps(context, handle, ["name", "message", "stack"]);
        facts = { name: read["name"] ?? "", message: read["message"] ?? "", stack: read["stack"] ?? "" };
        if (read["name"] === undefined && read["message"] === undefined) {
          facts = { name: "NonError", message: `a non-Error value was thrown: ${String(context.dump(handle))}`, stack: "" };
        }
      } catch {
        // Reading the error ran out of memory or time; the checks below still classify it.
      }
    }
    if (this.interrupted) return { kind: "timeout" };
    return this.classifyErrorFacts(facts, phase);
  }

  private classifyErrorFacts(facts: ErrorFacts, phase: "prelude" | "load" | "run"): ExecutionFailure {
    if (this.interrupted || (facts.name === "InternalError" && facts.message === "interrupted")) return { kind: "timeout" };
    // When even the exception cannot be allocated QuickJS throws null (seen as "NonError").
    const undescribed = facts.message === "" || facts.name === "NonError";
    if (facts.message === "out of memory" || (undescribed && (this.memoryExhausted || this.memoryNearlyFull()))) {
      return { kind: "out_of_memory", message: facts.message || "allocation failed" };
    }
    const resolution = this.resolutionFailures.find((failure) => facts.message === failure.message);
    if (resolution) return resolution;
    if (phase === "load") {
      if (this.syntaxFailure) return this.syntaxFailure;
      const location = compileLocation.exec(facts.stack.split("\n")[0] ?? "");
      if (facts.name === "SyntaxError" && location) {
        return {
          kind: "syntax_error",
          file: location[1] ?? this.request.entrypoint,
          line: Number(location[2]),
          column: Number(location[3]),
          message: facts.message,
        };
      }
    }
    if (phase === "prelude") return { kind: "internal", message: `sandbox prelude failed: ${facts.name}: ${facts.message}` };
    return { kind: "guest_threw", name: facts.name || "Error", message: facts.message, stack: facts.stack };
  }

  private classifyHostException(error: unknown): ExecutionFailure {
    const message = error instanceof Error ? error.message : String(error);
    if (this.interrupted) return { kind: "timeout" };
    if (error instanceof RangeError && /call stack/i.test(message)) {
      return { kind: "guest_threw", name: "InternalError", message: "stack overflow (recursion too deep for limits.stackBytes)", stack: "" };
    }
    if (this.memoryExhausted || this.memoryNearlyFull() || /out of memory|OOM|enlarge memory/i.test(message)) {
      return { kind: "out_of_memory", message };
    }
    return { kind: "internal", message: `QuickJS engine failure: ${message}` };
  }

  private memoryNearlyFull(): boolean {
    return this.memory.buffer.byteLength + nearlyFullBytes >= this.request.limits.memoryBytes;
  }

  /**
   * Reads primitive properties as strings without running guest code beyond property getters.
   * A string longer than its limit is cut inside the VM first, so the worker never copies more
   * than the limit out of it (an error thrown while the module loads skips the prelude's cut).
   */
  private readProps(context: QuickJSContext, handle: QuickJSHandle, keys: readonly string[]): Record<string, string> {
    const facts: Record<string, string> = {};
    const type = context.typeof(handle);
    if (type !== "object" && type !== "function") return facts;
    for (const key of keys) {
      const value = context.getProp(handle, key);
      const valueType = context.typeof(value);
      if (valueType === "string") facts[key] = this.readBoundedString(context, value, key === "name" ? errorTextLimits.name : key === "stack" ? errorTextLimits.stack : errorTextLimits.message);
      else if (valueType === "number" || valueType === "boolean") facts[key] = String(context.dump(value));
      value.dispose();
    }
    return facts;
  }

  private readBoundedString(context: QuickJSContext, value: QuickJSHandle, max: number): string {
    const lengthHandle = context.getProp(value, "length");
    const length = context.typeof(lengthHandle) === "number" ? context.getNumber(lengthHandle) : 0;
    lengthHandle.dispose();
    if (length <= max + truncationMarkerRoom || this.sliceText === undefined) return context.getString(value);
    const cut = context.callFunction(this.sliceText, value, context.newNumber(0), context.newNumber(max));
    if (cut.error) {
      cut.error.dispose();
      return `[a ${length}-character text that could not be read]`;
    }
    const text = context.getString(cut.value);
    cut.value.dispose();
    return `${text}… [truncated: ${length} characters in all]`;
  }
}

/** Runs one trivial execution so a fresh worker has loaded and compiled every engine path before its first real job. */
export async function warmUpEngine(wasmModule: WebAssembly.Module): Promise<void> {
  // Exercises modules, the tool bridge, promises and console, so their code paths are compiled.
  const execution: GuestExecution = new GuestExecution({
    wasmModule,
    postToolCall: (call) => execution.deliverToolResult({ type: "tool_result", callIndex: call.callIndex, ok: true, resultJson: call.argsJson }),
    request: {
      type: "execute",
      files: {
        "warm-up.js": {
          code: 'import { step } from "./step.js";\nexport async function run({ input, tools }) { console.log("warm"); return step(await tools.echo({ input })); }',
        },
        "step.js": { code: "export function step(value) { return JSON.parse(JSON.stringify(value)); }" },
      },
      entrypoint: "warm-up.js",
      inputJson: "1",
      seedWords: [1, 2, 3, 4],
      clockStartMs: 0,
      allowedTools: ["echo"],
      limits: { ...warmUpLimits },
      deadline: Date.now() + 10_000,
    },
  });
  await execution.run();
}

const warmUpLimits = {
  timeoutMs: 10_000,
  memoryBytes: minimumPages * wasmPageBytes,
  maxOutputBytes: 1024,
  maxToolCalls: 1,
  stackBytes: 256 * 1024,
  maxLogBytes: 100,
  deadlineGraceMs: 0,
};
