import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const workerFile = fileURLToPath(new URL("./worker-process.ts", import.meta.url));

export type WorkerLine = { readonly type: string; readonly runId?: string; readonly pid: number; readonly at: number; readonly fence?: number; readonly reason?: string; readonly error?: string; readonly takenOverFrom?: string };

/** A worker child process and the JSON lines it printed so far. */
export type SpawnedWorker = { readonly child: ChildProcess; readonly pid: number; readonly lines: WorkerLine[]; readonly exited: Promise<void>; waitFor(predicate: (line: WorkerLine) => boolean): Promise<WorkerLine> };

export function spawnWorker(env: Readonly<Record<string, string>>): SpawnedWorker {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, workerFile], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: WorkerLine[] = [];
  const waiters = new Set<() => void>();
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        lines.push(JSON.parse(text) as WorkerLine);
      } catch {
        // not one of ours
      }
    }
    for (const waiter of [...waiters]) waiter();
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    pid: child.pid!,
    lines,
    exited,
    waitFor(predicate) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = lines.find(predicate);
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        void exited.then(() => {
          if (waiters.has(check)) {
            waiters.delete(check);
            reject(new Error(`worker ${child.pid} exited before the awaited line; stderr: ${stderr}`));
          }
        });
        check();
      });
    },
  };
}
