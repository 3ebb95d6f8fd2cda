import { createHash } from "node:crypto";

/** Choices drawn from sha256(seed:counter): reproducible from the seed, no state beyond a counter. */
export function choicesFrom(seed: string): { pick: <T>(options: readonly T[]) => T; below: (n: number) => number; chance: (p: number) => boolean } {
  let counter = 0;
  const unit = (): number => {
    counter += 1;
    return createHash("sha256").update(`${seed}:${counter}`).digest().readUInt32BE(0) / 2 ** 32;
  };
  const below = (n: number): number => Math.floor(unit() * n);
  return { pick: (options) => options[below(options.length)]!, below, chance: (p) => unit() < p };
}

type Choices = ReturnType<typeof choicesFrom>;
type Schema = boolean | Record<string, unknown>;

const names = ["id", "name", "score", "approved", "notes", "items", "kind", "total", "tags", "a-b", "with space", "ünï"];
const annotations = (c: Choices): Record<string, unknown> => (c.chance(0.3) ? { description: "generated" } : c.chance(0.1) ? { title: "T", examples: [] } : {});

function primitive(c: Choices): Record<string, unknown> {
  switch (c.below(9)) {
    case 0: {
      const min = c.below(4) === 0 ? undefined : c.below(15);
      const max = c.chance(0.5) ? (min ?? 0) + c.below(20) : undefined;
      return { type: "string", ...(min === undefined ? {} : { minLength: min }), ...(max === undefined ? {} : { maxLength: max }) };
    }
    case 1: {
      const min = c.chance(0.5) ? c.below(10) - 5 : undefined;
      const max = c.chance(0.5) ? (min ?? 0) + c.below(10) : undefined;
      return { type: "integer", ...(min === undefined ? {} : { minimum: min }), ...(max === undefined ? {} : { maximum: max }) };
    }
    case 2: {
      // Fractional bounds with at least one integer between them.
      const low = c.below(5) + 0.25;
      return c.chance(0.5) ? { type: "integer", minimum: low, maximum: low + 1 } : { type: "number", minimum: low, maximum: low + c.below(3) };
    }
    case 3:
      return { type: "boolean" };
    case 4:
      return { type: "null" };
    case 5:
      return { type: c.pick([["string", "null"], ["null", "integer"], ["number", "string"], ["boolean", "null", "string"]]) };
    case 6:
      return { type: "string", enum: c.pick([["a"], ["low", "medium", "high"], ["x", "yy"]]) };
    case 7:
      return { enum: c.pick([[1, "one", null], [true, false], ["only"]]) };
    default:
      return { const: c.pick(["fixed", 7, null, false]) };
  }
}

function object(c: Choices, depth: number): Record<string, unknown> {
  const count = c.below(5);
  const properties: Record<string, Schema> = {};
  for (let index = 0; index < count; index += 1) properties[c.pick(names)] = schema(c, depth + 1);
  const keys = Object.keys(properties);
  const required = keys.filter(() => c.chance(0.6));
  const closed = c.chance(0.4);
  const result: Record<string, unknown> = { type: "object", properties, required };
  if (closed) result.additionalProperties = false;
  else if (c.chance(0.2)) result.additionalProperties = { type: "string" };
  if (c.chance(0.2)) result.propertyNames = keys.length > 0 && c.chance(0.5) ? { enum: keys } : { maxLength: 40 };
  if (c.chance(0.1)) delete result.type; // an object known only by its keywords
  return result;
}

function array(c: Choices, depth: number): Record<string, unknown> {
  const min = c.chance(0.4) ? c.below(3) : undefined;
  const max = c.chance(0.4) ? (min ?? 0) + c.below(4) : undefined;
  return {
    type: "array",
    ...(c.chance(0.9) ? { items: schema(c, depth + 1) } : {}),
    ...(min === undefined ? {} : { minItems: min }),
    ...(max === undefined ? {} : { maxItems: max }),
  };
}

/** anyOf/oneOf as LWIR allows them: all primitive branches, or objects discriminated by a const. */
function branches(c: Choices, depth: number): Record<string, unknown> {
  // Primitive branches only under anyOf: oneOf over overlapping primitives ([boolean, boolean]) admits no value.
  if (c.chance(0.5)) return { anyOf: [primitive(c), primitive(c), ...(c.chance(0.5) ? [{ type: "null" }] : [])] };
  const keyword = c.pick(["anyOf", "oneOf"]);
  const count = 1 + c.below(3);
  const options = Array.from({ length: count }, (_unused, index) => {
    const { propertyNames: _names, ...body } = object(c, depth + 1);
    const properties = { ...(body.properties as Record<string, Schema>), kind: c.chance(0.5) ? { const: `k${index}` } : { type: "string", enum: [`k${index}`] } };
    return { ...body, type: "object", properties, required: [...new Set([...(body.required as string[]), "kind"])] };
  });
  return { [keyword]: options };
}

/**
 * A random JSON Schema inside the LWIR subset that admits at least one value: every keyword of
 * lwir.md §5, nested up to four levels, annotations sprinkled in, sometimes a boolean schema.
 */
export function generateSubsetSchema(c: Choices, depth = 0): Schema {
  const root = schema(c, depth);
  if (typeof root === "object" && c.chance(0.15)) return { $schema: c.pick(["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"]), ...root };
  return root;
}

function schema(c: Choices, depth: number): Schema {
  if (c.chance(0.05)) return true;
  const roll = depth >= 4 ? 0 : c.below(6);
  const node = roll <= 1 ? primitive(c) : roll === 2 ? object(c, depth) : roll === 3 ? array(c, depth) : roll === 4 ? branches(c, depth) : object(c, depth);
  return { ...node, ...annotations(c) };
}
