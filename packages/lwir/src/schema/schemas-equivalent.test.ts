import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normalizeSchema } from "./normalize-schema.js";
import { schemasEquivalent } from "./schemas-equivalent.js";

const handWritten = {
  type: "object",
  required: ["transcript", "ticketId"],
  properties: { ticketId: { type: "string" }, transcript: { type: "string", description: "raw text" } },
};

describe("schemasEquivalent", () => {
  it("a Zod schema's JSON Schema equals the hand-written schema it normalizes to", () => {
    const fromZod = normalizeSchema(z.object({ ticketId: z.string(), transcript: z.string() }));
    expect(fromZod).toHaveProperty("$schema");
    expect(fromZod).toHaveProperty("additionalProperties", false);
    expect(schemasEquivalent(fromZod, handWritten)).toBe(true);
  });

  it.each([
    ["a different type", { ...handWritten, properties: { ...handWritten.properties, ticketId: { type: "number" } } }],
    ["a missing property", { ...handWritten, properties: { ticketId: { type: "string" } } }],
    ["another required list", { ...handWritten, required: ["ticketId"] }],
    ["a bound", { ...handWritten, properties: { ...handWritten.properties, ticketId: { type: "string", minLength: 1 } } }],
    ["additionalProperties as a schema", { ...handWritten, additionalProperties: { type: "string" } }],
  ])("differs on %s", (_name, other) => {
    expect(schemasEquivalent(handWritten, other)).toBe(false);
  });

  it("keeps a property named like an annotation", () => {
    const withTitle = { type: "object", properties: { title: { type: "string" } } };
    expect(schemasEquivalent(withTitle, { type: "object", properties: {} })).toBe(false);
  });
});
