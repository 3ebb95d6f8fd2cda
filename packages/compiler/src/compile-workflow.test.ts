import { LittleWorkflowError } from "@little-stack/canonical";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Harness } from "@little-stack/harness";
import type { EventEnvelope } from "@little-stack/local-world";
import { createScriptedModel } from "@little-stack/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lwirWithThreeMistakes, submit, tempWorld, ticketInput, ticketWorkflow, validTicketLwir, type TempWorld } from "./__fixtures__/ticket-workflow.js";
import { compileWorkflow } from "./compile-workflow.js";
import { PlannerValidationExhaustedError, WorkflowInputValidationError } from "./errors/compile-errors.js";

let temp: TempWorld;
beforeEach(async () => {
  temp = await tempWorld();
});
afterEach(async () => {
  await temp.close();
});

function types(events: readonly EventEnvelope[]): string[] {
  return events.map((event) => event.type);
}

function compileTypes(events: readonly EventEnvelope[]): string[] {
  return types(events).filter((type) => !type.startsWith("harness."));
}

describe("compileWorkflow", () => {
  it("refuses input that does not match the input schema, before anything is planned or logged", async () => {
    const workflow = ticketWorkflow({ plan: validTicketLwir() });
    const error = await compileWorkflow(workflow, { ticketId: 7 }, { world: temp.world, runId: "run_bad_input" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkflowInputValidationError);
    expect(error).toMatchObject({ code: "input_schema_error", causeCode: "input_schema_error" });
    expect((error as Error).message).toMatch(/\$\.ticketId/);
    expect((error as Error).message).toMatch(/transcript/);
    expect(await temp.world.listEvents("run_bad_input")).toEqual([]);
    const notJson = await compileWorkflow(workflow, { ...ticketInput, at: new Date(0) }, { world: temp.world, runId: "run_bad_input" }).catch((caught: unknown) => caught);
    expect(notJson).toBeInstanceOf(WorkflowInputValidationError);
    expect((notJson as Error).message).toMatch(/\$\.at/);
  });

  it("a fixed plan that does not bind fails once, naming each finding, without planner advice", async () => {
    const plan = structuredClone(validTicketLwir()) as unknown as { steps: { output: unknown }[] };
    plan.steps[1]!.output = { mode: "text" };
    const error = await compileWorkflow(ticketWorkflow({ plan: plan as never }), ticketInput, { world: temp.world, runId: "run_fixed_unbound" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlannerValidationExhaustedError);
    expect((error as PlannerValidationExhaustedError).details).toMatchObject({ reason: "fixed_plan" });
    expect((error as PlannerValidationExhaustedError).revisions).toHaveLength(1);
    expect((error as Error).message).toMatch(/the fixed plan given to defineWorkflow\(\{ plan \}\) does not bind/);
    expect((error as Error).message).toMatch(/\$\.steps\[1\]\.output binding\.terminal_output_mismatch: Step "summarize" produces the run's output/);
    expect((error as Error).message).not.toMatch(/maxWorkflowRevisions|sharpen/);
  });

  /** temp.world, recording each append's event types and whether it was asked to be durable. */
  function batchRecordingWorld() {
    const batches: { types: string[]; durable: boolean }[] = [];
    const world = new Proxy(temp.world, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property === "appendEvents") {
          return async (...args: Parameters<typeof target.appendEvents>) => {
            const stored = await target.appendEvents(...args);
            batches.push({ types: stored.map((event) => event.type), durable: args[2]?.durable !== false });
            return stored;
          };
        }
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { world, batches };
  }

  it("commits a fixed plan's compile in three transactions that need no sync: announcements ride with the next event", async () => {
    const { world, batches } = batchRecordingWorld();
    await compileWorkflow(ticketWorkflow({ plan: validTicketLwir() }), ticketInput, { world, runId: "run_batches" });
    expect(batches).toEqual([
      { types: ["OrchestrationRequested", "harness.session.started"], durable: false },
      { types: ["harness.session.completed"], durable: false },
      { types: ["WorkflowValidationSucceeded", "WorkflowVersionRegistered"], durable: false },
    ]);
    // A fixed plan that does not bind: what was asked and why it failed are in the log all the same.
    const plan = structuredClone(validTicketLwir()) as unknown as { steps: { output: unknown }[] };
    plan.steps[1]!.output = { mode: "text" };
    batches.length = 0;
    await expect(compileWorkflow(ticketWorkflow({ plan: plan as never }), ticketInput, { world, runId: "run_batches_unbound" })).rejects.toBeInstanceOf(PlannerValidationExhaustedError);
    expect(batches.flatMap((batch) => batch.types)).toEqual(["OrchestrationRequested", "harness.session.started", "harness.session.completed", "WorkflowValidationFailed"]);
  });

  it("asks for a durable commit of every model response and tool result of the planner, and of nothing a resumed compile writes again", async () => {
    const { world, batches } = batchRecordingWorld();
    const planner = createScriptedModel({ script: [submit(lwirWithThreeMistakes()), submit(validTicketLwir())] });
    await compileWorkflow(ticketWorkflow({ plannerModel: planner }), ticketInput, { world, runId: "run_durable_planner" });
    const results = new Set(["harness.model.responded", "harness.tool_call.succeeded"]);
    const withResults = batches.filter((batch) => batch.types.some((type) => results.has(type)));
    expect(withResults.length).toBeGreaterThanOrEqual(4);
    for (const batch of withResults) expect(batch, batch.types.join(", ")).toMatchObject({ durable: true });
    for (const batch of batches.filter((each) => !withResults.includes(each))) expect(batch, batch.types.join(", ")).toMatchObject({ durable: false });
    expect(batches.at(-1)!.types).toContain("WorkflowVersionRegistered");
  });

  it("compiles a fixed plan without any model call and locks it", async () => {
    const workflow = ticketWorkflow({ plan: validTicketLwir() });
    const compiled = await compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_fixed" });
    const events = await temp.world.listEvents("run_fixed");
    expect(types(events)).toEqual(["OrchestrationRequested", "harness.session.started", "harness.session.completed", "WorkflowValidationSucceeded", "WorkflowVersionRegistered"]);
    expect(compiled.workflowVersionId).toMatch(/^wfver_[0-9a-f]{16}$/);
    expect(compiled.lock).toMatchObject({
      workflowVersionId: compiled.workflowVersionId,
      lwirVersionId: compiled.workflowVersionId,
      workflowVersionHash: compiled.version.hash,
      lwirHash: compiled.version.hash,
      workflowDefinitionHash: compiled.workflowDefinitionHash,
      inputSchemaHash: compiled.snapshot.inputSchemaHash,
      requestedOutput: { mode: "object" },
      modelSlots: [{ id: "gpt-4o-mini", providerId: "openai.chat", modelId: "gpt-4o-mini" }],
      tools: [{ name: "lookupCustomer" }],
    });
    for (const field of ["requestedOutputHash", "capabilityManifestHash", "validationHash"] as const) expect(compiled.lock[field]).toMatch(/^sha256:[0-9a-f]{64}$/);
    const registered = events.at(-1)!.payload as { workflowVersionId: string; lwir: unknown; lock: unknown };
    expect(registered.workflowVersionId).toBe(compiled.workflowVersionId);
    expect(registered.lwir).toEqual(validTicketLwir());
    expect(registered.lock).toEqual(compiled.lock);
    const started = events[1]!.payload as { role: string; manifest: { plannerModelSlotId: string; workflowDefinitionHash: string } };
    expect(started.role).toBe("planner");
    expect(started.manifest).toMatchObject({ plannerModelSlotId: "fixed-plan", workflowDefinitionHash: compiled.workflowDefinitionHash });
  });

  it("feeds three distinct mistakes back to the planner, which repairs them: both revisions are in the log", async () => {
    const planner = createScriptedModel({ script: [submit(lwirWithThreeMistakes()), submit(validTicketLwir())] });
    const workflow = ticketWorkflow({ plannerModel: planner });
    const compiled = await compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_repair" });
    expect(planner.callCount).toBe(2);
    // The second call's prompt carries the findings of the first submission.
    const secondPrompt = JSON.stringify(planner.callOptions[1]!.prompt);
    for (const code of ["binding.workflow_name_mismatch", "binding.model_disallowed", "binding.tool_disallowed"]) expect(secondPrompt).toContain(code);
    const events = await temp.world.listEvents("run_repair");
    expect(compileTypes(events)).toEqual(["OrchestrationRequested", "WorkflowValidationFailed", "WorkflowValidationSucceeded", "WorkflowVersionRegistered"]);
    const failed = events.find((event) => event.type === "WorkflowValidationFailed")!.payload as { revision: number; findings: { code: string; path: string }[] };
    expect(failed.revision).toBe(1);
    expect(new Set(failed.findings.map((finding) => finding.code))).toEqual(new Set(["binding.workflow_name_mismatch", "binding.model_disallowed", "binding.tool_disallowed"]));
    expect(failed.findings.map((finding) => finding.path)).toEqual(
      expect.arrayContaining(["$.metadata.name", "$.permissions.models[0]", "$.permissions.tools[1]", "$.steps[1].with.model"]),
    );
    const succeeded = events.find((event) => event.type === "WorkflowValidationSucceeded")!.payload as { revision: number; lwirHash: string };
    expect(succeeded).toMatchObject({ revision: 2, lwirHash: compiled.version.hash });
    expect(types(events).filter((type) => type === "harness.tool_call.succeeded")).toHaveLength(2);
    expect(compiled.version.lwir).toEqual(validTicketLwir());
  });

  it("fails with planner_validation_exhausted after exactly maxWorkflowRevisions, with every revision's findings", async () => {
    const planner = createScriptedModel({ script: [submit(lwirWithThreeMistakes()), submit({ ...validTicketLwir(), steps: [] }), submit(lwirWithThreeMistakes()), submit(validTicketLwir())] });
    const workflow = ticketWorkflow({ plannerModel: planner });
    const error = await compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_exhausted" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlannerValidationExhaustedError);
    const exhausted = error as PlannerValidationExhaustedError;
    expect(exhausted.code).toBe("planner_validation_exhausted");
    expect(exhausted.causeCode).toBe("planner_validation_exhausted");
    expect(planner.callCount).toBe(3);
    expect(exhausted.revisions.map((revision) => revision.revision)).toEqual([1, 2, 3]);
    expect(exhausted.revisions[1]!.findings.map((finding) => finding.path)).toContain("$.steps");
    expect(exhausted.message).toMatch(/all 3 workflow revision/);
    const events = await temp.world.listEvents("run_exhausted");
    expect(compileTypes(events)).toEqual(["OrchestrationRequested", "WorkflowValidationFailed", "WorkflowValidationFailed", "WorkflowValidationFailed"]);
    expect(types(events)).toContain("harness.session.failed");
  });

  it("compiling the same run again returns the registered version with zero model calls", async () => {
    const first = await compileWorkflow(ticketWorkflow({ plannerModel: createScriptedModel({ script: [submit(validTicketLwir())] }) }), ticketInput, { world: temp.world, runId: "run_memo" });
    const silent = createScriptedModel({ script: [] });
    const again = await compileWorkflow(ticketWorkflow({ plannerModel: silent }), ticketInput, { world: temp.world, runId: "run_memo" });
    expect(silent.callCount).toBe(0);
    expect(again.fromLog).toBe(true);
    expect(again.workflowVersionId).toBe(first.workflowVersionId);
    expect(again.lock).toEqual(first.lock);
    expect(compileTypes(await temp.world.listEvents("run_memo"))).toEqual(["OrchestrationRequested", "WorkflowValidationSucceeded", "WorkflowVersionRegistered"]);
  });

  it("a second compile of an interrupted planner session replays the recorded turns and calls the model only for the rest", async () => {
    const controller = new AbortController();
    const interrupted = createScriptedModel({ script: [submit(lwirWithThreeMistakes())] });
    // The second model call "kills the process": it aborts the compile instead of answering.
    const wrapped: LanguageModelV3 = {
      specificationVersion: "v3",
      provider: interrupted.provider,
      modelId: interrupted.modelId,
      supportedUrls: {},
      doStream: (params) => interrupted.doStream(params),
      doGenerate: async (params) => {
        if (interrupted.callCount >= 1) {
          controller.abort();
          throw new Error("process killed");
        }
        return interrupted.doGenerate(params);
      },
    };
    await expect(compileWorkflow(ticketWorkflow({ plannerModel: wrapped }), ticketInput, { world: temp.world, runId: "run_resume", abortSignal: controller.signal })).rejects.toThrow();
    expect(types(await temp.world.listEvents("run_resume"))).not.toContain("harness.session.failed");
    const rest = createScriptedModel({ script: [submit(validTicketLwir())] });
    const compiled = await compileWorkflow(ticketWorkflow({ plannerModel: rest }), ticketInput, { world: temp.world, runId: "run_resume" });
    expect(rest.callCount).toBe(1);
    expect(compiled.version.lwir).toEqual(validTicketLwir());
    const events = await temp.world.listEvents("run_resume");
    expect(types(events).filter((type) => type === "OrchestrationRequested")).toHaveLength(1);
    expect(types(events).filter((type) => type === "harness.session.started")).toHaveLength(1);
  });

  it("a custom harness that returns invalid LWIR is re-run in a new session with the findings, up to the cap", async () => {
    const seen: unknown[] = [];
    const harness: Harness = {
      async run(_task, ctx) {
        seen.push((ctx as { planning?: { previousFindings?: unknown } }).planning?.previousFindings);
        return { kind: "plan" as const, lwir: seen.length === 1 ? lwirWithThreeMistakes() : validTicketLwir() };
      },
    };
    const workflow = ticketWorkflow({ plannerModel: createScriptedModel({ script: [] }), harness });
    const compiled = await compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_custom" });
    expect(seen[0]).toEqual([]);
    expect((seen[1] as { code: string }[]).map((finding) => finding.code)).toContain("binding.workflow_name_mismatch");
    expect(compiled.version.lwir).toEqual(validTicketLwir());
    const events = await temp.world.listEvents("run_custom");
    expect(compileTypes(events)).toEqual(["OrchestrationRequested", "WorkflowValidationFailed", "WorkflowValidationSucceeded", "WorkflowVersionRegistered"]);
  });

  it("a planner that stops without submitting fails with planner_validation_exhausted (not_submitted)", async () => {
    // A text-only turn gets a reminder (at most three); a planner that keeps answering in text has not submitted.
    const planner = createScriptedModel({ script: [submit(lwirWithThreeMistakes()), { text: "I give up." }, { text: "Really." }, { text: "No." }, { text: "Stop." }] });
    const error = await compileWorkflow(ticketWorkflow({ plannerModel: planner }), ticketInput, { world: temp.world, runId: "run_quiet" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlannerValidationExhaustedError);
    expect((error as PlannerValidationExhaustedError).details).toMatchObject({ reason: "not_submitted" });
    expect((error as PlannerValidationExhaustedError).revisions).toHaveLength(1);
    expect((error as Error).message).toMatch(/stopped without submitting a valid LWIR \(1 invalid submission/);
  });

  it("a planner harness that delegates the plan task gets the default workflowHarness", async () => {
    const harness: Harness = { run: async () => ({ kind: "delegate_to_default" }) };
    const planner = createScriptedModel({ script: [submit(validTicketLwir())] });
    const compiled = await compileWorkflow(ticketWorkflow({ plannerModel: planner, harness }), ticketInput, { world: temp.world, runId: "run_delegate" });
    expect(planner.callCount).toBe(1);
    expect(compiled.version.lwir).toEqual(validTicketLwir());
    expect(compiled.plannerManifest.harnessId).toBe("custom");
  });

  it("changing a tool's description changes the definition hash and is reported as drift on resume", async () => {
    const first = await compileWorkflow(ticketWorkflow({ plan: validTicketLwir() }), ticketInput, { world: temp.world, runId: "run_drift" });
    const changed = ticketWorkflow({ plan: validTicketLwir(), toolDescription: "Look up a customer record by ticket id." });
    const error = await compileWorkflow(changed, ticketInput, { world: temp.world, runId: "run_drift" }).catch((caught: unknown) => caught);
    expect(LittleWorkflowError.is(error, "capability_drift")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('snapshot.tools[0].description: "Look up a customer by ticket id." → "Look up a customer record by ticket id."');
    expect(message).toContain(first.workflowDefinitionHash);
    const fresh = await compileWorkflow(changed, ticketInput, { world: temp.world, runId: "run_drift_2" });
    expect(fresh.workflowDefinitionHash).not.toBe(first.workflowDefinitionHash);
  });

  it("refuses a run whose log registers a version it did not compile", async () => {
    const lwir = validTicketLwir();
    await temp.world.appendEvents("run_direct", [{ type: "WorkflowVersionRegistered", payload: { workflowVersionId: "wfver_0000000000000000", hash: "sha256:x", lwir } }]);
    await expect(compileWorkflow(ticketWorkflow({ plan: lwir }), ticketInput, { world: temp.world, runId: "run_direct" })).rejects.toMatchObject({
      code: "compile.registered_version_mismatch",
    });
  });

  it("refuses a run id compiled before for another input", async () => {
    await compileWorkflow(ticketWorkflow({ plan: validTicketLwir() }), ticketInput, { world: temp.world, runId: "run_input" });
    await expect(compileWorkflow(ticketWorkflow({ plan: validTicketLwir() }), { ...ticketInput, ticketId: "T-2" }, { world: temp.world, runId: "run_input" })).rejects.toMatchObject({
      code: "compile.input_mismatch",
    });
  });

  it("refuses a workflow whose tools are missing from the registry", async () => {
    const workflow = ticketWorkflow({ plan: validTicketLwir(), overrides: { tools: ["lookupCustomer"] } });
    await expect(compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_tools" })).rejects.toMatchObject({ code: "compile.missing_tool" });
  });
});
