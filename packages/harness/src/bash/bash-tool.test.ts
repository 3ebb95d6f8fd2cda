import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { mountsForRole, type RoleMounts } from "@little-stack/memory";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSkills, skillStaging } from "@little-stack/skills";
import type {
  BashTool,
  HarnessRuntimeMount,
  MemoryMount as ContractMemoryMount,
  ScratchMount as ContractScratchMount,
  SkillDescriptor as ContractSkillDescriptor,
} from "../contract/mounts.js";
import { createBashTool, type CreateBashToolOptions, type HarnessBashTool } from "./bash-tool.js";
import { BashToolConfigError } from "./bash-tool-config-error.js";

let root: string;
let dataDir: string;
let skillDir: string;

/** Every file and directory under `root` with the content of files: the host disk, byte for byte. */
function snapshot(): Record<string, string> {
  const entries: Record<string, string> = {};
  function walk(dir: string): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const key = relative(root, path);
      if (entry.isSymbolicLink()) entries[key] = "symlink";
      else if (entry.isDirectory()) {
        entries[key] = "dir";
        walk(path);
      } else entries[key] = readFileSync(path, "utf8");
    }
  }
  walk(root);
  return entries;
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "lw-bash-")));
  dataDir = join(root, "data");
  mkdirSync(join(dataDir, "memory/org"), { recursive: true });
  writeFileSync(join(dataDir, "memory/org/policy.md"), "org policy\n");
  mkdirSync(join(root, "outside"));
  writeFileSync(join(root, "outside/secret.txt"), "host secret\n");
  skillDir = join(root, "skills/demo");
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(join(skillDir, "SKILL.md"), "---\nname: demo\ndescription: Demo skill.\n---\nUse it.\n");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function toolFor(mounts: RoleMounts, options: Partial<CreateBashToolOptions> = {}): HarnessBashTool {
  return createBashTool({
    mounts: [...mounts.memoryMounts, ...mounts.scratchMounts],
    skills: [{ name: "demo", mountPath: ".agents/skills/demo/", hostPath: skillDir }],
    limits: { timeoutMs: 5_000 },
    ...options,
  });
}

function planner(): HarnessBashTool {
  return toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "run_1" }));
}

describe("bash tool: planner mounts on a real disk", () => {
  it("writes the workflow store and its own scratch, reads org and skills", async () => {
    const bash = planner();
    const result = await bash.execute({
      cmd: "pwd; echo note > /mnt/memory/workflow/n.md; echo draft > plan.md; cat /mnt/memory/org/policy.md; cat .agents/skills/demo/SKILL.md | head -2",
    });
    expect(result).toEqual({ stdout: "/mnt/scratch/own\norg policy\n---\nname: demo\n", stderr: "", exitCode: 0 });
    expect(readFileSync(join(dataDir, "memory/workflows/wf/n.md"), "utf8")).toBe("note\n");
    expect(readFileSync(join(dataDir, "runs/run_1/scratch/plan.md"), "utf8")).toBe("draft\n");
    expect((await bash.execute({ cmd: "cat plan.md" })).stdout).toBe("draft\n");
  });

  it("refuses writes to the read-only org store with an exit code, never a rejection, and leaves the host untouched", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    const before = snapshot();
    for (const cmd of [
      "echo x > /mnt/memory/org/new.md",
      "echo x >> /mnt/memory/org/policy.md",
      "touch /mnt/memory/org/t.md",
      "rm /mnt/memory/org/policy.md",
      "mkdir /mnt/memory/org/dir",
      "cp /mnt/memory/org/policy.md /mnt/memory/org/copy.md",
      "mv /mnt/memory/org/policy.md /mnt/memory/org/renamed.md",
      "echo x | tee /mnt/memory/org/tee.md",
    ]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
      expect(result.stderr, cmd).toMatch(/EROFS|read-only|No such file/);
    }
    const redirect = await bash.execute({ cmd: "echo x > /mnt/memory/org/new.md" });
    expect(redirect).toEqual({
      stdout: "",
      stderr: "bash: EROFS: /mnt/memory/org/new.md is on the read-only mount /mnt/memory/org/; writable mounts: /mnt/memory/workflow/, /mnt/scratch/own/.\n",
      exitCode: 1,
    });
    expect(snapshot()).toEqual(before);
    // Moving out of a read-only mount copies (reading is allowed) but never removes the source.
    expect((await bash.execute({ cmd: "mv /mnt/memory/org/policy.md copied.md" })).exitCode).not.toBe(0);
    expect(readFileSync(join(dataDir, "memory/org/policy.md"), "utf8")).toBe("org policy\n");
  });

  it("reports refused writes that a command swallows (rm -f, rm -rf): stderr says so, exit non-zero", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    mkdirSync(join(dataDir, "memory/org/sub"));
    symlinkSync(join(root, "outside"), join(dataDir, "runs/run_1/scratch/out"));
    const before = snapshot();
    for (const [cmd, path] of [
      ["rm -rf /mnt/memory/org/policy.md", "/mnt/memory/org/policy.md"],
      ["rm -f /mnt/memory/org/policy.md", "/mnt/memory/org/policy.md"],
      ["rm -rf /mnt/memory/org/sub", "/mnt/memory/org/sub"],
      ["rm -rf out/secret.txt", "/mnt/scratch/own/out/secret.txt"],
      ["rm -rf /mnt/memory/org/policy.md || true", "/mnt/memory/org/policy.md"],
    ] as const) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).toBe(1);
      expect(result.stderr, cmd).toMatch(/^bash: refused: (EROFS|EACCES): /m);
      expect(result.stderr, cmd).toContain(path);
    }
    expect(snapshot()).toEqual(before);
    // A missing file under -f is still no error, and a refusal the command reports itself is not repeated.
    expect(await bash.execute({ cmd: "rm -f no-such-file" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const reported = await bash.execute({ cmd: "rm /mnt/memory/org/policy.md" });
    expect(reported.exitCode).toBe(1);
    expect(reported.stderr.match(/read-only mount/g)).toHaveLength(1);
  });

  it("refuses .. escapes: nothing outside the mounts is readable or writable", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    const before = snapshot();
    for (const cmd of [
      "cat ../../../../outside/secret.txt",
      "cat /mnt/scratch/own/../../../../outside/secret.txt",
      `cat ${join(root, "outside/secret.txt")}`,
      "cat /mnt/memory/workflow/../../../data/memory/org/policy.md",
    ]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
      expect(result.stdout, cmd).not.toContain("secret");
    }
    for (const cmd of ["echo x > ../../../escape.txt", "echo x > ../../../../../../escape.txt", `echo x > ${join(root, "escape.txt")}`, "mkdir -p ../../../../made"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
    }
    expect(snapshot()).toEqual(before);
  });

  it("refuses symlinks that leave a mount, including into another mount's host directory", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    const own = join(dataDir, "runs/run_1/scratch");
    symlinkSync(join(root, "outside"), join(own, "out"));
    symlinkSync(join(dataDir, "memory/org"), join(dataDir, "memory/workflows/wf/org-link"));
    symlinkSync(join(root, "nowhere.txt"), join(own, "dangling"));
    const before = snapshot();
    for (const cmd of ["cat out/secret.txt", "ls out", "cat /mnt/memory/workflow/org-link/policy.md"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
      expect(result.stdout, cmd).toBe("");
    }
    for (const cmd of ["echo x > out/new.txt", "echo x > /mnt/memory/workflow/org-link/new.md", "echo x > dangling", "ln -s /mnt/memory/org link"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
    }
    expect(snapshot()).toEqual(before);
    expect(() => statSync(join(root, "nowhere.txt"))).toThrow();
  });

  it("refuses NUL bytes and case tricks", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    const before = snapshot();
    expect(await bash.execute({ cmd: "echo x > a\0b" })).toEqual({ stdout: "", stderr: "bash: the command contains a NUL byte\n", exitCode: 2 });
    expect((await bash.execute({ cmd: "pwd", cwd: "/mnt/scratch/own\0/x" })).exitCode).not.toBe(0);
    for (const cmd of ["echo x > /MNT/memory/workflow/x.md", "echo x > /mnt/Memory/workflow/x.md", "cat /mnt/memory/ORG/policy.md", "mkdir /Mnt"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
      expect(result.stdout, cmd).toBe("");
    }
    expect(snapshot()).toEqual(before);
  });

  it("keeps everything outside the mounts read-only and empty", async () => {
    const bash = planner();
    expect((await bash.execute({ cmd: "ls /; ls /mnt; ls /mnt/memory" })).stdout).toBe("dev\nmnt\nmemory\nscratch\norg\nworkflow\n");
    for (const cmd of ["echo x > /tmp.txt", "mkdir /tmp", "echo x > /mnt/x", "mkdir /mnt/memory/pipeline", "rm -r /mnt/memory/workflow"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
    }
    expect((await bash.execute({ cmd: "echo hidden > /dev/null; ls /missing 2>/dev/null; echo $?" })).stdout).toBe("2\n");
  });

  it("stages skills read-only: they cannot be changed or removed", async () => {
    const bash = planner();
    await bash.execute({ cmd: "true" });
    const before = snapshot();
    for (const cmd of ["echo x > .agents/skills/demo/SKILL.md", "rm .agents/skills/demo/SKILL.md", "rm -r .agents", "mv .agents gone", "touch .agents/skills/demo/new"]) {
      const result = await bash.execute({ cmd });
      expect(result.exitCode, cmd).not.toBe(0);
    }
    expect(snapshot()).toEqual(before);
    expect((await bash.execute({ cmd: "ls .agents/skills" })).stdout).toBe("demo\n");
  });
});

describe("bash tool: other roles", () => {
  it("a worker sees upper scratches read-only and writes only its own step scratch", async () => {
    const runDir = join(dataDir, "runs/run_p/sub-runs/run_1");
    mkdirSync(join(runDir, "scratch"), { recursive: true });
    writeFileSync(join(runDir, "scratch/plan.md"), "from planner\n");
    mkdirSync(join(dataDir, "runs/run_p/scratch"), { recursive: true });
    writeFileSync(join(dataDir, "runs/run_p/scratch/brief.md"), "from orchestrator\n");
    const bash = toolFor(
      mountsForRole({ role: "worker.code-run", dataDir, workflowId: "wf", runId: "run_1", pipelineRunId: "run_p", stepPath: "fan[a].s", peerStepPaths: ["prep"] }),
    );
    const read = await bash.execute({ cmd: "cat /mnt/scratch/from-planner/plan.md /mnt/scratch/from-orchestrator/brief.md; ls /mnt/scratch/peer-steps" });
    expect(read).toEqual({ stdout: "from planner\nfrom orchestrator\nprep\n", stderr: "", exitCode: 0 });
    const before = snapshot();
    for (const cmd of [
      "echo x > /mnt/scratch/from-planner/plan.md",
      "echo x > /mnt/scratch/from-orchestrator/new.md",
      "echo x > /mnt/scratch/peer-steps/prep/x",
      "echo x > /mnt/memory/workflow/n.md",
      "echo x > /mnt/memory/org/n.md",
    ]) {
      expect((await bash.execute({ cmd })).exitCode, cmd).not.toBe(0);
    }
    expect(snapshot()).toEqual(before);
    expect((await bash.execute({ cmd: "echo mine > out.md" })).exitCode).toBe(0);
    expect(readFileSync(join(runDir, "steps/fan%5Ba%5D%2Es/scratch/out.md"), "utf8")).toBe("mine\n");
  });

  it("an orchestrator writes the pipeline store and reads available workflows", async () => {
    mkdirSync(join(dataDir, "memory/workflows/wf"), { recursive: true });
    writeFileSync(join(dataDir, "memory/workflows/wf/notes.md"), "wf notes\n");
    const key = "c".repeat(64);
    const bash = toolFor(mountsForRole({ role: "orchestrator", dataDir, pipelineRunId: "run_p", pipelineKey: key, availableWorkflowIds: ["wf"] }));
    expect((await bash.execute({ cmd: "cat /mnt/memory/available-workflows/wf/notes.md; echo p > /mnt/memory/pipeline/p.md" })).exitCode).toBe(0);
    expect(readFileSync(join(dataDir, "memory/pipelines", key, "p.md"), "utf8")).toBe("p\n");
    expect((await bash.execute({ cmd: "echo x > /mnt/memory/available-workflows/wf/notes.md" })).exitCode).toBe(1);
    expect(readFileSync(join(dataDir, "memory/workflows/wf/notes.md"), "utf8")).toBe("wf notes\n");
  });
});

describe("bash tool: limits", () => {
  it("stops a script after maxCommands", async () => {
    const bash = toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" }), { limits: { maxCommands: 20 } });
    const result = await bash.execute({ cmd: "for i in $(seq 1 100); do echo $i; done" });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("too many commands");
  });

  it("times out with exit code 124, and a call may only lower the limit", async () => {
    const bash = toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" }), { limits: { timeoutMs: 300 } });
    const result = await bash.execute({ cmd: "echo started; sleep 10; echo never" });
    expect(result.exitCode).toBe(124);
    expect(result.stderr).toContain("timed out after 300 ms");
    expect(result.stdout).not.toContain("never");
    const raised = await bash.execute({ cmd: "sleep 10", timeoutMs: 60_000 });
    expect(raised.stderr).toContain("timed out after 300 ms");
    expect((await bash.execute({ cmd: "echo fine" })).stdout).toBe("fine\n");
  });

  it("truncates output to maxOutputBytes and says so", async () => {
    const bash = toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" }), { limits: { maxOutputBytes: 100 } });
    const result = await bash.execute({ cmd: "seq 1 1000" });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^1\n2\n3\n[\s\S]*\n\[output truncated: \d+ more bytes\]\n$/);
    expect(Buffer.byteLength(result.stdout.split("\n[output truncated")[0] as string)).toBeLessThanOrEqual(100);
  });

  it("returns 130 once the session's abort signal fired", async () => {
    const controller = new AbortController();
    const bash = toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" }), { abortSignal: controller.signal });
    const running = bash.execute({ cmd: "sleep 10" });
    setTimeout(() => controller.abort(), 50);
    expect((await running).exitCode).not.toBe(0);
    expect((await bash.execute({ cmd: "echo x" })).exitCode).toBe(130);
  });
});

describe("bash tool: configuration", () => {
  it("refuses bad options up front", () => {
    const mounts = mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" });
    expect(() => toolFor(mounts, { limits: { maxCommands: 0 } })).toThrow(BashToolConfigError);
    expect(() => toolFor(mounts, { cwd: "relative" })).toThrow(/absolute/);
    expect(() => toolFor(mounts, { cwd: "/elsewhere", skills: [] })).toThrow(/cwd \/elsewhere is not usable/);
    expect(() => toolFor(mounts, { skills: [{ name: "Bad Name", mountPath: ".agents/skills/x/", hostPath: skillDir }] })).toThrow(BashToolConfigError);
    expect(() =>
      createBashTool({ mounts: [{ mountPath: "/a", hostPath: root, mode: "rw" }, { mountPath: "/a/", hostPath: root, mode: "ro" }], cwd: "/a" }),
    ).toThrow(/mounted twice/);
  });

  it("reports a missing staged skill directory as a failed command", async () => {
    const bash = toolFor(mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" }), {
      skills: [{ name: "gone", mountPath: ".agents/skills/gone/", hostPath: join(root, "missing") }],
    });
    const result = await bash.execute({ cmd: "ls" });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(join(root, "missing"));
  });

  it("fits the harness contract types, and stages what @little-stack/skills resolves", async () => {
    const mounts = mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r" });
    const resolved = await resolveSkills([skillDir], { dataDir });
    const contractSkills: readonly ContractSkillDescriptor[] = resolved.skills;
    const staged: readonly HarnessRuntimeMount[] = skillStaging(resolved.skills);
    const contractTool: BashTool = createBashTool({ mounts: [...mounts.memoryMounts, ...mounts.scratchMounts], skills: skillStaging(resolved.skills) });
    const memory: readonly ContractMemoryMount[] = mounts.memoryMounts;
    const scratch: readonly ContractScratchMount[] = mounts.scratchMounts;
    expect(memory.length + scratch.length).toBe(3);
    expect(contractSkills.map((entry) => entry.name)).toEqual(["demo"]);
    expect(staged).toEqual([{ name: "demo", mountPath: ".agents/skills/demo/", mode: "ro", hostPath: skillDir }]);
    expect((await contractTool.execute({ cmd: "cat .agents/skills/demo/SKILL.md | head -2" })).stdout).toBe("---\nname: demo\n");
  });
});
