import { registerWorkflowVersion } from "@little-stack/lwir";
import { createScriptedModel } from "@little-stack/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnCompileChild } from "./__fixtures__/spawn-compile-child.js";
import { submit, tempWorld, ticketInput, ticketWorkflow, validTicketLwir, type TempWorld } from "./__fixtures__/ticket-workflow.js";
import { compileWorkflow } from "./compile-workflow.js";

let temp: TempWorld;
beforeEach(async () => {
  temp = await tempWorld();
});
afterEach(async () => {
  await temp.close();
});

describe("compileWorkflow across processes", () => {
  it("gives the same definition hash and WorkflowVersion id in two processes", async () => {
    const child = await spawnCompileChild({ dataDir: temp.dataDir, runId: "run_child", mode: "plan" });
    expect(child.stderr).toBe("");
    expect(child.code).toBe(0);
    const fromChild = JSON.parse(child.stdout) as { workflowVersionId: string; workflowDefinitionHash: string; modelCalls: number };
    expect(fromChild.modelCalls).toBe(2);
    const other = await tempWorld();
    try {
      const planner = createScriptedModel({ script: [{ toolCalls: [{ toolName: "bash", args: { cmd: "echo drafting > draft.txt" } }] }, submit(validTicketLwir())] });
      const here = await compileWorkflow(ticketWorkflow({ plannerModel: planner }), ticketInput, { world: other.world, runId: "run_here" });
      expect(here.workflowVersionId).toBe(fromChild.workflowVersionId);
      expect(here.workflowDefinitionHash).toBe(fromChild.workflowDefinitionHash);
    } finally {
      await other.close();
    }
  });

  it("after a SIGKILL between the planner session and registration, a re-compile makes zero model calls and gets the same id", async () => {
    const child = await spawnCompileChild({ dataDir: temp.dataDir, runId: "run_killed", mode: "kill-after-plan" });
    expect(child.signal).toBe("SIGKILL");
    const before = (await temp.world.listEvents("run_killed")).map((event) => event.type);
    expect(before).toContain("harness.session.completed");
    expect(before).not.toContain("WorkflowVersionRegistered");
    // The dead process's run lock is recovered; the planner session is answered from the log.
    const silent = createScriptedModel({ script: [] });
    const compiled = await compileWorkflow(ticketWorkflow({ plannerModel: silent }), ticketInput, { world: temp.world, runId: "run_killed" });
    expect(silent.callCount).toBe(0);
    expect(compiled.workflowVersionId).toBe(registerWorkflowVersion(validTicketLwir()).id);
    const after = (await temp.world.listEvents("run_killed")).map((event) => event.type);
    expect(after.filter((type) => type === "harness.model.called")).toHaveLength(2);
    expect(after.filter((type) => type === "WorkflowValidationSucceeded")).toHaveLength(1);
    expect(after.at(-1)).toBe("WorkflowVersionRegistered");
  });
});
