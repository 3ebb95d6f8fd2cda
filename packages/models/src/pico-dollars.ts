/*
 * Money is computed in integer pico-dollars (1e-12 USD) with BigInt so that prices and sums never
 * drift: a rate of $0.005 per 1M tokens is exactly 5,000 pico-dollars per token, and a call's cost
 * is tokens × rate with no rounding at all. Dollars (numbers) appear only at the edges.
 */

const picoPerDollar = 1_000_000_000_000;
/** A rate per 1M tokens × 1e6 = pico-dollars per token. */
const picoPerTokenPerRateUnit = 1_000_000;

/** Pico-dollars per token for a rate in USD per 1M tokens, or undefined when it has more than 6 decimals. */
export function ratePicoPerToken(ratePerMillionUsd: number): bigint | undefined {
  const scaled = ratePerMillionUsd * picoPerTokenPerRateUnit;
  const rounded = Math.round(scaled);
  // Rates are decimals like 0.075; scaling leaves float noise far below this tolerance.
  if (Math.abs(scaled - rounded) > 1e-6 || !Number.isSafeInteger(rounded)) return undefined;
  return BigInt(rounded);
}

export function picoToDollars(pico: bigint): number {
  // Split so that totals above 2^53 pico-dollars (~$9,007) still convert without losing cents.
  const wholeDollars = pico / BigInt(picoPerDollar);
  const remainder = pico % BigInt(picoPerDollar);
  return Number(wholeDollars) + Number(remainder) / picoPerDollar;
}

/** The pico-dollar amount a dollar figure produced by `picoToDollars` stands for. */
export function dollarsToPico(dollars: number): bigint {
  const wholeDollars = Math.trunc(dollars);
  const fraction = dollars - wholeDollars;
  return BigInt(wholeDollars) * BigInt(picoPerDollar) + BigInt(Math.round(fraction * picoPerDollar));
}
