import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryLayoutError } from "./memory-layout-error.js";
import { runScratchLayout } from "./run-scratch-layout.js";
import { memoryStoreLayout } from "./store-layout.js";

const dataDir = "/data/.little-workflow";

describe("memory store and run scratch layout", () => {
  it("places stores under <dataDir>/memory", () => {
    const layout = memoryStoreLayout(dataDir);
    expect(layout.org).toBe(join(dataDir, "memory/org"));
    expect(layout.orgSkills).toBe(join(dataDir, "memory/org/skills"));
    expect(layout.workflowStore("candidate.review")).toBe(join(dataDir, "memory/workflows/candidate.review"));
    expect(layout.pipelineStore("a".repeat(64))).toBe(join(dataDir, "memory/pipelines", "a".repeat(64)));
  });

  it("refuses ids that would escape or split a directory", () => {
    const layout = memoryStoreLayout(dataDir);
    for (const bad of ["..", "../x", "a/b", ".hidden", "", "a\0b"]) {
      expect(() => layout.workflowStore(bad)).toThrow(MemoryLayoutError);
    }
    expect(() => layout.pipelineStore("sha256:abc")).toThrow(/pipelineKey\(\)/);
    expect(() => memoryStoreLayout("")).toThrow(/dataDir/);
  });

  it("lays out a top-level run and its steps", () => {
    const layout = runScratchLayout({ dataDir, runId: "run_0123456789abcdef" });
    expect(layout.scratch).toBe(join(dataDir, "runs/run_0123456789abcdef/scratch"));
    expect(layout.pipelineScratch).toBeUndefined();
    expect(layout.stepScratch("loop.visit[1]")).toBe(join(dataDir, "runs/run_0123456789abcdef/steps/loop%2Evisit%5B1%5D/scratch"));
  });

  it("nests a sub-run under its pipeline run", () => {
    const layout = runScratchLayout({ dataDir, runId: "run_b", pipelineRunId: "run_p" });
    expect(layout.runDir).toBe(join(dataDir, "runs/run_p/sub-runs/run_b"));
    expect(layout.scratch).toBe(join(dataDir, "runs/run_p/sub-runs/run_b/scratch"));
    expect(layout.pipelineScratch).toBe(join(dataDir, "runs/run_p/scratch"));
    expect(layout.stepScratch("s")).toBe(join(dataDir, "runs/run_p/sub-runs/run_b/steps/s/scratch"));
  });
});
