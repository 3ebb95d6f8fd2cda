import { describe, expect, it } from "vitest";
import { dollarsToPico, picoToDollars, ratePicoPerToken } from "./pico-dollars.js";

describe("pico-dollar conversions", () => {
  it.each([
    [0.15, 150_000n],
    [0.075, 75_000n],
    [0.005, 5_000n],
    [0.000001, 1n],
    [1.25, 1_250_000n],
    [180, 180_000_000n],
    [0, 0n],
  ])("a rate of $%s per 1M tokens is %s pico-dollars per token", (rate, pico) => {
    expect(ratePicoPerToken(rate)).toBe(pico);
  });

  it.each([0.0000001, 0.1234567, -1, Number.NaN, Infinity])("a rate of %s has no exact pico-dollar price", (rate) => {
    expect(ratePicoPerToken(rate)).toBeUndefined();
  });

  it.each([
    [0.00045, 450_000_000n],
    [4.05e-7, 405_000n],
    [1e-12, 1n],
    [0.3, 300_000_000_000n],
    [37035, 37_035_000_000_000_000n],
    [1234.566998765433, 1_234_566_998_765_433n],
    [1.5e21, 1_500_000_000_000_000_000_000_000_000_000_000n],
  ])("$%s ↔ %s pico-dollars", (dollars, pico) => {
    expect(dollarsToPico(dollars)).toBe(pico);
    expect(picoToDollars(pico)).toBe(dollars);
  });

  it("rounds sub-pico fractions half up", () => {
    expect(dollarsToPico(4e-13)).toBe(0n);
    expect(dollarsToPico(5e-13)).toBe(1n);
  });

  it("refuses negative or non-finite amounts", () => {
    expect(() => dollarsToPico(-1)).toThrow(RangeError);
    expect(() => dollarsToPico(Number.NaN)).toThrow(RangeError);
  });
});
