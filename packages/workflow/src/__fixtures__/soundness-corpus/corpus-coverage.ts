import { deliveryOf, type CorpusEntry } from "./corpus-entry.js";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stepsOf(plan: Json): Json[] {
  const walk = (steps: unknown, inBody: boolean): Json[] =>
    (Array.isArray(steps) ? steps.filter(isRecord) : []).flatMap((step) => [{ ...step, __inBody: inBody }, ...(step.uses === "parallel" ? walk(step.steps, true) : [])]);
  return walk(plan.steps, false);
}

const text = (value: unknown): string => JSON.stringify(value ?? null);
const withOf = (step: Json): Json => (isRecord(step.with) ? step.with : {});

/** Reads of `steps.X.<accessor>…` in a step whose needs do not include X: back-edge reads (the first visit sees null / []). */
function backEdgeReads(step: Json): string[] {
  const needs = new Set(Array.isArray(step.needs) ? step.needs : []);
  const source = text({ with: step.with, input: step.input });
  return [...source.matchAll(/(coalesce\(\s*|len\(\s*)?steps\.([A-Za-z0-9_-]+)\.(lastOutput|allVisits)([.[][^\s}),]*)?/g)]
    .filter((match) => !needs.has(match[2]))
    .map((match) => `${match[1]?.startsWith("coalesce") ? "coalesce " : match[1]?.startsWith("len") ? "len " : ""}${match[3]}${match[4] === undefined ? "" : " deeper"}`);
}

/** Each feature the corpus must reach, read from the plans themselves (not from what entries say they cover). */
const features: Readonly<Record<string, (plan: Json, entry: CorpusEntry) => boolean>> = {
  "step ai.generate": (plan) => stepsOf(plan).some((step) => step.uses === "ai.generate"),
  "step tool.call": (plan) => stepsOf(plan).some((step) => step.uses === "tool.call"),
  "step code.run": (plan) => stepsOf(plan).some((step) => step.uses === "code.run"),
  "step decision": (plan) => stepsOf(plan).some((step) => step.uses === "decision"),
  "step parallel": (plan) => stepsOf(plan).some((step) => step.uses === "parallel"),
  ...Object.fromEntries(
    ["text", "object", "array", "choice"].map((mode) => [`ai.generate output ${mode}`, (plan: Json) => stepsOf(plan).some((step) => step.uses === "ai.generate" && isRecord(step.output) && step.output.mode === mode)]),
  ),
  "ai.generate output json with a schema": (plan) => stepsOf(plan).some((step) => step.uses === "ai.generate" && isRecord(step.output) && step.output.mode === "json" && step.output.schema !== undefined),
  "ai.generate output json without a schema": (plan) => stepsOf(plan).some((step) => step.uses === "ai.generate" && isRecord(step.output) && step.output.mode === "json" && step.output.schema === undefined),
  "ai.generate with a declared input": (plan) => stepsOf(plan).some((step) => step.uses === "ai.generate" && step.input !== undefined),
  "tool.call args from the input": (plan) => stepsOf(plan).some((step) => step.uses === "tool.call" && text(withOf(step).args).includes("input.")),
  "tool.call args from steps": (plan) => stepsOf(plan).some((step) => step.uses === "tool.call" && text(withOf(step).args).includes("steps.")),
  "tool.call in a parallel body with args from item": (plan) => stepsOf(plan).some((step) => step.uses === "tool.call" && step.__inBody === true && text(withOf(step).args).includes("item")),
  "code.run .ts": (plan) => stepsOf(plan).some((step) => step.uses === "code.run" && String(withOf(step).entrypoint).endsWith(".ts")),
  "code.run .js": (plan) => stepsOf(plan).some((step) => step.uses === "code.run" && String(withOf(step).entrypoint).endsWith(".js")),
  "code.run calling tools from code": (plan) => stepsOf(plan).some((step) => step.uses === "code.run" && /tools(\.[A-Za-z_]|\[)/.test(text(withOf(step).files))),
  "code.run without tool calls": (plan) => stepsOf(plan).some((step) => step.uses === "code.run" && !/tools(\.[A-Za-z_]|\[)/.test(text(withOf(step).files))),
  "code.run with input from a previous step": (plan) => stepsOf(plan).some((step) => step.uses === "code.run" && text(step.input).includes("steps.")),
  "code.run with onFailure.fixer": (plan) => stepsOf(plan).some((step) => isRecord(step.onFailure) && step.onFailure.fixer !== undefined),
  "a fixer that repairs a failing step": (plan, entry) => stepsOf(plan).some((step) => isRecord(step.onFailure)) && entry.definition.models.some((slot) => slot.script?.some((turn) => turn.toolCalls?.some((call) => call.toolName === "try_fix"))),
  retry: (plan) => stepsOf(plan).some((step) => isRecord(step.retry) && Number(step.retry.maxAttempts) > 1),
  "decision routing to steps": (plan) => stepsOf(plan).some((step) => step.uses === "decision" && !text(step.with).includes('"end"')),
  'decision to "end"': (plan) => stepsOf(plan).some((step) => step.uses === "decision" && text(step.with).includes('"end"')),
  "loop (maxVisits > 1)": (plan) => stepsOf(plan).some((step) => Number(step.maxVisits) > 1),
  "first visit: bare lastOutput back-edge read": (plan) => stepsOf(plan).some((step) => backEdgeReads(step).includes("lastOutput")),
  "first visit: coalesce(lastOutput.x, …) back-edge read": (plan) => stepsOf(plan).some((step) => backEdgeReads(step).includes("coalesce lastOutput deeper")),
  "first visit: len(allVisits) back-edge read": (plan) => stepsOf(plan).some((step) => backEdgeReads(step).includes("len allVisits")),
  "parallel fail_fast": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && withOf(step).failureMode === "fail_fast"),
  "parallel all_settled": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && withOf(step).failureMode === "all_settled"),
  "fanIn order input": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && text(withOf(step).fanIn).includes('"order":"input"')),
  "fanIn order itemKey": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && text(withOf(step).fanIn).includes('"order":"itemKey"')),
  "fanIn outputStep": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && text(withOf(step).fanIn).includes('"outputStep"')),
  "an ai.generate per item": (plan) => stepsOf(plan).some((step) => step.uses === "ai.generate" && step.__inBody === true),
  "a decision in a parallel body": (plan) => stepsOf(plan).some((step) => step.uses === "decision" && step.__inBody === true),
  "parallel with retry": (plan) => stepsOf(plan).some((step) => step.uses === "parallel" && isRecord(step.retry)),
  "submitted with only steps (completed by the compiler)": (plan, entry) => deliveryOf(entry) === "planner" && Object.keys(plan).every((key) => key === "steps"),
  "a fixed plan": (_plan, entry) => deliveryOf(entry) === "fixed",
  "a data-driven failure": (_plan, entry) => entry.expect !== undefined,
  "the lwir skill's examples": (_plan, entry) => entry.origin === "skill-example",
  "the repository's LWIR files": (_plan, entry) => entry.origin === "repo-fixture",
  "plans a model wrote": (_plan, entry) => entry.origin === "model-written",
};

/** Every feature the corpus must reach. */
export const requiredCoverage: readonly string[] = Object.keys(features);

/** Feature → the names of the entries whose plan has it. */
export function corpusCoverage(entries: readonly CorpusEntry[]): Map<string, string[]> {
  return new Map(Object.entries(features).map(([feature, has]) => [feature, entries.filter((entry) => has(entry.plan, entry)).map((entry) => entry.name)]));
}
