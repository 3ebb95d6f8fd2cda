import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// A resolve hook (it runs on the loader thread) that reports every module URL it resolves back to
// the main thread, so the probe can tell whether just-bash has been loaded so far.
const watchHook = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;

describe("the bash tool's shell is loaded on first use", () => {
  it("importing the harness and creating a bash tool does not load just-bash; the first call does", () => {
    const root = mkdtempSync(join(tmpdir(), "bash-lazy-"));
    roots.push(root);
    const probe = join(root, "probe.mts");
    writeFileSync(
      probe,
      `
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
import { setTimeout as sleep } from "node:timers/promises";
const { port1, port2 } = new MessageChannel();
const resolved: string[] = [];
port1.on("message", (url: string) => resolved.push(url));
port1.unref();
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(watchHook)}`)}, { data: { port: port2 }, transferList: [port2] });
const loaded = async () => { await sleep(50); return resolved.some((url) => url.includes("/just-bash/")); };
const { createBashTool } = await import(${JSON.stringify(pathToFileURL(join(packageDir, "src/index.ts")).href)});
const result: Record<string, unknown> = { afterImport: await loaded() };
const tool = createBashTool({ mounts: [{ mountPath: "/mnt/scratch/own", hostPath: ${JSON.stringify(join(root, "scratch"))}, mode: "rw" }] });
result.afterCreate = await loaded();
result.call = await tool.execute({ cmd: "echo hello" });
result.afterCall = await loaded();
console.log(JSON.stringify(result));
`,
    );
    const child = spawnSync(process.execPath, ["--import", "tsx", probe], { cwd: packageDir, encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout) as Record<string, unknown>;
    expect(result.afterImport).toBe(false);
    expect(result.afterCreate).toBe(false);
    expect(result.call).toEqual({ stdout: "hello\n", stderr: "", exitCode: 0 });
    expect(result.afterCall).toBe(true);
  });
});
