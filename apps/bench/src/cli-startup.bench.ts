// How fast `little` starts (issue 18): `little --help`, `little validate <small file>` and
// `little runs` on a data dir with one run, each as a child process of the built CLI
// (packages/cli/dist/bin.js), against a bare `node -e 0` in the same rounds (interleaved, so load
// hits all alike). Each command loads what it needs when it runs; the target is ≤ 3× node -e 0.
// `little run` of the 3-step file (no target) is the whole cold path of a run: the SDK's imports,
// the first compile (input schema, the planner's built-in skill) and the run itself.
//
//   pnpm build && pnpm --filter @little-stack-apps/bench run cli-startup
//   CLI_STARTUP_ROUNDS=15 … to change the number of rounds
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchRoot, chainLwir, fmt, loadAverage, median } from "./step-cost-workload.js";

const rounds = Number(process.env.CLI_STARTUP_ROUNDS ?? 15);
const bin = fileURLToPath(new URL("../../../packages/cli/dist/bin.js", import.meta.url));
const tools = fileURLToPath(new URL("./noop-tools.mjs", import.meta.url));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm build first`);

const root = benchRoot("cli-startup-");
const small = join(root, "small.lwir.json");
writeFileSync(small, JSON.stringify(chainLwir(3)));
writeFileSync(join(root, "input.json"), "{}");
const dataDir = join(root, "world");
execFileSync(process.execPath, [bin, "run", small, "--input", join(root, "input.json"), "--tools", tools, "--data-dir", dataDir, "--progress", "none"], { stdio: "ignore" });

const commands: Record<string, readonly string[]> = {
  "node -e 0": ["-e", "0"],
  "little --help": [bin, "--help"],
  "little --version": [bin, "--version"],
  "little validate (3-step file)": [bin, "validate", small],
  "little runs (1 run)": [bin, "runs", "--data-dir", dataDir],
  "little replay <run>": [bin, "replay", "--data-dir", dataDir, "RUN"],
  "little run (3-step file)": [bin, "run", small, "--input", join(root, "input.json"), "--tools", tools, "--data-dir", join(root, "runs"), "--progress", "none"],
};
const runId = (JSON.parse(execFileSync(process.execPath, [bin, "runs", "--json", "--data-dir", dataDir], { encoding: "utf8" })) as { runId: string }[])[0]!.runId;

function once(args: readonly string[]): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args.map((arg) => (arg === "RUN" ? runId : arg)), { stdio: "ignore" });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`${args.join(" ")} exited ${String(child.status)}`);
  return ms;
}

console.log(`cli-startup benchmark: ${rounds} interleaved rounds, built CLI, Node ${process.version}; load average ${loadAverage()}`);
const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const args of Object.values(commands)) once(args); // warm-up: the file cache
for (let round = 0; round < rounds; round += 1) for (const [name, args] of Object.entries(commands)) times[name]!.push(once(args));
const baseline = times["node -e 0"]!;
for (const [name, values] of Object.entries(times)) {
  const ratios = values.map((ms, index) => ms / baseline[index]!);
  console.log(`  ${name.padEnd(32)} median ${fmt(median(values), 0).padStart(4)} ms  ${fmt(median(ratios), 2)}× node -e 0${name.startsWith("little") && !name.includes("version") && !name.includes("replay") && !name.includes("run (") ? "  (target ≤ 3×)" : ""}`);
}
console.log(`load average at the end ${loadAverage()}`);
rmSync(root, { recursive: true, force: true });
