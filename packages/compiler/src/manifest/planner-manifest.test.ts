import { hashHarnessManifest, type OuterLoopContext } from "@little-stack/harness";
import { createScriptedModel } from "@little-stack/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { submit, tempWorld, ticketInput, ticketWorkflow, validTicketLwir, type TempWorld } from "../__fixtures__/ticket-workflow.js";
import { compileWorkflow } from "../compile-workflow.js";
import { outerLoopContextHash } from "./planner-manifest.js";

let temp: TempWorld;
beforeEach(async () => {
  temp = await tempWorld();
});
afterEach(async () => {
  await temp.close();
});

const cycle2: OuterLoopContext = {
  outerLoopId: "olp_1",
  cycleNumber: 2,
  maxCycles: 3,
  isFinalCycle: false,
  priorCycles: [{ cycleNumber: 1, status: "completed", output: { summary: "too long" } }],
  promptNote: "Keep the summary under 20 words.",
};

describe("PlannerManifest", () => {
  it("holds the seed's fields, and the session records it with its hash", async () => {
    const plannerModel = createScriptedModel({ script: [submit(validTicketLwir())], modelId: "planner-model" });
    const compiled = await compileWorkflow(ticketWorkflow({ plannerModel }), ticketInput, { world: temp.world, runId: "run_manifest" });
    const manifest = compiled.plannerManifest;
    expect(Object.keys(manifest).sort()).toEqual(
      ["bashCapabilitiesHash", "globalToolsHash", "harnessId", "memoryStoreIds", "plannerModelSlotId", "skillsHash", "systemPromptHash", "workflowDefinitionHash"].sort(),
    );
    expect(manifest).toMatchObject({ harnessId: "workflowHarness@0.2.0", plannerModelSlotId: "planner-model", workflowDefinitionHash: compiled.workflowDefinitionHash, globalToolsHash: compiled.snapshot.globalToolsHash });
    expect(manifest.memoryStoreIds).toEqual(["org:ro", "workflow:support.summarize-ticket:rw"]);
    const started = (await temp.world.listEvents("run_manifest", { typePrefix: "harness.session.started" }))[0]!.payload as { manifest: unknown; manifestHash: string };
    expect(started.manifest).toEqual(manifest);
    expect(started.manifestHash).toBe(hashHarnessManifest(manifest));
  });

  it("carries the outer-loop context hash, and the plan task gets the context", async () => {
    const planner = createScriptedModel({ script: [submit(validTicketLwir())] });
    const compiled = await compileWorkflow(ticketWorkflow({ plannerModel: planner }), ticketInput, { world: temp.world, runId: "run_cycle_2", outerLoopContext: cycle2 });
    expect(compiled.plannerManifest.outerLoopContextHash).toBe(outerLoopContextHash(cycle2));
    expect(compiled.request.outerLoop).toEqual(cycle2);
    expect(JSON.stringify(planner.callOptions[0]!.prompt)).toContain("Keep the summary under 20 words.");
    const requested = (await temp.world.listEvents("run_cycle_2", { typePrefix: "OrchestrationRequested" }))[0]!.payload as { outerLoop: unknown };
    expect(requested.outerLoop).toEqual(cycle2);
  });

  it("a different cycle's context is drift for a run planned under another one", async () => {
    await compileWorkflow(ticketWorkflow({ plannerModel: createScriptedModel({ script: [submit(validTicketLwir())] }) }), ticketInput, { world: temp.world, runId: "run_cycle", outerLoopContext: cycle2 });
    const cycle3 = { ...cycle2, cycleNumber: 3, isFinalCycle: true };
    const error = await compileWorkflow(ticketWorkflow({ plannerModel: createScriptedModel({ script: [] }) }), ticketInput, { world: temp.world, runId: "run_cycle", outerLoopContext: cycle3 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "capability_drift" });
    expect((error as Error).message).toContain("manifest.outerLoopContextHash");
  });

  it("a changed memory config is drift on resume, with the changed field named", async () => {
    await compileWorkflow(ticketWorkflow({ plan: validTicketLwir() }), ticketInput, { world: temp.world, runId: "run_org" });
    const changed = ticketWorkflow({ plan: validTicketLwir(), overrides: { memory: { org: "none" } } });
    const error = await compileWorkflow(changed, ticketInput, { world: temp.world, runId: "run_org" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "capability_drift" });
    expect((error as Error).message).toContain('snapshot.memoryConfig.org: "ro" → "none"');
  });
});
