import { parentPort, workerData } from "node:worker_threads";
import { GuestExecution, warmUpEngine } from "./guest-execution.js";
import type { HostToWorkerMessage, OutcomeMessage, WorkerToHostMessage } from "./worker-protocol.js";

// Entry of a sandbox worker thread. One execution at a time; the host discards the whole thread
// after any failure, so nothing a guest did can leak into the next execution.
const port = parentPort;
if (!port) throw new Error("sandbox-worker must run as a worker thread");
const { wasmModule } = workerData as { wasmModule: WebAssembly.Module };
let current: GuestExecution | undefined;

function send(message: WorkerToHostMessage): void {
  port?.postMessage(message);
}

port.on("message", (message: HostToWorkerMessage) => {
  if (message.type === "tool_result") {
    current?.deliverToolResult(message);
    return;
  }
  const execution = new GuestExecution({ request: message, wasmModule, postToolCall: send });
  current = execution;
  void execution.run().then((outcome) => {
    current = undefined;
    const reply: OutcomeMessage = { type: "outcome", outcome, logs: execution.logs, toolCallCount: execution.toolCallCount };
    send(reply);
  });
});

// Warm: load the engine, the type stripper and the QuickJS glue before the first real execution.
await warmUpEngine(wasmModule);
send({ type: "ready" });
