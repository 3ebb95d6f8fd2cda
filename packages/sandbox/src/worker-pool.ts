import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { SandboxAbortedError, SandboxInternalError } from "./errors/run-errors.js";

// From dist the worker entry is plain .js. From src (tests, tsx) it is .ts: Node 20 does not apply
// `--import tsx` given in a worker's execArgv, so a small eval'd bootstrap registers tsx's loader
// inside the worker before importing the .ts entry.
const fromSource = import.meta.url.endsWith(".ts");
const workerUrl = new URL(fromSource ? "./sandbox-worker.ts" : "./sandbox-worker.js", import.meta.url);
const sourceBootstrap = `const { workerData } = require("node:worker_threads");
import(workerData.tsxApi).then((tsx) => { tsx.register(); return import(workerData.entry); });`;

/** tsx's ESM API module (its .mjs build: the .cjs build cannot register hooks from a worker). */
function tsxApiUrl(): string {
  const resolved = createRequire(import.meta.url).resolve("tsx/esm/api");
  return pathToFileURL(resolved.replace(/\.cjs$/, ".mjs")).href;
}

function newWorkerThread(module: CompiledWasm): Worker {
  const options = {
    // Host-side heap of the worker; guest memory is the separate, fixed WebAssembly.Memory.
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 8 },
    stdout: false,
    stderr: false,
  };
  if (!fromSource) return new Worker(workerUrl, { ...options, workerData: { wasmModule: module } });
  return new Worker(sourceBootstrap, {
    ...options,
    eval: true,
    execArgv: ["--conditions=@little-stack/source"],
    workerData: { wasmModule: module, tsxApi: tsxApiUrl(), entry: workerUrl.href },
  });
}

/**
 * A compiled WebAssembly.Module, typed opaquely so the published declarations do not depend on
 * the WebAssembly lib types (@types/node 20 has none).
 */
type CompiledWasm = object;

let wasmModule: Promise<CompiledWasm> | undefined;

/** The QuickJS WASM module, compiled once per process and shared with every worker. */
function compiledWasmModule(): Promise<CompiledWasm> {
  wasmModule ??= (async () => {
    const path = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    return WebAssembly.compile(await readFile(path));
  })();
  return wasmModule;
}

/** One worker thread that runs one execution at a time. */
export class SandboxWorker {
  readonly thread: Worker;
  readonly ready: Promise<void>;
  exited = false;

  constructor(module: CompiledWasm) {
    this.thread = newWorkerThread(module);
    this.thread.on("exit", () => {
      this.exited = true;
    });
    // An idle worker that fails must not crash the host with an unhandled 'error' event; it is
    // marked unusable and dropped at its next use.
    this.thread.on("error", () => {
      this.exited = true;
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { type?: unknown }) => {
        if (message.type !== "ready") return;
        cleanup();
        resolve();
      };
      const onError = (error: unknown) => {
        cleanup();
        reject(new SandboxInternalError(`The sandbox worker failed to start: ${String(error)}.`, { cause: error }));
      };
      const onExit = (code: number) => onError(new Error(`worker exited with code ${code}`));
      const cleanup = () => {
        this.thread.off("message", onMessage);
        this.thread.off("error", onError);
        this.thread.off("exit", onExit);
      };
      this.thread.on("message", onMessage);
      this.thread.on("error", onError);
      this.thread.on("exit", onExit);
    });
    // A worker that fails to start is reported when it is used, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  terminate(): void {
    this.exited = true;
    void this.thread.terminate();
  }
}

const maxIdleWorkers = 2;
const maxRunningWorkers = Math.max(4, availableParallelism());
const idle: SandboxWorker[] = [];
const waiting: Array<() => void> = [];
let running = 0;

async function spawnIdle(): Promise<void> {
  const worker = new SandboxWorker(await compiledWasmModule());
  worker.thread.unref();
  idle.push(worker);
}

function waitForTurn(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const index = waiting.indexOf(turn);
      if (index >= 0) waiting.splice(index, 1);
      reject(new SandboxAbortedError("The execution was aborted while it waited for a free sandbox worker."));
    };
    const turn = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(turn);
  });
}

/** A warm worker for one execution; at most max(4, CPUs) run at once, the rest wait their turn. */
export async function acquireWorker(signal: AbortSignal | undefined): Promise<SandboxWorker> {
  while (running >= maxRunningWorkers) await waitForTurn(signal);
  running += 1;
  let worker: SandboxWorker | undefined;
  try {
    worker = idle.pop();
    while (worker?.exited) worker = idle.pop();
    worker ??= new SandboxWorker(await compiledWasmModule());
    worker.thread.ref();
    await worker.ready;
    return worker;
  } catch (error) {
    worker?.terminate();
    running -= 1;
    waiting.shift()?.();
    throw error;
  }
}

/**
 * Gives a worker back. After a success it stays warm; after any failure it is terminated (a
 * runaway or crashed guest leaves nothing behind) and a fresh warm one is started in its place.
 */
export function releaseWorker(worker: SandboxWorker, reusable: boolean): void {
  running -= 1;
  waiting.shift()?.();
  if (reusable && !worker.exited && idle.length < maxIdleWorkers) {
    worker.thread.unref();
    idle.push(worker);
    return;
  }
  worker.terminate();
  if (idle.length === 0) void spawnIdle().catch(() => undefined);
}

/**
 * Starts a warm worker ahead of the first execution (compiles the WASM module, loads the engine)
 * so the first `executeCode` does not pay the cold start. Optional; safe to call more than once.
 */
export async function warmUpSandbox(): Promise<void> {
  if (idle.some((worker) => !worker.exited)) return;
  await spawnIdle();
  await idle[idle.length - 1]?.ready;
}

/** Terminates the idle warm workers (running executions are not touched). For tests and shutdown. */
export async function shutdownSandboxWorkers(): Promise<void> {
  const workers = idle.splice(0);
  await Promise.all(workers.map((worker) => worker.thread.terminate()));
}
