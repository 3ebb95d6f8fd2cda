import { describe, expect, it } from "vitest";
import { describeMounts } from "./describe-mounts.js";
import { mountsForRole } from "./role-mounts.js";

describe("describeMounts", () => {
  it("renders the mount block of the system prompt, without host paths", () => {
    const mounts = mountsForRole({ role: "orchestrator", dataDir: "/secret/host/dir", pipelineRunId: "run_p", pipelineKey: "d".repeat(64), availableWorkflowIds: ["wf"] });
    const block = describeMounts(mounts);
    expect(block).toBe(
      [
        "Memory mounts (read with bash):",
        "- /mnt/memory/available-workflows/wf/ (ro) — notes of the available workflow wf (read-only).",
        "- /mnt/memory/org/ (ro) — organization-wide knowledge shared by every workflow.",
        "- /mnt/memory/pipeline/ (rw) — persistent notes for this pipeline (same workflows, same store).",
        "",
        "Scratch mounts (ephemeral, this run only):",
        "- /mnt/scratch/own/ (rw) — your working area for this pipeline run.",
      ].join("\n"),
    );
    expect(block).not.toContain("/secret/host");
  });

  it("is empty without mounts and omits an empty section", () => {
    expect(describeMounts({ memoryMounts: [], scratchMounts: [] })).toBe("");
    const planner = mountsForRole({ role: "planner", dataDir: "/d", workflowId: "wf", runId: "r", memory: { workflow: "none", org: "none" } });
    expect(describeMounts(planner)).toBe("Scratch mounts (ephemeral, this run only):\n- /mnt/scratch/own/ (rw) — your working area for this run.");
  });
});
