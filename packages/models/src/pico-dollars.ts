/*
 * Money is computed in integer pico-dollars (1e-12 USD) with BigInt so that prices and sums never
 * drift: a rate of $0.005 per 1M tokens is exactly 5,000 pico-dollars per token, and a call's cost
 * is tokens × rate with no rounding at all. Dollars (numbers) appear only at the edges, converted
 * through decimal text so that a dollar figure and its pico-dollar amount map to each other exactly.
 */

const picoDigits = 12;
/** A rate per 1M tokens × 1e6 = pico-dollars per token. */
const picoPerTokenPerRateUnit = 1_000_000;

/** Pico-dollars per token for a rate in USD per 1M tokens, or undefined when it has more than 6 decimals. */
export function ratePicoPerToken(ratePerMillionUsd: number): bigint | undefined {
  if (!Number.isFinite(ratePerMillionUsd) || ratePerMillionUsd < 0) return undefined;
  const pico = dollarsToPico(ratePerMillionUsd) * BigInt(picoPerTokenPerRateUnit);
  // Exact when the rate has at most 6 decimals: the product is then a whole multiple of 1e12.
  const perToken = pico / 10n ** BigInt(picoDigits);
  return perToken * 10n ** BigInt(picoDigits) === pico ? perToken : undefined;
}

/** The nearest number to an exact pico-dollar amount. */
export function picoToDollars(pico: bigint): number {
  const digits = pico.toString().padStart(picoDigits + 1, "0");
  return Number(`${digits.slice(0, -picoDigits)}.${digits.slice(-picoDigits)}`);
}

/**
 * The pico-dollar amount a non-negative dollar figure stands for, read from the shortest decimal
 * that round-trips to the number (what `String()` prints), rounded half-up to whole pico-dollars.
 * For every figure `picoToDollars` produced from an amount with at most 15 significant digits
 * (any amount below $1,000, and larger ones with fewer digits) this gives that amount back exactly.
 */
export function dollarsToPico(dollars: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(dollars));
  if (match === null) throw new RangeError(`Not a non-negative finite dollar amount: ${String(dollars)}`);
  const [, integerPart = "0", fractionPart = "", exponentPart = "0"] = match;
  const digits = BigInt(integerPart + fractionPart);
  const shift = Number(exponentPart) - fractionPart.length + picoDigits;
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const quotient = digits / divisor;
  return (digits % divisor) * 2n >= divisor ? quotient + 1n : quotient;
}
