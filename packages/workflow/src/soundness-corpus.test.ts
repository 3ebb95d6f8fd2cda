import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bindingFindings, type BindingTarget } from "@little-stack/compiler";
import { ExpressionEvaluationError, registerWorkflowVersion, resolveTemplates, validateLwir, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { shutdownSandboxWorkers } from "@little-stack/sandbox";
import { createSchemaAnsweringModel } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";
import { corpusCoverage, requiredCoverage } from "./__fixtures__/soundness-corpus/corpus-coverage.js";
import { deliveryOf, type CorpusEntry } from "./__fixtures__/soundness-corpus/corpus-entry.js";
import { rejectedPlans, type RejectedPlan } from "./__fixtures__/soundness-corpus/rejected-plans.js";
import { soundnessCorpus } from "./__fixtures__/soundness-corpus/soundness-corpus.js";
import { describeOutcome, runCorpusEntry, type CorpusRun } from "./__fixtures__/soundness-corpus/run-corpus-entry.js";
import { localWorld, RunFailedError } from "./index.js";

// Soundness (issue 13, item 5): a plan the validator accepts never fails at run time for a reason
// the document alone decides. Every corpus plan is validated, bound, then run through the real
// runtime (defineWorkflow + runWorkflow on a local world) with every model slot answered from the
// request's own response schema; none may end in runtime_config_error or step_schema_error.

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await shutdownSandboxWorkers();
});

function describeFindings(findings: readonly { code: string; path: string; message: string }[]): string {
  return findings.map((finding) => `${finding.path} ${finding.code}: ${finding.message}`).join("\n");
}

async function bindingTargetOf(options: { readonly workflowId: string; readonly inputSchema: unknown; readonly outputSchema: unknown; readonly slots: readonly string[]; readonly tools: CorpusRun["tools"] }): Promise<BindingTarget> {
  const described = options.tools === undefined ? [] : (await options.tools.describe()).tools;
  return {
    workflowId: options.workflowId,
    inputSchema: options.inputSchema,
    outputSchema: options.outputSchema,
    modelSlotIds: options.slots,
    toolNames: described.map((tool) => tool.name),
    tools: described,
  };
}

const shapeCauses = new Set(["runtime_config_error", "step_schema_error"]);

async function checkEntry(entry: CorpusEntry): Promise<void> {
  const where = `${entry.name}${entry.source === undefined ? "" : ` (${entry.source})`}`;
  if (deliveryOf(entry) === "fixed") {
    const validation = validateLwir(entry.plan);
    expect(validation.valid, `${where}: the fixed plan does not validate:\n${describeFindings(validation.findings)}`).toBe(true);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "lw-soundness-"));
  dirs.push(dataDir);
  const run = await runCorpusEntry(entry, dataDir);
  const outcome = run.outcome;
  if (outcome.kind === "threw") throw new Error(`${where}: ${describeOutcome(outcome)}`, { cause: outcome.error });

  // What ran is the locked plan: it validates and binds to the definition.
  expect(run.lockedPlan, `${where}: no WorkflowVersionRegistered event (${describeOutcome(outcome)})`).toBeDefined();
  const validation = validateLwir(run.lockedPlan);
  expect(validation.valid, `${where}: the locked plan does not validate:\n${describeFindings(validation.findings)}`).toBe(true);
  const workflow = run.workflow!;
  const target = await bindingTargetOf({ workflowId: workflow.id, inputSchema: workflow.inputSchema, outputSchema: workflow.outputSchema, slots: workflow.models.map((slot) => slot.id), tools: run.tools });
  const binding = bindingFindings(run.lockedPlan, target);
  expect(describeFindings(binding), `${where}: the locked plan does not bind`).toBe("");
  if (run.planner !== undefined) expect(run.planner.callCount, `${where}: the planner's one submission was not accepted at once`).toBe(1);

  if (outcome.kind === "failed") {
    expect(shapeCauses.has(outcome.error.causeCode), `${where}: SOUNDNESS — a validated plan ${describeOutcome(outcome)}`).toBe(false);
    expect(entry.expect, `${where}: ${describeOutcome(outcome)}`).toBeDefined();
    expect(outcome.error.causeCode).toBe(entry.expect!.causeCode);
    if (entry.expect!.failedStepPath !== undefined) expect(outcome.error.failedStepPath).toBe(entry.expect!.failedStepPath);
    return;
  }
  expect(entry.expect, `${where}: expected to fail with ${entry.expect?.causeCode ?? ""}, but it ${describeOutcome(outcome)}`).toBeUndefined();
  expect(outcome.result.status).toBe("completed");
  entry.check?.(outcome.result);
}

describe("the soundness corpus", () => {
  it("has at least 30 plans and reaches every step type, output mode and pattern", () => {
    expect(soundnessCorpus.length).toBeGreaterThanOrEqual(30);
    expect(new Set(soundnessCorpus.map((entry) => entry.name)).size).toBe(soundnessCorpus.length);
    const coverage = corpusCoverage(soundnessCorpus);
    const missing = requiredCoverage.filter((feature) => (coverage.get(feature) ?? []).length === 0);
    expect(missing).toEqual([]);
    // Every valid example of the lwir skill (8 today), and at least five plans a model wrote.
    expect(soundnessCorpus.filter((entry) => entry.origin === "skill-example").length).toBeGreaterThanOrEqual(8);
    expect(soundnessCorpus.filter((entry) => entry.origin === "model-written").length).toBeGreaterThanOrEqual(5);
  });

  it.each(soundnessCorpus.map((entry) => [entry.name, entry] as const))("%s: validates, binds and runs without a shape failure", async (_name, entry) => {
    await checkEntry(entry);
  }, 120_000);
});

/** The plan at a JSONPath of the form validateLwir writes ($.steps[1].with.cases[0].when). */
function valueAtPath(document: unknown, path: string): unknown {
  const segments = [...path.matchAll(/\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)].map((match) => match[1] ?? (match[2] !== undefined ? Number(match[2]) : JSON.parse(`"${match[3]}"`)));
  return segments.reduce<unknown>((value, segment) => (value as Record<string | number, unknown>)[segment], document);
}

async function runRejected(entry: RejectedPlan, dataDir: string): Promise<unknown> {
  const world = localWorld({ dataDir });
  try {
    const models = Object.fromEntries(entry.definition.models.map((slot) => [slot.id, createSchemaAnsweringModel({ modelId: slot.id })]));
    const tools = entry.definition.tools?.();
    return await executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(entry.plan as LwirDocument), input: entry.input, models, ...(tools === undefined ? {} : { tools }) });
  } catch (error) {
    return error;
  } finally {
    await world.close();
  }
}

// The other half of the proof: the test can fail. Plans that would fail at run time for a reason
// the document alone decides are rejected before they run — and that they would fail is shown.
describe("plans the soundness rules reject", () => {
  it("include plans that would end in runtime_config_error and in step_schema_error if let through", () => {
    expect(rejectedPlans.filter((entry) => entry.proof.kind === "evaluates").length).toBeGreaterThanOrEqual(3);
    expect(rejectedPlans.filter((entry) => entry.proof.kind === "runs").length).toBeGreaterThanOrEqual(3);
    expect(rejectedPlans.map((entry) => entry.finding.code)).toEqual(expect.arrayContaining(["expression.unguarded_back_edge_read", "expression.invalid_path"]));
  });

  it.each(rejectedPlans.map((entry) => [entry.name, entry] as const))("%s: rejected with its finding, and it would fail if run", async (_name, entry) => {
    const validation = validateLwir(entry.plan);
    if (entry.rejectedBy === "validateLwir") {
      expect(validation.findings.map((finding) => [finding.code, finding.path])).toEqual([[entry.finding.code, entry.finding.path]]);
      // What the runtime would do with it: evaluate the template in the run's state at that step.
      if (entry.proof.kind !== "evaluates") throw new Error(`${entry.name}: a plan validateLwir rejects is proved by evaluation`);
      const template = valueAtPath(entry.plan, entry.finding.path);
      expect(typeof template).toBe("string");
      let thrown: unknown;
      try {
        resolveTemplates(template as string, { input: entry.input, steps: entry.proof.steps });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ExpressionEvaluationError);
      expect((thrown as Error).message).toMatch(entry.proof.error);
      return;
    }
    // Valid LWIR that the binding pass refuses (when a fixed plan is compiled, and at every submission).
    expect(describeFindings(validation.findings)).toBe("");
    const tools = entry.definition.tools?.();
    const target = await bindingTargetOf({ workflowId: entry.definition.id, inputSchema: (entry.plan.input as { schema: unknown }).schema, outputSchema: (entry.plan.output as { schema: unknown }).schema, slots: entry.definition.models.map((slot) => slot.id), tools });
    expect(bindingFindings(entry.plan, target).map((finding) => [finding.code, finding.path])).toEqual([[entry.finding.code, entry.finding.path]]);
    const dataDir = mkdtempSync(join(tmpdir(), "lw-soundness-rejected-"));
    dirs.push(dataDir);
    const run = await runCorpusEntry(entry, dataDir);
    // A fixed plan that does not bind fails its compile once, naming the finding; nothing runs.
    expect(run.outcome.kind, describeOutcome(run.outcome)).toBe("failed");
    expect((run.outcome as { error: RunFailedError }).error.causeCode).toBe("planner_validation_exhausted");
    expect(String((run.outcome as { error: Error }).error.message)).toContain(entry.finding.code);
    expect(run.lockedPlan).toBeUndefined();
    // Let through (the runtime alone, which has no binding pass), it fails for its shape.
    if (entry.proof.kind !== "runs") throw new Error(`${entry.name}: a plan the binding pass rejects is proved by running it`);
    const unboundDir = mkdtempSync(join(tmpdir(), "lw-soundness-unbound-"));
    dirs.push(unboundDir);
    const failure = await runRejected(entry, unboundDir);
    expect(failure).toBeInstanceOf(RunFailedError);
    expect((failure as RunFailedError).causeCode).toBe(entry.proof.causeCode);
  }, 120_000);
});
