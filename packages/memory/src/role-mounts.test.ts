import { sha256Digest } from "@little-stack/canonical";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryConfigError } from "./memory-config-error.js";
import { pipelineKey } from "./pipeline-key.js";
import { memoryStoreIds, mountsForRole, type RoleMounts } from "./role-mounts.js";

const dataDir = "/data/lw";

function table(mounts: RoleMounts): Record<string, string> {
  return Object.fromEntries(
    [...mounts.memoryMounts, ...mounts.scratchMounts].map((mount) => [mount.mountPath, `${mount.mode} ${mount.hostPath}`]),
  );
}

describe("mountsForRole", () => {
  it("planner: workflow store rw, org ro, own run scratch rw", () => {
    const mounts = mountsForRole({ role: "planner", dataDir, workflowId: "cand.review", runId: "run_1" });
    expect(table(mounts)).toEqual({
      "/mnt/memory/workflow": `rw ${join(dataDir, "memory/workflows/cand.review")}`,
      "/mnt/memory/org": `ro ${join(dataDir, "memory/org")}`,
      "/mnt/scratch/own": `rw ${join(dataDir, "runs/run_1/scratch")}`,
    });
    expect(memoryStoreIds(mounts.memoryMounts)).toEqual(["org:ro", "workflow:cand.review:rw"]);
  });

  it("planner inside a pipeline also reads the orchestrator's scratch, and attached peers", () => {
    const mounts = mountsForRole({
      role: "planner",
      dataDir,
      workflowId: "a",
      runId: "run_2",
      pipelineRunId: "run_p",
      memory: { org: "rw", attach: ["b"] },
    });
    expect(table(mounts)).toEqual({
      "/mnt/memory/workflow": `rw ${join(dataDir, "memory/workflows/a")}`,
      "/mnt/memory/org": `rw ${join(dataDir, "memory/org")}`,
      "/mnt/memory/peer-workflows/b": `ro ${join(dataDir, "memory/workflows/b")}`,
      "/mnt/scratch/own": `rw ${join(dataDir, "runs/run_p/sub-runs/run_2/scratch")}`,
      "/mnt/scratch/from-orchestrator": `ro ${join(dataDir, "runs/run_p/scratch")}`,
    });
  });

  it("workers never write memory and see upper scratches read-only", () => {
    const mounts = mountsForRole({
      role: "worker.code-run",
      dataDir,
      workflowId: "a",
      runId: "run_3",
      pipelineRunId: "run_p",
      memory: { workflow: "rw", org: "rw" },
      stepPath: "fan[x].s",
      peerStepPaths: ["prep", "fan[x].s", "prep"],
    });
    expect(table(mounts)).toEqual({
      "/mnt/memory/workflow": `ro ${join(dataDir, "memory/workflows/a")}`,
      "/mnt/memory/org": `ro ${join(dataDir, "memory/org")}`,
      "/mnt/scratch/own": `rw ${join(dataDir, "runs/run_p/sub-runs/run_3/steps/fan%5Bx%5D%2Es/scratch")}`,
      "/mnt/scratch/from-planner": `ro ${join(dataDir, "runs/run_p/sub-runs/run_3/scratch")}`,
      "/mnt/scratch/from-orchestrator": `ro ${join(dataDir, "runs/run_p/scratch")}`,
      "/mnt/scratch/peer-steps/prep": `ro ${join(dataDir, "runs/run_p/sub-runs/run_3/steps/prep/scratch")}`,
    });
  });

  it("fixer follows the workflow's memory config and shares the step's scratch", () => {
    const mounts = mountsForRole({ role: "fixer", dataDir, workflowId: "a", runId: "run_4", stepPath: "code" });
    expect(table(mounts)).toEqual({
      "/mnt/memory/workflow": `rw ${join(dataDir, "memory/workflows/a")}`,
      "/mnt/memory/org": `ro ${join(dataDir, "memory/org")}`,
      "/mnt/scratch/own": `rw ${join(dataDir, "runs/run_4/steps/code/scratch")}`,
      "/mnt/scratch/from-planner": `ro ${join(dataDir, "runs/run_4/scratch")}`,
    });
  });

  it("'none' removes a store for every role", () => {
    const planner = mountsForRole({ role: "planner", dataDir, workflowId: "a", runId: "r", memory: { workflow: "none", org: "none" } });
    expect(planner.memoryMounts).toEqual([]);
    const worker = mountsForRole({ role: "worker.tool-call", dataDir, workflowId: "a", runId: "r", stepPath: "s", memory: { org: "none" } });
    expect(worker.memoryMounts.map((mount) => mount.mountPath)).toEqual(["/mnt/memory/workflow"]);
  });

  it("orchestrator: pipeline store rw, org ro, available workflows ro, pipeline scratch rw", () => {
    const key = pipelineKey([sha256Digest("x"), sha256Digest("y")]);
    const mounts = mountsForRole({ role: "orchestrator", dataDir, pipelineRunId: "run_p", pipelineKey: key, availableWorkflowIds: ["y", "x"] });
    expect(table(mounts)).toEqual({
      "/mnt/memory/pipeline": `rw ${join(dataDir, "memory/pipelines", key)}`,
      "/mnt/memory/org": `ro ${join(dataDir, "memory/org")}`,
      "/mnt/memory/available-workflows/x": `ro ${join(dataDir, "memory/workflows/x")}`,
      "/mnt/memory/available-workflows/y": `ro ${join(dataDir, "memory/workflows/y")}`,
      "/mnt/scratch/own": `rw ${join(dataDir, "runs/run_p/scratch")}`,
    });
    expect(mounts.memoryMounts.map((mount) => mount.mountPath)).toEqual([...mounts.memoryMounts.map((mount) => mount.mountPath)].sort());
  });

  it("validates the memory config it is given", () => {
    expect(() => mountsForRole({ role: "planner", dataDir, workflowId: "a", runId: "r", memory: { org: "yes" } })).toThrow(MemoryConfigError);
    expect(() =>
      mountsForRole({ role: "orchestrator", dataDir, pipelineRunId: "p", pipelineKey: "a".repeat(64), availableWorkflowIds: ["x", "x"] }),
    ).toThrow(/listed twice/);
  });
});
