import { expectTypeOf } from "vitest";
import type { PricedModelCall } from "./price-model-call.js";
import type { UsageTotals } from "./usage-totals.js";

// UsageTotals is exactly the seed 000 shape: no field more, none less, costUsd nullable.
expectTypeOf<UsageTotals>().toEqualTypeOf<{
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  readonly costUsd: number | null;
  readonly pricedCalls: number;
  readonly unpricedCalls: number;
}>();

expectTypeOf<PricedModelCall["costUsd"]>().toEqualTypeOf<number | null>();
expectTypeOf<PricedModelCall["priced"]>().toEqualTypeOf<boolean>();
