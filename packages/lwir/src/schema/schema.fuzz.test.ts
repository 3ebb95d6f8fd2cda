import { describe, expect, it } from "vitest";
import { checkSchemaSubset } from "./check-schema-subset.js";
import { normalizeSchema } from "./normalize-schema.js";
import { normalizeOutputMode } from "./output-mode.js";
import { OutputModeError, SchemaNormalizationError } from "./schema-errors.js";
import { seededRandom } from "../__fixtures__/seeded-random.js";


const keywords = [
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "minimum",
  "maximum", "minLength", "maxLength", "minItems", "maxItems", "propertyNames", "title", "$schema", "$ref", "format",
  "__proto__", "mode", "kind", "element", "schema", "values", "name", "x",
];
const scalars: unknown[] = ["object", "array", "string", "number", "null", "integer", true, false, null, 0, -1, 3, 1.5, "", "a"];

/** Schema-flavoured random JSON: keys drawn mostly from JSON Schema keywords. */
function randomJson(next: () => number, depth: number): unknown {
  const choice = next();
  if (depth > 4 || choice < 0.35) return scalars[Math.floor(next() * scalars.length)];
  if (choice < 0.5) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  const entries = Array.from({ length: Math.floor(next() * 5) }, () => [keywords[Math.floor(next() * keywords.length)]!, randomJson(next, depth + 1)]);
  return JSON.parse(JSON.stringify(Object.fromEntries(entries))) as unknown;
}

describe("schema fuzzing (seeded)", () => {
  it("checkSchemaSubset never throws; normalizeSchema/normalizeOutputMode throw only their named errors", () => {
    const next = seededRandom(5);
    let accepted = 0;
    for (let run = 0; run < 5_000; run += 1) {
      const value = randomJson(next, 0);
      const problems = checkSchemaSubset(value);
      expect(Array.isArray(problems)).toBe(true);
      for (const problem of problems) {
        expect(Array.isArray(problem.path)).toBe(true);
        expect(problem.message.length).toBeGreaterThan(0);
      }
      try {
        normalizeSchema(value);
        accepted += 1;
        // normalizeSchema accepts exactly what the subset check accepts (for plain JSON input).
        expect(problems).toEqual([]);
      } catch (error) {
        expect(error).toBeInstanceOf(SchemaNormalizationError);
      }
      try {
        normalizeOutputMode(value);
      } catch (error) {
        expect(error).toBeInstanceOf(OutputModeError);
      }
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
