import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Digest } from "@little-stack/canonical";
import { shellCapabilitiesHash, type Harness, type HarnessContext, type HarnessTask, type MemoryMount, type ScratchMount, type WorkflowBashCapabilities } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { createScriptedModel } from "@little-stack/testing";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { codeFiles, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import type { RuntimeHarnessContext } from "./harness-dispatch.js";

type Seen = {
  role: string;
  stepPath: string;
  memory: readonly MemoryMount[];
  scratch: readonly ScratchMount[];
  skills: readonly string[];
  skillMounts: readonly string[];
  memoryStoreIds: readonly string[];
  skillsHash: string;
  bashCapabilitiesHash: string;
  bashCapabilities: unknown;
  logDir: string;
};

/** The fake worker harness, recording what each session was given and leaving a file in its own scratch. */
function observingHarness(): Harness & { seen: Seen[] } {
  const inner = createFakeWorkerHarness();
  const seen: Seen[] = [];
  return {
    seen,
    async run(task: HarnessTask, baseCtx: HarnessContext) {
      const ctx = baseCtx as RuntimeHarnessContext;
      const manifest = ctx.manifest as { memoryStoreIds: readonly string[]; skillsHash: string; bashCapabilitiesHash: string };
      seen.push({
        role: ctx.scope.role,
        stepPath: ctx.stepPath,
        memory: ctx.memoryMounts,
        scratch: ctx.scratchMounts,
        skills: ctx.skills.map((skill) => skill.name),
        skillMounts: ctx.mounts.map((mount) => `${mount.mountPath} ${mount.mode}`),
        memoryStoreIds: manifest.memoryStoreIds,
        skillsHash: manifest.skillsHash,
        bashCapabilitiesHash: manifest.bashCapabilitiesHash,
        bashCapabilities: ctx.bashCapabilities,
        logDir: ctx.scope.logDir,
      });
      const own = ctx.scratchMounts.find((mount) => mount.mountPath === "/mnt/scratch/own");
      if (own !== undefined) writeFileSync(join(own.hostPath, `${ctx.scope.role}.txt`), ctx.stepPath);
      return inner.run(task, baseCtx);
    },
  };
}

const mountsOf = (mounts: readonly (MemoryMount | ScratchMount)[]) => mounts.map((mount) => `${mount.mountPath.replace(/\/+$/, "")} ${mount.mode}`);
const objectOutput = { mode: "object", schema: { type: "object" } } as const;

const steps = [
  { id: "fetch", uses: "tool.call", with: { tool: "increment", args: { n: 1 } }, output: objectOutput },
  { id: "write", uses: "ai.generate", needs: ["fetch"], with: { model: "writer", prompt: "Write." }, output: { mode: "text" } },
  {
    id: "compute",
    uses: "code.run",
    needs: ["write"],
    with: { entrypoint: "main.js", files: codeFiles('// FAIL\n// OUTPUT: {"total":1}'), sandbox: { network: "deny" } },
    output: objectOutput,
    onFailure: { fixer: { model: "writer", maxAttempts: 1, system: "Fix the code." } },
  },
] as LwirStep[];

async function run(options: { memory?: unknown; workflowId?: string; pipelineRunId?: string; workerSkills?: readonly string[]; bashCapabilities?: WorkflowBashCapabilities; dataDir?: string; runId: string }) {
  const world = memoryWorld(options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  const harness = observingHarness();
  const result = await executeWorkflowVersion({
    world,
    workflowVersion: versionOf(lwirDocument({ steps, tools: ["increment"], models: ["writer"] })),
    input: {},
    tools: countingTools().registry,
    models: { writer: createScriptedModel({ script: [{ text: "draft" }] }) },
    workerHarness: harness,
    runId: options.runId,
    ...(options.workflowId === undefined ? {} : { workflowId: options.workflowId }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
    ...(options.workerSkills === undefined ? {} : { workerSkills: options.workerSkills }),
    ...(options.bashCapabilities === undefined ? {} : { bashCapabilities: options.bashCapabilities }),
  });
  return { world, seen: harness.seen, result };
}

describe("memory, scratch and skills of step sessions", () => {
  it("gives workers the stores read-only and their own step scratch, a tool.call nothing, the fixer the workflow store read-write", async () => {
    const { world, seen } = await run({ workflowId: "support-triage", runId: "run-mounts" });
    const byRole = new Map(seen.map((entry) => [entry.role, entry]));
    expect([...byRole.keys()]).toEqual(["worker.tool-call", "worker.ai-generate", "worker.code-run", "fixer"]);

    const tool = byRole.get("worker.tool-call")!;
    expect([...tool.memory, ...tool.scratch]).toEqual([]);
    expect(tool.memoryStoreIds).toEqual([]);

    const writer = byRole.get("worker.ai-generate")!;
    expect(mountsOf(writer.memory)).toEqual(["/mnt/memory/org ro", "/mnt/memory/workflow ro"]);
    expect(mountsOf(writer.scratch)).toEqual(["/mnt/scratch/from-planner ro", "/mnt/scratch/own rw"]);
    expect(writer.memoryStoreIds).toEqual(["org:ro", "workflow:support-triage:ro"]);
    expect(writer.memory.find((mount) => mount.mountPath.startsWith("/mnt/memory/workflow"))!.hostPath).toBe(join(world.paths.dataDir, "memory", "workflows", "support-triage"));
    // Workers have no shell.
    expect(writer.bashCapabilitiesHash).toBe(sha256Digest(null));

    const fixer = byRole.get("fixer")!;
    expect(mountsOf(fixer.memory)).toEqual(["/mnt/memory/org ro", "/mnt/memory/workflow rw"]);
    expect(fixer.memoryStoreIds).toEqual(["org:ro", "workflow:support-triage:rw"]);
    expect(fixer.bashCapabilitiesHash).not.toBe(sha256Digest(null));
    // The fixer works in the scratch of the step it fixes, and the directories exist on disk.
    const stepScratch = (entry: Seen) => entry.scratch.find((mount) => mount.mountPath.startsWith("/mnt/scratch/own"))!.hostPath;
    expect(stepScratch(fixer)).toBe(stepScratch(byRole.get("worker.code-run")!));
    expect(readFileSync(join(stepScratch(fixer), "fixer.txt"), "utf8")).toBe("compute");
    expect(readFileSync(join(stepScratch(writer), "worker.ai-generate.txt"), "utf8")).toBe("write");
    for (const entry of seen) expect(entry.logDir).toBe(join(world.paths.runs, "run-mounts"));
    for (const mount of [...fixer.memory, ...fixer.scratch]) expect(existsSync(mount.hostPath)).toBe(true);
  });

  it("gives the fixer's shell the workflow's bash capabilities, hashed into its manifest, and no worker any", async () => {
    const bash: WorkflowBashCapabilities = { network: { allow: ["https://api.example.com/v1/"] }, maxCommands: 3, timeoutMs: 2_000 };
    const withBash = await run({ workflowId: "support-triage", bashCapabilities: bash, runId: "run-bash" });
    const without = await run({ workflowId: "support-triage", runId: "run-no-bash" });
    const fixerOf = (seen: readonly Seen[]) => seen.find((entry) => entry.role === "fixer")!;
    const fixer = fixerOf(withBash.seen);
    expect(fixer.bashCapabilities).toEqual(bash);
    expect(fixer.bashCapabilitiesHash).toBe(shellCapabilitiesHash({ memoryMounts: fixer.memory, scratchMounts: fixer.scratch, skillMounts: [], bash }));
    expect(fixer.bashCapabilitiesHash).not.toBe(fixerOf(without.seen).bashCapabilitiesHash);
    expect(fixerOf(without.seen).bashCapabilities).toBeUndefined();
    for (const entry of withBash.seen.filter((item) => item.role !== "fixer")) {
      expect(entry.bashCapabilities).toBeUndefined();
      expect(entry.bashCapabilitiesHash).toBe(sha256Digest(null));
    }
  });

  it("refuses bash capabilities the shell cannot honour before the run starts", async () => {
    const error = await run({ bashCapabilities: { network: { allow: ["ftp://files.example.com/"] } } as WorkflowBashCapabilities, runId: "run-bad-bash" }).catch((caught: unknown) => caught);
    expect(RunFailedError.is(error)).toBe(true);
    expect((error as RunFailedError).causeCode).toBe("runtime_config_error");
    expect((error as Error).message).toContain("bashCapabilities.network.allow[0]");
  });

  it("follows the workflow's memory option, and mounts no workflow store without a workflow id", async () => {
    const readOnly = await run({ workflowId: "support-triage", memory: { workflow: "ro", org: "none" }, runId: "run-ro" });
    const fixer = readOnly.seen.find((entry) => entry.role === "fixer")!;
    expect(mountsOf(fixer.memory)).toEqual(["/mnt/memory/workflow ro"]);
    const anonymous = await run({ runId: "run-anonymous" });
    for (const entry of anonymous.seen.filter((item) => item.role !== "worker.tool-call")) expect(mountsOf(entry.memory)).toEqual(["/mnt/memory/org ro"]);
  });

  it("puts a pipeline's sub-run under the pipeline's folder, with the orchestrator's scratch read-only", async () => {
    const { world, seen } = await run({ workflowId: "support-triage", pipelineRunId: "run_pipeline1", runId: "run-sub" });
    const writer = seen.find((entry) => entry.role === "worker.ai-generate")!;
    const subRunDir = join(world.paths.runs, "run_pipeline1", "sub-runs", "run-sub");
    expect(writer.logDir).toBe(subRunDir);
    expect(mountsOf(writer.scratch)).toEqual(["/mnt/scratch/from-orchestrator ro", "/mnt/scratch/from-planner ro", "/mnt/scratch/own rw"]);
    expect(writer.scratch.find((mount) => mount.mountPath.startsWith("/mnt/scratch/own"))!.hostPath.startsWith(`${subRunDir}/steps/`)).toBe(true);
  });

  it("gives step sessions (not tool.call) the worker skills and the org skills, staged read-only, hashed into the manifest", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "runtime-skills-"));
    const writeSkill = (directory: string, name: string, description: string) => {
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`);
      return directory;
    };
    writeSkill(join(dataDir, "memory", "org", "skills", "house-style"), "house-style", "How we write.");
    const declared = writeSkill(join(dataDir, "..", `${dataDir.split("/").at(-1)}-skill-review`), "review", "Review code.");
    const { seen } = await run({ workflowId: "support-triage", workerSkills: [declared], dataDir, runId: "run-skills" });
    const byRole = new Map(seen.map((entry) => [entry.role, entry]));
    expect(byRole.get("worker.tool-call")!.skills).toEqual([]);
    expect(byRole.get("worker.tool-call")!.skillsHash).toBe(sha256Digest([]));
    for (const role of ["worker.ai-generate", "worker.code-run", "fixer"]) {
      const entry = byRole.get(role)!;
      expect(entry.skills, role).toEqual(["house-style", "review"]);
      expect(entry.skillMounts, role).toEqual([".agents/skills/house-style/ ro", ".agents/skills/review/ ro"]);
      expect(entry.skillsHash, role).not.toBe(sha256Digest([]));
    }
    // The fixer's shell sees the skills too, so its capability hash differs from one without them.
    const withoutSkills = await run({ workflowId: "support-triage", dataDir: mkdtempSync(join(tmpdir(), "runtime-no-skills-")), runId: "run-skills" });
    expect(byRole.get("fixer")!.bashCapabilitiesHash).not.toBe(withoutSkills.seen.find((entry) => entry.role === "fixer")!.bashCapabilitiesHash);
  });

  it("refuses a worker skill that cannot be resolved before writing anything, naming it", async () => {
    const world = memoryWorld();
    const missing = join(world.paths.dataDir, "no-such-skill");
    const error = await executeWorkflowVersion({
      world,
      workflowVersion: versionOf(lwirDocument({ steps, tools: ["increment"], models: ["writer"] })),
      input: {},
      tools: countingTools().registry,
      models: { writer: createScriptedModel({ script: [] }) },
      workerHarness: observingHarness(),
      runId: "run-bad-skill",
      workerSkills: [missing],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).causeCode).toBe("runtime_config_error");
    expect((error as Error).message).toContain("no-such-skill");
    expect(await world.listEvents("run-bad-skill")).toEqual([]);
  });

  it("refuses a bad memory option or workflow id before writing anything, naming the field", async () => {
    for (const [options, pattern] of [
      [{ workflowId: "support-triage", memory: { workflows: "rw" } }, /memory\.workflows/],
      [{ workflowId: "../escape" }, /workflowId "\.\.\/escape"/],
    ] as const) {
      const world = memoryWorld();
      const error = await executeWorkflowVersion({
        world,
        workflowVersion: versionOf(lwirDocument({ steps, tools: ["increment"], models: ["writer"] })),
        input: {},
        tools: countingTools().registry,
        models: { writer: createScriptedModel({ script: [] }) },
        workerHarness: observingHarness(),
        runId: "run-bad",
        ...options,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RunFailedError);
      expect((error as RunFailedError).causeCode).toBe("runtime_config_error");
      expect((error as Error).message).toMatch(pattern);
      expect(await world.listEvents("run-bad")).toEqual([]);
    }
  });
});
