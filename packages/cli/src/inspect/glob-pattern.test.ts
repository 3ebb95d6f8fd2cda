import { describe, expect, it } from "vitest";
import { globMatcher, literalPrefix } from "./glob-pattern.js";

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
});
