import { describe, expect, it } from "vitest";
import { LittleWorkflowError } from "@little-stack/canonical";
import { globMatcher, literalPrefix, maxPatternLength } from "./glob-pattern.js";

describe("globMatcher", () => {
  it("* matches any run of characters; everything else is literal and anchored", () => {
    const toolCalls = globMatcher("harness.tool_call.*");
    expect(["harness.tool_call.started", "harness.tool_call.succeeded"].every(toolCalls)).toBe(true);
    expect(toolCalls("harness.tool_callXstarted")).toBe(false);
    expect(toolCalls("x.harness.tool_call.started")).toBe(false);
    expect(globMatcher("Step*")("StepCompleted")).toBe(true);
    expect(globMatcher("fan[*].paint")("fan[red].paint")).toBe(true);
    expect(globMatcher("StepCompleted")("StepCompletedLater")).toBe(false);
  });

  it("gives the literal prefix for the storage filter", () => {
    expect([literalPrefix("harness.tool_call.*"), literalPrefix("*x"), literalPrefix("RunStarted")]).toEqual(["harness.tool_call.", "", "RunStarted"]);
  });

  it("agrees with the anchored regular expression on random patterns and values", () => {
    let seed = 14;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const word = (length: number, alphabet: string): string => Array.from({ length }, () => alphabet[random(alphabet.length)]).join("");
    for (let round = 0; round < 3000; round += 1) {
      const pattern = word(random(8), "ab*.");
      const value = word(random(10), "ab.");
      const regex = new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.]/g, "\\.")).join(".*")}$`, "s");
      expect(globMatcher(pattern)(value), `${pattern} ~ ${value}`).toBe(regex.test(value));
    }
  });

  it("answers patterns of many stars against long values without backtracking", () => {
    // As a regular expression, each of these takes seconds to minutes (catastrophic backtracking).
    const value = "harness.tool_call.succeeded".repeat(2000);
    expect(globMatcher("************Z")(value)).toBe(false);
    expect(globMatcher(`${"*a".repeat(400)}*Z`)(value)).toBe(false);
    expect(globMatcher(`${"*a".repeat(400)}*`)(value)).toBe(true);
  });

  it("refuses a pattern longer than the limit with a usage error naming the option", () => {
    expect(globMatcher("*".repeat(maxPatternLength))("x")).toBe(true);
    let error: unknown;
    try {
      globMatcher("x".repeat(maxPatternLength + 1), "--step");
    } catch (caught) {
      error = caught;
    }
    expect(LittleWorkflowError.is(error, "cli.usage")).toBe(true);
    expect((error as Error).message).toContain("--step pattern is 1001 characters long");
  });
});

