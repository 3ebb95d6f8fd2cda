import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from "@little-stack/testing";
import type { WorkflowDefinition } from "@little-stack/workflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  catalogueStockCheckPlayer,
  emailRouterPlayer,
  invoiceTotalsPlayer,
  messyExpensesPlayer,
  newsletterSubjectPlayer,
  orderStatusReplyPlayer,
  releaseNotesSummaryPlayer,
  taglineContestPlayer,
} from "./__fixtures__/more-reference-players.js";
import { addressBatchPlayer, basketInCurrencyPlayer, coverLetterReviewPlayer, ticketTriagePlayer } from "./__fixtures__/reference-players.js";
import { scriptedModelPlayer } from "./__fixtures__/scripted-model-player.js";
import { allDefinitions } from "./all-definitions.js";
import { evalModels, type EvalEndpoint } from "./eval-endpoint.js";
import { runEvaluation, type EvaluationResult } from "./run-evaluation.js";

// Every definition is solvable as written: a known-good plan for each is accepted by the real
// compiler on its first submission, runs through the real runtime (sandbox, tools, loops,
// parallel branches, the fixer, the outer loop, an orchestration) and passes its check.
let server: LoopbackOpenAIServer;
let dataDir: string;
let endpoint: EvalEndpoint;
const results = new Map<string, EvaluationResult>();

beforeAll(async () => {
  const workflows = new Map<string, WorkflowDefinition<any, any>>();
  server = await startLoopbackOpenAIServer({
    respond: (request, index) =>
      scriptedModelPlayer(
        [
          releaseNotesSummaryPlayer,
          ticketTriagePlayer,
          orderStatusReplyPlayer,
          emailRouterPlayer,
          invoiceTotalsPlayer,
          basketInCurrencyPlayer,
          catalogueStockCheckPlayer,
          taglineContestPlayer,
          coverLetterReviewPlayer,
          messyExpensesPlayer,
          newsletterSubjectPlayer,
          addressBatchPlayer,
        ].map((player) => player(workflows)),
      )(request, index),
  });
  endpoint = { kind: "http", baseURL: server.baseURL, apiKey: "test-key", modelId: "eval-model", providerName: "loopback", structuredOutputs: true };
  for (const definition of allDefinitions) {
    const built = definition.build(evalModels(endpoint));
    for (const workflow of built.kind === "workflow" ? [built.workflow] : built.workflows) workflows.set(workflow.id, workflow);
  }
  dataDir = mkdtempSync(join(tmpdir(), "planner-eval-all-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("every eval definition with a known-good plan", () => {
  it("has twelve definitions of increasing level with unique names", () => {
    expect(allDefinitions.map((definition) => definition.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(new Set(allDefinitions.map((definition) => definition.name)).size).toBe(12);
  });

  it.each(allDefinitions.map((definition) => [definition.name, definition] as const))("%s: accepted at once, completes, passes its check", async (_name, definition) => {
    const result = await runEvaluation(definition, { models: evalModels(endpoint), dataDir, timeout: "3m" });
    results.set(definition.name, result);
    expect({ status: result.runStatus, cause: result.causeCode, error: result.error }).toEqual({ status: "completed", cause: undefined, error: undefined });
    expect(result.check).toEqual({ correct: true, problems: [] });
    expect(result.metrics.acceptedFirstTry).toBe(result.metrics.planningSessions);
    expect(result.metrics.findings.count).toBe(0);
    // Unpriced model id: cost is null (n/a), never 0.
    expect(result.metrics.usage.costUsd).toBeNull();
    // And the check can fail: nothing is not a correct output.
    expect(definition.check(undefined).correct).toBe(false);
  });

  it("recorded the patterns the definitions exist for", () => {
    expect(results.get("messy-expenses")!.metrics.fixerTries).toBe(1);
    expect(results.get("newsletter-subject")!.metrics).toMatchObject({ outerCycles: 2, submissions: 2, planningSessions: 2 });
    expect(results.get("cover-letter-review")!.metrics.modelCalls.steps).toBe(4);
    expect(results.get("tagline-contest")!.metrics.modelCalls.steps).toBe(4);
    expect(results.get("invoice-totals")!.metrics.modelCalls).toEqual({ planning: 1, steps: 0, total: 1 });
  });
});
