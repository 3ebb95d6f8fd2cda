/**
 * The four ways a user installs Little Workflow (architecture.md § "What a user installs"), each
 * run end to end in its own fresh npm project from the packed tarballs. A use returns the
 * problems it found; none means it works as documented.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedReadmeBlocks, type ReadmeBlock } from "./readme-blocks.js";
import { outputTail, runCommand, type CommandResult } from "./run-command.js";

export const fixturesDir = fileURLToPath(new URL("./__fixtures__/", import.meta.url));

/** The third-party versions the README's Install section tells a user to add. */
export const userVersions = {
  ai: "6.0.326",
  zod: "4.6.7",
  "@ai-sdk/openai": "3.0.141",
  "@ai-sdk/openai-compatible": "2.0.92",
  typescript: "5.9.3",
  "@types/node": "20.19.43",
  tsx: "4.23.15",
} as const;

export type UseDefinition = {
  readonly name: string;
  readonly what: string;
  readonly ours: readonly string[];
  readonly theirs: Readonly<Record<string, string>>;
  /** Copies the use's files into the project and runs it; returns the problems found. */
  readonly run: (dir: string) => Promise<string[]>;
};

function copyFixtures(dir: string, ...folders: string[]): void {
  for (const folder of ["shared", ...folders]) {
    for (const file of readdirSync(join(fixturesDir, folder))) copyFileSync(join(fixturesDir, folder, file), join(dir, file));
  }
}

function expectJson(result: CommandResult, what: string, problems: string[]): Record<string, unknown> | undefined {
  if (result.exitCode !== 0) {
    problems.push(`${what}: \`${result.command}\` exited ${result.exitCode ?? result.signal}:\n${outputTail(result)}`);
    return undefined;
  }
  try {
    // One JSON document on stdout: a single line, or the CLI's pretty-printed summary.
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    problems.push(`${what}: \`${result.command}\` did not print JSON:\n${outputTail(result)}`);
    return undefined;
  }
}

function expectEqual(actual: unknown, expected: unknown, what: string, problems: string[]): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const node = process.execPath;
const tsc = (dir: string, project: string) => runCommand(node, [join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", project], { cwd: dir });

const validator: UseDefinition = {
  name: "validator",
  what: "the LWIR validator alone (@little-stack/lwir): JavaScript, and TypeScript with moduleResolution node16 and bundler",
  ours: ["@little-stack/lwir"],
  theirs: { typescript: userVersions.typescript, "@types/node": userVersions["@types/node"] },
  async run(dir) {
    copyFixtures(dir, "validator");
    const problems: string[] = [];
    const js = expectJson(await runCommand(node, ["check.mjs"], { cwd: dir }), "validator (JS)", problems);
    if (js !== undefined) {
      expectEqual(js["valid"], true, "validator (JS): the valid document", problems);
      expectEqual(js["thrownIsLwirValidationError"], true, "validator (JS): assertValidLwir throws LwirValidationError", problems);
      if (!(js["invalidCodes"] as string[]).includes("step.missing_dependency")) problems.push(`validator (JS): findings of the invalid document lack step.missing_dependency: ${JSON.stringify(js["invalidCodes"])}`);
    }
    for (const config of ["tsconfig.node16.json", "tsconfig.bundler.json"]) {
      const compiled = await tsc(dir, config);
      if (compiled.exitCode !== 0) problems.push(`validator (TS, ${config}) does not compile against the packed types:\n${outputTail(compiled)}`);
    }
    const ts = expectJson(await runCommand(node, ["dist-node16/check.js"], { cwd: dir }), "validator (TS, node16 build)", problems);
    if (ts !== undefined) {
      expectEqual(ts["stepIds"], ["greet", "shout"], "validator (TS): the asserted document's steps", problems);
      expectEqual(ts["known"], true, "validator (TS): every finding code is in LWIR_FINDING_CODES", problems);
      if (typeof ts["findingCount"] !== "number" || ts["findingCount"] === 0) problems.push(`validator (TS): LwirValidationError.is did not narrow to an error with findings (${JSON.stringify(ts["findingCount"])})`);
    }
    const stray = readdirSync(join(dir, "node_modules")).filter((name) => name === "zod" || name === "ai" || name === "better-sqlite3");
    if (stray.length > 0) problems.push(`validator: installing @little-stack/lwir alone brought in ${stray.join(", ")}`);
    return problems;
  },
};

/** The harness README's durable custom harness, as the file the custom-harness use compiles. */
export function harnessReadmeExample(repoRoot: string): ReadmeBlock {
  const readme = "packages/harness/README.md";
  const block = checkedReadmeBlocks(readme, readFileSync(join(repoRoot, readme), "utf8")).find((candidate) => candidate.code.includes("export const toolCallHarness"));
  if (block === undefined) throw new Error(`${readme} no longer has the durable custom harness example (export const toolCallHarness): the custom-harness use compiles and runs it`);
  return block;
}

function customHarness(repoRoot: string): UseDefinition {
  return {
    name: "custom-harness",
    what: "a durable custom harness (the harness README's) as the worker harness of a fixed-plan workflow on localWorld, killed and resumed",
    ours: ["@little-stack/workflow", "@little-stack/harness"],
    theirs: { ai: userVersions.ai, zod: userVersions.zod, typescript: userVersions.typescript, "@types/node": userVersions["@types/node"] },
    async run(dir) {
      copyFixtures(dir, "custom-harness");
      const example = harnessReadmeExample(repoRoot);
      writeFileSync(join(dir, "harness.ts"), `// ${example.readme}, the block at line ${example.line}\n${example.code}\n`);
      const problems: string[] = [];
      const compiled = await tsc(dir, "tsconfig.json");
      if (compiled.exitCode !== 0) return [`custom-harness: run.ts + the README's harness do not compile against the packed types:\n${outputTail(compiled)}`];
      const dataDir = join(dir, "data");
      const killed = await runCommand(node, ["dist/run.js", dataDir, "kill"], { cwd: dir });
      if (killed.signal !== "SIGKILL") problems.push(`custom-harness: the first run should die by SIGKILL inside the shout tool, got exit ${killed.exitCode}:\n${outputTail(killed)}`);
      const resumed = expectJson(await runCommand(node, ["dist/run.js", dataDir, "resume"], { cwd: dir }), "custom-harness (resume)", problems);
      if (resumed !== undefined) {
        expectEqual(resumed["status"], "completed", "custom-harness: status after resume", problems);
        expectEqual(resumed["loud"], "HELLO, ADA!", "custom-harness: output", problems);
        expectEqual(resumed["toolEvents"], [{ caller: "code", toolName: "greet" }, { caller: "code", toolName: "shout" }], "custom-harness: recorded tool calls", problems);
      }
      // greet ran before the kill and is replayed from the log; shout was in flight, so it runs again.
      expectEqual(readFileSync(join(dataDir, "tool-calls.log"), "utf8").trim().split("\n"), ["greet", "shout", "shout"], "custom-harness: tool executions across the kill", problems);
      return problems;
    },
  };
}

const cli: UseDefinition = {
  name: "cli",
  what: "the little CLI (@little-stack/cli): validate, run (killed and resumed), events",
  ours: ["@little-stack/cli"],
  theirs: { ai: userVersions.ai },
  async run(dir) {
    copyFixtures(dir, "cli");
    const problems: string[] = [];
    const little = join(dir, "node_modules", ".bin", "little");
    const valid = await runCommand(little, ["validate", "greeting.lwir.json"], { cwd: dir });
    if (valid.exitCode !== 0) problems.push(`cli: little validate on a valid document exited ${valid.exitCode}:\n${outputTail(valid)}`);
    const invalid = await runCommand(little, ["validate", "invalid.lwir.json", "--json"], { cwd: dir });
    if (invalid.exitCode !== 1 || !invalid.stdout.includes('"step.missing_dependency"')) problems.push(`cli: little validate --json on an invalid document should exit 1 with its findings:\n${outputTail(invalid)}`);
    const toolLog = join(dir, "tool-calls.log");
    const runArgs = ["run", "greeting.lwir.json", "--input", "input.json", "--tools", "./tools.mjs", "--run-id", "run_packcheckcli0001"];
    const env = { ...process.env, PACK_CHECK_TOOL_LOG: toolLog };
    const killed = await runCommand(little, runArgs, { cwd: dir, env: { ...env, PACK_CHECK_KILL: "1" } });
    if (killed.signal !== "SIGKILL") problems.push(`cli: the first little run should die by SIGKILL inside the shout tool, got exit ${killed.exitCode}:\n${outputTail(killed)}`);
    const resumed = expectJson(await runCommand(little, runArgs, { cwd: dir, env }), "cli (little run, resumed)", problems);
    if (resumed !== undefined) {
      expectEqual(resumed["status"], "completed", "cli: status after resume", problems);
      expectEqual(resumed["output"], { loud: "HELLO, ADA!" }, "cli: output", problems);
    }
    expectEqual(readFileSync(toolLog, "utf8").trim().split("\n"), ["greet", "shout", "shout"], "cli: tool executions across the kill", problems);
    const events = await runCommand(little, ["events", "run_packcheckcli0001", "--type", "harness.tool_call.succeeded"], { cwd: dir });
    if (events.exitCode !== 0) problems.push(`cli: little events exited ${events.exitCode}:\n${outputTail(events)}`);
    else {
      const tools = events.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { payload: { toolName: string } }).payload.toolName);
      expectEqual(tools, ["greet", "shout"], "cli: little events --type harness.tool_call.succeeded", problems);
    }
    return problems;
  },
};

const testing: UseDefinition = {
  name: "testing",
  what: "@little-stack/testing: the scripted model and the loopback OpenAI-compatible server under real AI SDK calls",
  ours: ["@little-stack/testing"],
  theirs: { ai: userVersions.ai, "@ai-sdk/openai-compatible": userVersions["@ai-sdk/openai-compatible"] },
  async run(dir) {
    copyFixtures(dir, "testing");
    const problems: string[] = [];
    const result = expectJson(await runCommand(node, ["check.mjs"], { cwd: dir }), "testing", problems);
    if (result !== undefined) {
      expectEqual(result["scriptedText"], "scripted hello", "testing: scripted model text", problems);
      expectEqual(result["scriptedCalls"], 1, "testing: scripted model calls", problems);
      expectEqual(result["cachedInputTokens"], 4, "testing: scripted usage (cached input tokens)", problems);
      expectEqual(result["loopbackText"], "loopback hello", "testing: loopback server text", problems);
      expectEqual(result["loopbackRequests"], 1, "testing: loopback server requests", problems);
      if (!String(result["baseURL"]).startsWith("http://127.0.0.1:")) problems.push(`testing: the loopback server is not on 127.0.0.1: ${String(result["baseURL"])}`);
    }
    return problems;
  },
};

export function useDefinitions(repoRoot: string): UseDefinition[] {
  return [validator, customHarness(repoRoot), cli, testing];
}
