import { memoryWorld } from "@little-stack/local-world";
import { validateLwir, type LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

const object = { mode: "object", schema: { type: "object" } };
const echo = (id: string, needs: string[], args: Record<string, unknown>) => ({ id, uses: "tool.call", needs, with: { tool: "echo", args }, output: object });

function completedIds(events: readonly { type: string; payload: unknown }[]): string[] {
  return events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepId: string }).stepId);
}

describe("routed branches with several steps each", () => {
  // route → billing → billingReply, or → tech → techDraft → techReply: two terminals, one runs.
  const steps = [
    echo("start", [], { kind: "{{ input.kind }}" }),
    { id: "route", uses: "decision", needs: ["start"], with: { cases: [{ when: "{{ steps.start.output.kind == 'billing' }}", to: "billing" }], default: "tech" } },
    echo("billing", [], { team: "billing" }),
    echo("billingReply", ["billing"], { reply: "refund for {{ steps.billing.output.team }}" }),
    echo("tech", [], { team: "tech" }),
    echo("techDraft", ["tech"], { draft: "restart" }),
    echo("techReply", ["techDraft"], { reply: "{{ steps.techDraft.output.draft }} the app" }),
  ] as LwirStep[];
  const lwir = lwirDocument({ steps, tools: ["echo"] });

  it("validate, and the run's output is the terminal step of the branch that ran", async () => {
    expect(validateLwir(lwir)).toEqual({ valid: true, findings: [] });
    const world = memoryWorld();
    const { registry } = countingTools();
    for (const [kind, reply, ran] of [
      ["billing", "refund for billing", ["start", "route", "billing", "billingReply"]],
      ["other", "restart the app", ["start", "route", "tech", "techDraft", "techReply"]],
    ] as const) {
      const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { kind }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: `run-${kind}` });
      expect(result.output).toEqual({ reply });
      expect(completedIds(result.events)).toEqual(ran);
    }
  });
});

describe("a loop's first pass reads a later step along a back-edge", () => {
  it("sees lastOutput null and allVisits [], and coalesce picks its fallback", async () => {
    const loop = [
      echo("draft", [], { previous: "{{ steps.review.lastOutput }}", rounds: "{{ len(steps.review.allVisits) }}", note: "{{ coalesce(steps.review.lastOutput.note, 'none') }}" }),
      echo("review", ["draft"], { note: "round {{ steps.draft.lastOutput.rounds }}", done: "{{ steps.draft.lastOutput.rounds >= 1 }}" }),
      { id: "again", uses: "decision", needs: ["review"], with: { cases: [{ when: "{{ steps.review.lastOutput.done }}", to: "end" }], default: "draft" } },
    ].map((step) => ({ ...step, maxVisits: 3 })) as LwirStep[];
    const lwir = lwirDocument({ steps: loop, tools: ["echo"] });
    expect(validateLwir(lwir)).toEqual({ valid: true, findings: [] });
    const { registry, calls } = countingTools();
    const result = await executeWorkflowVersion({ world: memoryWorld(), workflowVersion: versionOf(lwir), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-first-pass" });
    const drafts = calls.filter((call) => (call.args as { rounds?: unknown }).rounds !== undefined).map((call) => call.args);
    expect(drafts).toEqual([
      { previous: null, rounds: 0, note: "none" },
      { previous: { note: "round 0", done: false }, rounds: 1, note: "round 0" },
    ]);
    expect(result.output).toEqual({ note: "round 1", done: true });
  });
});
