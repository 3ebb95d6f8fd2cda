import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureMountDirectories } from "./ensure-mount-directories.js";
import { MemoryLayoutError } from "./memory-layout-error.js";
import type { PolicyMount } from "./mount.js";
import { createPathPolicy, resolveVirtualPath, type PathResolution } from "./path-policy.js";
import { mountsForRole } from "./role-mounts.js";

let dataDir: string;

beforeEach(() => {
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), "lw-policy-")));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function code(resolution: PathResolution<PolicyMount>): string {
  return resolution.ok ? `ok:${resolution.kind}` : resolution.code;
}

async function plannerMounts(): Promise<PolicyMount[]> {
  const { memoryMounts, scratchMounts } = mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "run_1" });
  await ensureMountDirectories([...memoryMounts, ...scratchMounts]);
  return [...memoryMounts, ...scratchMounts];
}

describe("resolveVirtualPath: escapes", () => {
  it("maps mounted paths to host paths, relative to cwd, with .. resolved lexically", async () => {
    const mounts = await plannerMounts();
    const resolution = resolveVirtualPath(mounts, "notes/../plan.md", { cwd: "/mnt/scratch/own", access: "write" });
    expect(resolution).toMatchObject({ ok: true, kind: "mounted", virtualPath: "/mnt/scratch/own/plan.md" });
    expect(resolution.ok && resolution.kind === "mounted" && resolution.hostPath).toBe(join(dataDir, "runs/run_1/scratch/plan.md"));
    const sideways = resolveVirtualPath(mounts, "../../memory/workflow/a.md", { cwd: "/mnt/scratch/own", access: "write" });
    expect(sideways.ok && sideways.kind === "mounted" && sideways.hostPath).toBe(join(dataDir, "memory/workflows/wf/a.md"));
  });

  it("refuses .. that climbs out of every mount or above /", async () => {
    const mounts = await plannerMounts();
    const out = resolveVirtualPath(mounts, "../../../etc/passwd", { cwd: "/mnt/scratch/own", access: "read" });
    expect(code(out)).toBe("outside_mounts");
    expect(!out.ok && out.virtualPath).toBe("/etc/passwd");
    expect(code(resolveVirtualPath(mounts, "/mnt/memory/org/../../../../..", { cwd: "/", access: "read" }))).toBe("above_root");
    expect(code(resolveVirtualPath(mounts, "../../../../../x", { cwd: "/mnt/scratch/own", access: "write" }))).toBe("above_root");
  });

  it("refuses NUL bytes and backslashes", async () => {
    const mounts = await plannerMounts();
    expect(code(resolveVirtualPath(mounts, "/mnt/scratch/own/a\0.txt", { cwd: "/", access: "read" }))).toBe("nul_byte");
    expect(code(resolveVirtualPath(mounts, "a.txt", { cwd: "/mnt/scratch/own\0", access: "read" }))).toBe("invalid_cwd");
    expect(code(resolveVirtualPath(mounts, "..\\..\\etc", { cwd: "/mnt/scratch/own", access: "read" }))).toBe("backslash");
    expect(code(resolveVirtualPath(mounts, "", { cwd: "/", access: "read" }))).toBe("empty_path");
    expect(code(resolveVirtualPath(mounts, "a", { cwd: "relative", access: "read" }))).toBe("invalid_cwd");
  });

  it("refuses case tricks on mount paths", async () => {
    const mounts = await plannerMounts();
    const resolution = resolveVirtualPath(mounts, "/MNT/Memory/org/x", { cwd: "/", access: "read" });
    expect(code(resolution)).toBe("case_mismatch");
    expect(!resolution.ok && resolution.message).toContain("/mnt/memory/org/");
    expect(code(resolveVirtualPath(mounts, "/mnt/memory/ORG", { cwd: "/", access: "write" }))).toBe("case_mismatch");
    expect(code(resolveVirtualPath(mounts, "/Mnt", { cwd: "/", access: "read" }))).toBe("case_mismatch");
  });

  it("refuses a symlink that leaves its mount, even into another mount's host directory", async () => {
    const mounts = await plannerMounts();
    const own = join(dataDir, "runs/run_1/scratch");
    mkdirSync(join(dataDir, "outside"));
    symlinkSync(join(dataDir, "outside"), join(own, "out"));
    symlinkSync(join(dataDir, "memory/org"), join(own, "org-link"));
    symlinkSync(join(dataDir, "nowhere/file"), join(own, "dangling"));
    mkdirSync(join(own, "real"));
    symlinkSync(join(own, "real"), join(own, "inside"));
    for (const path of ["out/x", "org-link/x", "dangling"]) {
      const resolution = resolveVirtualPath(mounts, path, { cwd: "/mnt/scratch/own", access: "write" });
      expect(code(resolution), path).toBe("symlink_escape");
      expect(code(resolveVirtualPath(mounts, path, { cwd: "/mnt/scratch/own", access: "read" })), path).toBe("symlink_escape");
    }
    const inside = resolveVirtualPath(mounts, "inside/f", { cwd: "/mnt/scratch/own", access: "write" });
    expect(inside.ok && inside.kind === "mounted" && inside.hostPath).toBe(join(own, "real/f"));
  });

  it("refuses writes to read-only mounts, mount points and the virtual directories above mounts", async () => {
    const mounts = await plannerMounts();
    const readOnly = resolveVirtualPath(mounts, "/mnt/memory/org/x.md", { cwd: "/", access: "write" });
    expect(code(readOnly)).toBe("read_only");
    expect(!readOnly.ok && readOnly.message).toContain("writable mounts: /mnt/memory/workflow/, /mnt/scratch/own/");
    expect(code(resolveVirtualPath(mounts, "/mnt/memory/org/x.md", { cwd: "/", access: "read" }))).toBe("ok:mounted");
    expect(code(resolveVirtualPath(mounts, "/mnt/memory/workflow", { cwd: "/", access: "write" }))).toBe("mount_point");
    expect(code(resolveVirtualPath(mounts, "/mnt/memory", { cwd: "/", access: "write" }))).toBe("outside_mounts");
    expect(code(resolveVirtualPath(mounts, "/tmp/x", { cwd: "/", access: "write" }))).toBe("outside_mounts");
    expect(resolveVirtualPath(mounts, "/mnt", { cwd: "/", access: "read" })).toEqual({
      ok: true,
      kind: "mount-ancestor",
      virtualPath: "/mnt",
      children: ["memory", "scratch"],
    });
    expect(resolveVirtualPath(mounts, "/", { cwd: "/", access: "read" })).toMatchObject({ children: ["mnt"] });
  });

  it("lets a nested read-only mount win over the rw mount around it", async () => {
    const mounts = await plannerMounts();
    const skill = { mountPath: "/mnt/scratch/own/.agents/skills/demo", hostPath: join(dataDir, "skill"), mode: "ro" as const };
    const policy = createPathPolicy([...mounts, skill]);
    expect(code(policy.resolve(".agents/skills/demo/SKILL.md", { cwd: "/mnt/scratch/own", access: "read" }))).toBe("ok:mounted");
    expect(code(policy.resolve(".agents/skills/demo/SKILL.md", { cwd: "/mnt/scratch/own", access: "write" }))).toBe("read_only");
    expect(code(policy.resolve(".agents", { cwd: "/mnt/scratch/own", access: "write" }))).toBe("mount_point");
    expect(code(policy.resolve(".agents/notes.md", { cwd: "/mnt/scratch/own", access: "write" }))).toBe("ok:mounted");
  });

  it("refuses a malformed mount table", () => {
    expect(() => createPathPolicy([{ mountPath: "mnt/x", hostPath: "/x", mode: "rw" }])).toThrow(MemoryLayoutError);
    expect(() =>
      createPathPolicy([
        { mountPath: "/a", hostPath: "/x", mode: "rw" },
        { mountPath: "/a/", hostPath: "/y", mode: "ro" },
      ]),
    ).toThrow(/mounted twice/);
    expect(() => createPathPolicy([{ mountPath: "/", hostPath: "/x", mode: "rw" }])).toThrow(MemoryLayoutError);
  });
});

describe("resolveVirtualPath: rw/ro rules per role", () => {
  function access(mounts: readonly PolicyMount[], path: string): string {
    const read = resolveVirtualPath(mounts, path, { cwd: "/", access: "read" }).ok ? "r" : "-";
    const write = resolveVirtualPath(mounts, path, { cwd: "/", access: "write" }).ok ? "w" : "-";
    return read + write;
  }

  it("planner writes the workflow store and its scratch, reads org", async () => {
    const mounts = await plannerMounts();
    expect(access(mounts, "/mnt/memory/workflow/n.md")).toBe("rw");
    expect(access(mounts, "/mnt/memory/org/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/scratch/own/n.md")).toBe("rw");
    expect(access(mounts, "/mnt/memory/pipeline/n.md")).toBe("--");
  });

  it("worker reads memory and upper scratches, writes only its own scratch", () => {
    const { memoryMounts, scratchMounts } = mountsForRole({
      role: "worker.ai-generate",
      dataDir,
      workflowId: "wf",
      runId: "run_1",
      pipelineRunId: "run_p",
      stepPath: "s",
      peerStepPaths: ["t"],
    });
    const mounts = [...memoryMounts, ...scratchMounts];
    expect(access(mounts, "/mnt/memory/workflow/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/memory/org/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/scratch/own/n.md")).toBe("rw");
    expect(access(mounts, "/mnt/scratch/from-planner/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/scratch/from-orchestrator/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/scratch/peer-steps/t/n.md")).toBe("r-");
  });

  it("orchestrator writes the pipeline store, reads org and available workflows", () => {
    const { memoryMounts, scratchMounts } = mountsForRole({
      role: "orchestrator",
      dataDir,
      pipelineRunId: "run_p",
      pipelineKey: "b".repeat(64),
      availableWorkflowIds: ["wf"],
    });
    const mounts = [...memoryMounts, ...scratchMounts];
    expect(access(mounts, "/mnt/memory/pipeline/n.md")).toBe("rw");
    expect(access(mounts, "/mnt/memory/org/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/memory/available-workflows/wf/n.md")).toBe("r-");
    expect(access(mounts, "/mnt/memory/workflow/n.md")).toBe("--");
    expect(access(mounts, "/mnt/scratch/own/n.md")).toBe("rw");
  });

  it("org 'rw' lets a planner write the org store", () => {
    const { memoryMounts } = mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "r", memory: { org: "rw" } });
    expect(access(memoryMounts, "/mnt/memory/org/n.md")).toBe("rw");
  });
});

it("resolves without creating anything on the host, and through plain files as not-yet-existing", async () => {
  const mounts = await plannerMounts();
  resolveVirtualPath(mounts, "/mnt/scratch/own/deep/new/file.txt", { cwd: "/", access: "write" });
  expect(() => realpathSync(join(dataDir, "runs/run_1/scratch/deep"))).toThrow();
  writeFileSync(join(dataDir, "runs/run_1/scratch/plain.txt"), "x");
  expect(code(resolveVirtualPath(mounts, "/mnt/scratch/own/plain.txt/child", { cwd: "/", access: "write" }))).toBe("ok:mounted");
});
