import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normalizeOutputMode } from "./output-mode.js";
import { OutputModeError } from "./schema-errors.js";

const objectSchema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
const zodObject = z.object({ a: z.string() });
const zodObjectJson = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { a: { type: "string" } },
  required: ["a"],
  additionalProperties: false,
};

const { $schema: _dialect, ...zodObjectItems } = zodObjectJson;

describe("normalizeOutputMode: LWIR shape", () => {
  const cases: [string, unknown, unknown][] = [
    ["text", { mode: "text" }, { mode: "text" }],
    ["text with labels", { mode: "text", name: "summary", description: "One line" }, { mode: "text", name: "summary", description: "One line" }],
    ["object", { mode: "object", schema: objectSchema }, { mode: "object", schema: objectSchema }],
    ["object from Zod", { mode: "object", schema: zodObject }, { mode: "object", schema: zodObjectJson }],
    ["array", { mode: "array", schema: { type: "array", items: { type: "string" } } }, { mode: "array", schema: { type: "array", items: { type: "string" } } }],
    ["choice", { mode: "choice", values: ["yes", "no"] }, { mode: "choice", values: ["yes", "no"] }],
    ["json without schema", { mode: "json" }, { mode: "json" }],
    ["json with schema", { mode: "json", schema: true }, { mode: "json", schema: true }],
  ];
  it.each(cases)("%s", (_name, spec, expected) => {
    expect(normalizeOutputMode(spec)).toEqual(expected);
  });
});

describe("normalizeOutputMode: seed kind shape", () => {
  const cases: [string, unknown, unknown][] = [
    ["text", { kind: "text" }, { mode: "text" }],
    ["object", { kind: "object", schema: objectSchema, name: "n" }, { mode: "object", schema: objectSchema, name: "n" }],
    ["array from its element", { kind: "array", element: { type: "string" } }, { mode: "array", schema: { type: "array", items: { type: "string" } } }],
    [
      "array from a Zod element ($schema lifted to the array)",
      { kind: "array", element: zodObject },
      { mode: "array", schema: { $schema: zodObjectJson.$schema, type: "array", items: zodObjectItems } },
    ],
    ["choice", { kind: "choice", values: ["a"], description: "d" }, { mode: "choice", values: ["a"], description: "d" }],
    ["json", { kind: "json", schema: { type: "number" } }, { mode: "json", schema: { type: "number" } }],
  ];
  it.each(cases)("%s", (_name, spec, expected) => {
    expect(normalizeOutputMode(spec)).toEqual(expected);
  });
});

describe("normalizeOutputMode: bare schemas become object mode", () => {
  it.each([
    ["JSON Schema", objectSchema, objectSchema],
    ["boolean schema", true, true],
    ["Zod schema", zodObject, zodObjectJson],
  ] as [string, unknown, unknown][])("%s", (_name, spec, schema) => {
    expect(normalizeOutputMode(spec)).toEqual({ mode: "object", schema });
  });
});

describe("normalizeOutputMode: rejections", () => {
  const cases: [string, unknown, RegExp][] = [
    ["unknown mode", { mode: "xml" }, /"mode" must be one of "text", "object", "array", "choice", "json", got "xml"/],
    ["unknown kind", { kind: "table" }, /"kind" must be one of/],
    ["object without schema", { mode: "object" }, /object mode needs a "schema"/],
    ["array kind without element", { kind: "array" }, /needs an "element" schema/],
    ["array mode with an item schema", { mode: "array", schema: { type: "string" } }, /schema with type "array".*\{ kind: "array", element \}/],
    ["choice without values", { mode: "choice" }, /non-empty array of strings/],
    ["choice with empty values", { mode: "choice", values: [] }, /non-empty array/],
    ["choice with a number", { mode: "choice", values: ["a", 1] }, /non-empty strings, got 1/],
    ["choice with duplicates", { mode: "choice", values: ["a", "a"] }, /"a" appears twice/],
    ["name not a string", { mode: "text", name: 3 }, /"name" must be a string, got number/],
    ["description null", { mode: "text", description: null }, /"description" must be a string, got null/],
    ["schema outside the subset", { mode: "object", schema: { type: "string", format: "date" } }, /object schema: .*keyword "format"/],
    ["live validator", { mode: "json", schema: (value: unknown) => value !== null }, /json schema: .*live validator functions/],
    ["null", null, /got null/],
    ["a string", "text", /got string/],
  ];
  it.each(cases)("%s", (_name, spec, message) => {
    let caught: unknown;
    try {
      normalizeOutputMode(spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OutputModeError);
    expect(LittleWorkflowError.is(caught, "output.invalid")).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
