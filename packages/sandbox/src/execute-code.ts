import { capErrorText, errorTextLimits } from "./error-text-limits.js";
import { checkCodeFiles, type CodeRunFile } from "./code-files.js";
import { defaultClockStartMs, seedWords } from "./determinism.js";
import { SandboxOutOfMemoryError, SandboxTimeoutError } from "./errors/limit-errors.js";
import { SandboxAbortedError, SandboxInternalError, SandboxInvalidOptionsError } from "./errors/run-errors.js";
import type { SandboxError } from "./errors/sandbox-error.js";
import { sandboxErrorFromFailure } from "./failure-to-error.js";
import { findJsonProblem } from "./json-value.js";
import { prepareSources } from "./prepared-sources.js";
import { resolveSandboxLimits, type SandboxLimits } from "./sandbox-limits.js";
import { acquireWorker, releaseWorker, type SandboxWorker } from "./worker-pool.js";
import type { ExecuteRequestMessage, PreparedSource, ToolCallMessage, ToolResultMessage, WorkerToHostMessage } from "./worker-protocol.js";

export type ToolCallRequest = { readonly toolName: string; readonly args: unknown; readonly callIndex: number };

export type ExecuteCodeOptions = {
  /** LWIR `code.run` `with.files`; every hash is checked before anything runs. */
  readonly files: Readonly<Record<string, CodeRunFile>>;
  /** Key of `files`, `.ts` or `.js`, exporting `async function run({ input, tools })`. */
  readonly entrypoint: string;
  /** JSON handed to `run` as `input`. */
  readonly input: unknown;
  /** Seeds the guest's Math.random (e.g. runId + step path): same seed, same numbers. */
  readonly determinismSeed: string;
  /** Only these names are reachable as `tools.<name>(args)` from guest code. */
  readonly allowedTools: readonly string[];
  /** Host side of the bridge, JSON in and out; the host records each call and replays it by callIndex. */
  readonly callTool: (call: ToolCallRequest) => Promise<unknown>;
  readonly limits?: Partial<SandboxLimits>;
  readonly signal?: AbortSignal;
  /** First reading of the guest's logical clock (ms since epoch); pass a recorded time for replays. Default 2020-01-01. */
  readonly clockStartMs?: number;
};

export type ExecuteCodeResult = {
  readonly output: unknown;
  readonly durationMs: number;
  readonly toolCallCount: number;
  readonly logs?: readonly string[];
};

function checkOptions(options: ExecuteCodeOptions): void {
  if (typeof options.determinismSeed !== "string") {
    throw new SandboxInvalidOptionsError("determinismSeed must be a string (for example the run id and step path).", {
      details: { field: "determinismSeed" },
    });
  }
  if (!Array.isArray(options.allowedTools) || !options.allowedTools.every((name) => typeof name === "string")) {
    throw new SandboxInvalidOptionsError("allowedTools must be an array of tool names.", { details: { field: "allowedTools" } });
  }
  if (typeof options.callTool !== "function") {
    throw new SandboxInvalidOptionsError("callTool must be a function.", { details: { field: "callTool" } });
  }
  if (options.clockStartMs !== undefined && !Number.isSafeInteger(options.clockStartMs)) {
    throw new SandboxInvalidOptionsError("clockStartMs must be an integer number of milliseconds since the epoch.", {
      details: { field: "clockStartMs" },
    });
  }
  const problem = findJsonProblem(options.input, "$input");
  if (problem) {
    throw new SandboxInvalidOptionsError(`input is not JSON: at ${problem.path}, ${problem.problem}.`, {
      details: { field: "input", path: problem.path, problem: problem.problem },
    });
  }
}

function abortedError(signal: AbortSignal): SandboxAbortedError {
  return new SandboxAbortedError("The execution was aborted by the caller's AbortSignal.", { cause: signal.reason });
}

/**
 * Runs a code.run step in a fresh QuickJS/WASM instance on a warm worker thread and resolves to
 * its JSON output. Rejects with a named SandboxError subclass; the host process is never harmed.
 */
export async function executeCode(options: ExecuteCodeOptions): Promise<ExecuteCodeResult> {
  const limits = resolveSandboxLimits(options.limits);
  checkCodeFiles(options.files, options.entrypoint);
  checkOptions(options);
  const sources = await prepareSources(options.files);
  if (options.signal?.aborted) throw abortedError(options.signal);
  const worker = await acquireWorker(options.signal);
  if (options.signal?.aborted) {
    releaseWorker(worker, true);
    throw abortedError(options.signal);
  }
  return runOnWorker({ worker, options, limits, files: sources });
}

type WorkerRun = {
  readonly worker: SandboxWorker;
  readonly options: ExecuteCodeOptions;
  readonly limits: SandboxLimits;
  readonly files: Record<string, PreparedSource>;
};

function runOnWorker({ worker, options, limits, files }: WorkerRun): Promise<ExecuteCodeResult> {
  const started = performance.now();
  const allowedTools = [...options.allowedTools];
  const request: ExecuteRequestMessage = {
    type: "execute",
    files,
    entrypoint: options.entrypoint,
    inputJson: JSON.stringify(options.input),
    seedWords: seedWords(options.determinismSeed),
    clockStartMs: options.clockStartMs ?? defaultClockStartMs,
    allowedTools,
    limits,
    deadline: Date.now() + limits.timeoutMs,
  };
  const toolErrors = new Map<number, unknown>();
  const thread = worker.thread;

  return new Promise<ExecuteCodeResult>((resolve, reject) => {
    let finished = false;
    const failureDetails = { entrypoint: options.entrypoint, logs: [] as string[], toolCallCount: 0 };

    const finish = (outcome: { result: ExecuteCodeResult } | { error: SandboxError }) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      thread.off("message", onMessage);
      thread.off("error", onError);
      thread.off("exit", onExit);
      releaseWorker(worker, "result" in outcome);
      if ("result" in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };

    const reply = (message: ToolResultMessage) => {
      if (!finished) thread.postMessage(message);
    };

    const onToolCall = (call: ToolCallMessage) => {
      const { callIndex, toolName } = call;
      failureDetails.toolCallCount = Math.max(failureDetails.toolCallCount, callIndex + 1);
      // The worker refuses unknown tools already; the host checks again so a broken worker cannot reach them.
      if (!allowedTools.includes(toolName)) {
        reply({ type: "tool_result", callIndex, ok: false, message: `tools.${toolName} failed: it is not an allowed tool` });
        return;
      }
      let args: unknown;
      try {
        args = JSON.parse(call.argsJson);
      } catch {
        reply({ type: "tool_result", callIndex, ok: false, message: `tools.${toolName} failed: its arguments are not JSON` });
        return;
      }
      Promise.resolve()
        .then(() => options.callTool({ toolName, args, callIndex }))
        .then(
          (value: unknown) => {
            const result = value === undefined ? null : value;
            const problem = findJsonProblem(result);
            if (problem) {
              const text = `tools.${toolName} failed: it returned a value that is not JSON (at ${problem.path}, ${problem.problem})`;
              toolErrors.set(callIndex, new SandboxInvalidOptionsError(text, { details: { toolName, ...problem } }));
              reply({ type: "tool_result", callIndex, ok: false, message: text });
              return;
            }
            reply({ type: "tool_result", callIndex, ok: true, resultJson: JSON.stringify(result) });
          },
          (error: unknown) => {
            toolErrors.set(callIndex, error);
            const text = error instanceof Error ? error.message : String(error);
            reply({ type: "tool_result", callIndex, ok: false, message: capErrorText(`tools.${toolName} failed: ${text}`, errorTextLimits.message) });
          },
        );
    };

    const onMessage = (message: WorkerToHostMessage) => {
      if (message.type === "tool_call") {
        onToolCall(message);
        return;
      }
      if (message.type !== "outcome") return;
      const durationMs = performance.now() - started;
      const { outcome, logs, toolCallCount } = message;
      if (outcome.ok) {
        let output: unknown;
        try {
          output = JSON.parse(outcome.outputJson);
        } catch {
          // The guest can tamper with its own realm; the host trusts only text it can parse.
          finish({
            error: sandboxErrorFromFailure(
              { kind: "output_not_json", path: "$", problem: "its JSON text does not parse" },
              { entrypoint: options.entrypoint, limits, allowedTools, logs, toolCallCount, toolErrors },
            ),
          });
          return;
        }
        finish({ result: { output, durationMs, toolCallCount, logs } });
        return;
      }
      finish({
        error: sandboxErrorFromFailure(outcome.failure, {
          entrypoint: options.entrypoint,
          limits,
          allowedTools,
          logs,
          toolCallCount,
          toolErrors,
        }),
      });
    };

    const onError = (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
        finish({
          error: new SandboxOutOfMemoryError(
            "The sandbox worker ran out of host memory while handling this execution; it was stopped. Reduce the data passed through tools.",
            { cause: error, details: { ...failureDetails, memoryBytes: limits.memoryBytes } },
          ),
        });
        return;
      }
      finish({ error: new SandboxInternalError(`The sandbox worker crashed: ${error.message}. Retrying may help.`, { cause: error, details: failureDetails }) });
    };

    const onExit = (code: number) => {
      finish({ error: new SandboxInternalError(`The sandbox worker exited unexpectedly (code ${code}). Retrying may help.`, { details: failureDetails }) });
    };

    const onAbort = () => {
      finish({ error: abortedError(options.signal as AbortSignal) });
    };

    // The host's own deadline: if the worker cannot even report (stuck outside guest code), it is terminated.
    const timer = setTimeout(() => {
      finish({
        error: new SandboxTimeoutError(
          `The code did not finish within ${limits.timeoutMs} ms (limits.timeoutMs) and was stopped. ` +
            "Look for an endless loop, a tool call that never returns, or too much work; or raise the limit.",
          { details: { ...failureDetails, timeoutMs: limits.timeoutMs } },
        ),
      });
    }, limits.timeoutMs + limits.deadlineGraceMs);

    thread.on("message", onMessage);
    thread.on("error", onError);
    thread.on("exit", onExit);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    thread.postMessage(request);
  });
}
