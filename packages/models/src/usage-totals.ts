import { InvalidModelUsageError } from "./invalid-model-usage-error.js";
import { normalizeModelCallUsage, tokenCount } from "./model-call-usage.js";
import { dollarsToPico, picoToDollars } from "./pico-dollars.js";
import type { PricedModelCall } from "./price-model-call.js";

/** Token and dollar totals over a scope (a step, a run, a pipeline), as seed 000 defines them. */
export type UsageTotals = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number; // subset of inputTokens
  readonly reasoningTokens: number; // subset of outputTokens
  readonly costUsd: number | null; // null = unpriced (no registry entry), NOT free
  readonly pricedCalls: number;
  readonly unpricedCalls: number;
};

/** Totals of a scope with no model calls: every count 0 and `costUsd` 0 — a real zero-dollar total. */
export function emptyUsageTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0, pricedCalls: 0, unpricedCalls: 0 };
}

/**
 * Adds one priced call. Tokens always add up, priced or not; `costUsd` is the exact sum of the
 * priced calls, `null` while every call so far is unpriced, and 0 only while there are no calls.
 */
export function addModelCallToTotals(totals: UsageTotals, pricedCall: PricedModelCall): UsageTotals {
  const current = readTotals(totals, "totals");
  const call = readPricedCall(pricedCall);
  return finishTotals({
    inputTokens: current.inputTokens + call.usage.inputTokens,
    outputTokens: current.outputTokens + call.usage.outputTokens,
    cachedInputTokens: current.cachedInputTokens + call.usage.cachedInputTokens,
    reasoningTokens: current.reasoningTokens + call.usage.reasoningTokens,
    pricedCalls: current.pricedCalls + (call.costPico === null ? 0 : 1),
    unpricedCalls: current.unpricedCalls + (call.costPico === null ? 1 : 0),
    costPico: current.costPico + (call.costPico ?? 0n),
  });
}

/** Sums totals of several scopes with the same null/0 rule; `[]` gives `emptyUsageTotals()`. */
export function sumUsageTotals(list: readonly UsageTotals[]): UsageTotals {
  if (!Array.isArray(list)) {
    throw new InvalidModelUsageError({
      field: "list",
      problem: "expected an array of UsageTotals",
      value: list,
      fix: "Pass [] when there is nothing to sum.",
    });
  }
  let sum = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, pricedCalls: 0, unpricedCalls: 0, costPico: 0n };
  list.forEach((totals, index) => {
    const item = readTotals(totals, `totals[${index}]`);
    sum = {
      inputTokens: sum.inputTokens + item.inputTokens,
      outputTokens: sum.outputTokens + item.outputTokens,
      cachedInputTokens: sum.cachedInputTokens + item.cachedInputTokens,
      reasoningTokens: sum.reasoningTokens + item.reasoningTokens,
      pricedCalls: sum.pricedCalls + item.pricedCalls,
      unpricedCalls: sum.unpricedCalls + item.unpricedCalls,
      costPico: sum.costPico + item.costPico,
    };
  });
  return finishTotals(sum);
}

type ExactTotals = Omit<UsageTotals, "costUsd"> & { readonly costPico: bigint };

/*
 * The exact pico-dollar sum behind each totals object this module returned. Folding calls into
 * totals one by one then never goes through a float; totals rebuilt elsewhere (from JSON, by a
 * spread) fall back to reading `costUsd` as a decimal, exact below $1,000.
 */
const exactCostPico = new WeakMap<UsageTotals, bigint>();

function finishTotals(totals: ExactTotals): UsageTotals {
  const { costPico, ...counts } = totals;
  const costUsd = counts.pricedCalls > 0 ? picoToDollars(costPico) : counts.unpricedCalls > 0 ? null : 0;
  const result: UsageTotals = { ...counts, costUsd };
  exactCostPico.set(result, costPico);
  return result;
}

function readTotals(totals: unknown, field: string): ExactTotals {
  if (typeof totals !== "object" || totals === null) {
    throw new InvalidModelUsageError({
      field,
      problem: "expected a UsageTotals object",
      value: totals,
      fix: "Start from emptyUsageTotals().",
    });
  }
  const record = totals as Record<string, unknown>;
  const count = (name: string): number => tokenCount({ record, name, fieldPrefix: field, required: true });
  const usage = normalizeModelCallUsage(
    { inputTokens: count("inputTokens"), outputTokens: count("outputTokens"), cachedInputTokens: count("cachedInputTokens"), reasoningTokens: count("reasoningTokens") },
    field,
  );
  const pricedCalls = count("pricedCalls");
  const unpricedCalls = count("unpricedCalls");
  const costUsd = record["costUsd"];
  const expected = pricedCalls > 0 ? "a number >= 0" : unpricedCalls > 0 ? "null (every call unpriced)" : "0 (no calls)";
  const consistent =
    pricedCalls > 0
      ? typeof costUsd === "number" && Number.isFinite(costUsd) && costUsd >= 0
      : unpricedCalls > 0
        ? costUsd === null
        : costUsd === 0;
  if (!consistent) {
    throw new InvalidModelUsageError({
      field: `${field}.costUsd`,
      problem: `with ${pricedCalls} priced and ${unpricedCalls} unpriced calls it must be ${expected}`,
      value: costUsd,
      fix: "Build totals with emptyUsageTotals(), addModelCallToTotals() and sumUsageTotals() instead of by hand.",
    });
  }
  const remembered = exactCostPico.get(totals as UsageTotals);
  const costPico = typeof costUsd !== "number" ? 0n : remembered !== undefined && picoToDollars(remembered) === costUsd ? remembered : dollarsToPico(costUsd);
  return { ...usage, pricedCalls, unpricedCalls, costPico };
}

function readPricedCall(pricedCall: unknown): { readonly usage: ReturnType<typeof normalizeModelCallUsage>; readonly costPico: bigint | null } {
  if (typeof pricedCall !== "object" || pricedCall === null) {
    throw new InvalidModelUsageError({
      field: "pricedCall",
      problem: "expected the result of priceModelCall()",
      value: pricedCall,
      fix: "Price the call with priceModelCall() first.",
    });
  }
  const record = pricedCall as Record<string, unknown>;
  const usage = normalizeModelCallUsage(record["usage"], "pricedCall.usage");
  const { priced, costUsd } = record;
  if (priced === false && costUsd === null) return { usage, costPico: null };
  if (priced === true && typeof costUsd === "number" && Number.isFinite(costUsd) && costUsd >= 0) {
    return { usage, costPico: dollarsToPico(costUsd) };
  }
  throw new InvalidModelUsageError({
    field: "pricedCall.costUsd",
    problem: `must be a number >= 0 when priced is true and null when priced is false (priced is ${String(priced)})`,
    value: costUsd,
    fix: "Use the object priceModelCall() returned, unchanged.",
  });
}
