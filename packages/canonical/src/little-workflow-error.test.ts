import { describe, expect, it } from "vitest";
import { LittleWorkflowError } from "./little-workflow-error.js";

class ParseError extends LittleWorkflowError {
  constructor(readonly line: number) {
    super("test.parse", `bad line ${line}`);
  }
}
class StrictParseError extends ParseError {}
class OtherError extends LittleWorkflowError {
  constructor() {
    super("test.other", "other");
  }
}

describe("LittleWorkflowError.is", () => {
  it("recognises every Little Workflow error on the base class, optionally by code", () => {
    expect(LittleWorkflowError.is(new ParseError(3))).toBe(true);
    expect(LittleWorkflowError.is(new OtherError(), "test.other")).toBe(true);
    expect(LittleWorkflowError.is(new OtherError(), "test.parse")).toBe(false);
    expect(LittleWorkflowError.is(new Error("plain"))).toBe(false);
    expect(LittleWorkflowError.is({ code: "test.parse", name: "ParseError" })).toBe(false);
    expect(LittleWorkflowError.is(null)).toBe(false);
  });

  it("on a subclass, is true only for that class and its own subclasses", () => {
    expect(ParseError.is(new ParseError(1))).toBe(true);
    expect(ParseError.is(new StrictParseError(1))).toBe(true);
    expect(StrictParseError.is(new ParseError(1))).toBe(false);
    expect(ParseError.is(new OtherError())).toBe(false);
    expect(OtherError.is(new ParseError(1), "test.parse")).toBe(false);
  });

  it("narrows to the subclass, so its own fields type-check", () => {
    const error: unknown = new StrictParseError(7);
    if (!ParseError.is(error)) throw new Error("expected a ParseError");
    expect(error.line).toBe(7);
  });

  it("works across copies of the package: the lineage rides on the error, not on instanceof", () => {
    // A copy of the same class from another install of the package: another constructor, same name.
    const foreign = new ParseError(2);
    class ParseErrorCopy extends LittleWorkflowError {}
    Object.defineProperty(ParseErrorCopy, "name", { value: "ParseError" });
    expect(foreign instanceof ParseErrorCopy).toBe(false);
    expect(ParseErrorCopy.is(foreign)).toBe(true);
  });
});
