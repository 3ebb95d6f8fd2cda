import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { JsonSchema } from "./json-schema.js";
import { normalizeOutputMode, type LwirOutputMode } from "./output-mode.js";

describe("normalizeOutputMode types", () => {
  it("narrows the result to the mode of the spec", () => {
    expectTypeOf(normalizeOutputMode({ mode: "text" })).toEqualTypeOf<Extract<LwirOutputMode, { mode: "text" }>>();
    expectTypeOf(normalizeOutputMode({ kind: "choice", values: ["a"] })).toEqualTypeOf<Extract<LwirOutputMode, { mode: "choice" }>>();
    expectTypeOf(normalizeOutputMode({ kind: "array", element: { type: "string" } }).schema).toEqualTypeOf<JsonSchema>();
    expectTypeOf(normalizeOutputMode(z.object({ a: z.string() })).mode).toEqualTypeOf<"object">();
    expectTypeOf(normalizeOutputMode({ type: "object" }).mode).toEqualTypeOf<"object">();
  });

  it("gives the full union for an unknown spec", () => {
    const spec: unknown = JSON.parse('{"mode":"text"}');
    expectTypeOf(normalizeOutputMode(spec)).toEqualTypeOf<LwirOutputMode>();
  });

  it("keeps json mode's schema optional", () => {
    expectTypeOf(normalizeOutputMode({ mode: "json" }).schema).toEqualTypeOf<JsonSchema | undefined>();
  });
});
