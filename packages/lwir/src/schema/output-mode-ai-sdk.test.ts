import { jsonSchema, Output } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isAiSdkOutput, normalizeOutputMode, normalizeOutputModeAsync } from "./output-mode.js";
import { OutputModeError } from "./schema-errors.js";

describe("AI SDK Output specs as output modes", () => {
  it("recognises Output.text/json/object/array/choice and nothing else", () => {
    for (const output of [Output.text(), Output.json(), Output.object({ schema: z.object({ a: z.string() }) }), Output.array({ element: z.string() }), Output.choice({ options: ["x"] })]) {
      expect(isAiSdkOutput(output)).toBe(true);
    }
    expect(isAiSdkOutput({ name: "object", schema: {} })).toBe(false);
    expect(isAiSdkOutput(z.object({}))).toBe(false);
  });

  it("normalizes each to its LWIR mode, schemas included", async () => {
    expect(await normalizeOutputModeAsync(Output.text())).toEqual({ mode: "text" });
    expect(await normalizeOutputModeAsync(Output.json())).toEqual({ mode: "json" });
    const object = await normalizeOutputModeAsync(Output.object({ schema: z.object({ summary: z.string() }), name: "ticket", description: "A ticket summary." }));
    expect(object).toMatchObject({ mode: "object", name: "ticket", description: "A ticket summary.", schema: { type: "object", required: ["summary"], properties: { summary: { type: "string" } } } });
    const array = await normalizeOutputModeAsync(Output.array({ element: jsonSchema({ type: "object", required: ["n"], properties: { n: { type: "number" } } }) }));
    expect(array).toEqual({ mode: "array", schema: { type: "array", items: { type: "object", required: ["n"], properties: { n: { type: "number" } } } } });
    expect(await normalizeOutputModeAsync(Output.choice({ options: ["low", "high"] }))).toEqual({ mode: "choice", values: ["low", "high"] });
    // Everything else goes through normalizeOutputMode unchanged.
    expect(await normalizeOutputModeAsync({ kind: "text" })).toEqual({ mode: "text" });
  });

  it("normalizes Output.text/json synchronously; the ones with a schema name the way out", () => {
    expect(normalizeOutputMode(Output.text())).toEqual({ mode: "text" });
    expect(normalizeOutputMode(Output.json())).toEqual({ mode: "json" });
    expect(() => normalizeOutputMode(Output.array({ element: z.string() }))).toThrow(OutputModeError);
    expect(() => normalizeOutputMode(Output.choice({ options: ["x"] }))).toThrow(/Output\.choice\(\) of the AI SDK keeps its schema behind a promise: normalize it with normalizeOutputModeAsync\(spec\), or give the same output as \{ kind: "choice", values \}/);
  });
});
