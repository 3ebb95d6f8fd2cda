import { canonicalSnapshot } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { LWIR_FINDING_CODES } from "./findings.js";
import { fixtureNames, loadFixture } from "./__fixtures__/load-fixture.js";
import type { ValidationResult } from "./types.js";
import { validateLwir } from "./validate-lwir.js";
import { seededRandom } from "./__fixtures__/seeded-random.js";

const knownCodes: ReadonlySet<string> = new Set(LWIR_FINDING_CODES);


const interestingStrings = [
  "",
  "end",
  "__proto__",
  "constructor",
  "prototype",
  "{{",
  "}}",
  "{{ steps.research.output }}",
  "{{ steps.draft.output }}",
  "{{ item.id }}",
  "{{ input.topic",
  "{{ process.env.X }}",
  "a.b",
  "x@attempt_1",
  "gpt-4o-mini",
  "search",
  "score.ts",
  "../x.js",
  "deny",
  "sha256:00",
  "\u0000",
  "\ud83d\ude00",
  "ai.generate",
  "tool.call",
  "code.run",
  "decision",
  "parallel",
  "array",
  "object",
  "json",
  "choice",
  "text",
  // Step ids of the fixtures, so mutations rewire needs, targets and references.
  "research",
  "score",
  "evaluate",
  "judge",
  "draft",
  "review",
  "decide",
  "publish",
  "finish",
  "summarize",
  "compute-score",
  "{{ steps.review.lastOutput }}",
  "{{ steps.judge.output }}",
  "{{ steps.evaluate.allVisits }}",
];
const interestingKeys = [
  "__proto__",
  "constructor",
  "prototype",
  "id",
  "uses",
  "needs",
  "with",
  "output",
  "mode",
  "schema",
  "steps",
  "maxVisits",
  "toString",
  "hasOwnProperty",
];

function randomJson(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth > 5 || roll < 0.35) {
    const scalar = random();
    if (scalar < 0.2) return interestingStrings[Math.floor(random() * interestingStrings.length)];
    if (scalar < 0.4) return Math.floor(random() * 200) - 50;
    if (scalar < 0.5) return random() * 1e6;
    if (scalar < 0.6) return random() < 0.5;
    if (scalar < 0.7) return null;
    return random().toString(36).slice(2, 2 + Math.floor(random() * 8));
  }
  if (roll < 0.6) {
    return Array.from({ length: Math.floor(random() * 5) }, () => randomJson(random, depth + 1));
  }
  // Built as JSON text so `__proto__` becomes an own key, exactly as a parsed document has it.
  const entries = Array.from({ length: Math.floor(random() * 5) }, () => {
    const key = random() < 0.5 ? interestingKeys[Math.floor(random() * interestingKeys.length)] : `k${Math.floor(random() * 9)}`;
    return `${JSON.stringify(key)}:${JSON.stringify(randomJson(random, depth + 1)) ?? "null"}`;
  });
  return JSON.parse(`{${entries.join(",")}}`);
}

/** Every container of `value` with the key or index that reaches it. */
function containersOf(value: unknown): { parent: Record<string, unknown> | unknown[]; key: string | number }[] {
  const found: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        found.push({ parent: node, key: index });
        stack.push(child);
      });
    } else if (typeof node === "object" && node !== null) {
      for (const key of Object.keys(node)) {
        found.push({ parent: node as Record<string, unknown>, key });
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return found;
}

function mutateRandomly(doc: unknown, random: () => number): void {
  const mutations = 1 + Math.floor(random() * 3);
  for (let count = 0; count < mutations; count += 1) {
    const containers = containersOf(doc);
    if (containers.length === 0) return;
    const target = containers[Math.floor(random() * containers.length)] as (typeof containers)[number];
    const action = random();
    if (action < 0.3 && !Array.isArray(target.parent)) delete target.parent[target.key as string];
    else if (action < 0.8) (target.parent as Record<string | number, unknown>)[target.key] = randomJson(random, 3);
    else {
      const source = containers[Math.floor(random() * containers.length)] as (typeof containers)[number];
      (target.parent as Record<string | number, unknown>)[target.key] = structuredClone(
        (source.parent as Record<string | number, unknown>)[source.key],
      );
    }
  }
}

function expectWellFormed(result: ValidationResult): void {
  expect(result.valid).toBe(result.findings.length === 0);
  for (const finding of result.findings) {
    expect(knownCodes.has(finding.code)).toBe(true);
    expect(finding.code).not.toBe("lwir.internal_error");
    expect(finding.path.startsWith("$")).toBe(true);
    expect(finding.severity).toBe("error");
    expect(typeof finding.message).toBe("string");
  }
}

function expectPrototypesClean(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

describe("validateLwir never throws", () => {
  it("on 3000 random JSON values (seeded)", () => {
    const random = seededRandom(20261129);
    for (let index = 0; index < 3000; index += 1) {
      const value = randomJson(random, 0);
      expectWellFormed(validateLwir(value));
    }
    expectPrototypesClean();
  });

  it("on 3000 random mutations of the valid fixtures, deterministically", () => {
    const random = seededRandom(42);
    for (let index = 0; index < 3000; index += 1) {
      const doc = loadFixture(fixtureNames[index % fixtureNames.length] as (typeof fixtureNames)[number]);
      mutateRandomly(doc, random);
      const first = validateLwir(doc);
      expectWellFormed(first);
      expect(validateLwir(doc)).toEqual(first);
    }
    expectPrototypesClean();
  });

  it("with the same findings for a canonicalSnapshot copy (verdict kept) as for the document (1000 mutated fixtures)", () => {
    const random = seededRandom(99);
    for (let index = 0; index < 1000; index += 1) {
      const doc = loadFixture(fixtureNames[index % fixtureNames.length] as (typeof fixtureNames)[number]);
      mutateRandomly(doc, random);
      const expected = validateLwir(doc);
      const snapshot = canonicalSnapshot(doc).value;
      const first = validateLwir(snapshot);
      expect(first).toEqual(expected);
      const again = validateLwir(snapshot);
      expect(again).toEqual(expected);
      // Each caller gets its own findings array.
      expect(again.findings).not.toBe(first.findings);
    }
    expectPrototypesClean();
  });

  it("with the same findings whatever the key order of the input (500 mutated fixtures)", () => {
    const random = seededRandom(7);
    const shuffled = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(shuffled);
      if (typeof value !== "object" || value === null) return value;
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index > 0; index -= 1) {
        const other = Math.floor(random() * (index + 1));
        [keys[index], keys[other]] = [keys[other] as string, keys[index] as string];
      }
      const entries = keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(shuffled((value as Record<string, unknown>)[key]))}`);
      return JSON.parse(`{${entries.join(",")}}`);
    };
    for (let index = 0; index < 500; index += 1) {
      const doc = loadFixture(fixtureNames[index % fixtureNames.length] as (typeof fixtureNames)[number]);
      mutateRandomly(doc, random);
      expect(validateLwir(shuffled(doc))).toEqual(validateLwir(doc));
    }
  });

  it("on prototype-polluting keys from JSON.parse, without touching Object.prototype", () => {
    const text = JSON.stringify(loadFixture("review-candidates")).replace(
      '"steps":[',
      '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"steps":[{"id":"__proto__","uses":"tool.call","needs":["constructor"],"with":{"tool":"search","__proto__":{"polluted":1}},"output":{"mode":"text"}},',
    );
    const result = validateLwir(JSON.parse(text));
    expectWellFormed(result);
    expect(result.findings.map((finding) => finding.path)).toEqual(
      expect.arrayContaining(["$.__proto__", "$.constructor", "$.steps[0].needs[0]", "$.steps[0].with.__proto__"]),
    );
    expectPrototypesClean();
  });

  it("on step ids that shadow Object.prototype members", () => {
    const doc = loadFixture("support-summarize-ticket");
    doc.steps[0].id = "constructor";
    doc.steps[0].needs = ["toString", "hasOwnProperty"];
    const result = validateLwir(doc);
    expect(result.findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "step.missing_dependency", path: "$.steps[0].needs[0]" },
      { code: "step.missing_dependency", path: "$.steps[0].needs[1]" },
    ]);
  });

  it("on 100,000 levels of nesting, parsed or built", () => {
    const depth = 100_000;
    const parsed = JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
    let built: unknown = 1;
    for (let level = 0; level < depth; level += 1) built = [built];
    const inStep = loadFixture("review-candidates");
    inStep.steps[0].input = parsed;
    for (const value of [parsed, built, inStep]) {
      const result = validateLwir(value);
      expect(result.findings.map(({ code, path }) => ({ code, path }))).toEqual([{ code: "lwir.non_hashable", path: "$" }]);
    }
  });

  it("on nesting the canonicalizer accepts but schema and expression checks must survive", () => {
    const depth = 2_000;
    const doc = loadFixture("review-candidates");
    let schema: unknown = { type: "string" };
    for (let level = 0; level < depth; level += 1) schema = { type: "array", items: schema };
    doc.input.schema = schema;
    let input: unknown = "{{ input.topic }}";
    for (let level = 0; level < depth; level += 1) input = { nested: input };
    doc.steps[0].input = input;
    const result = validateLwir(doc);
    expectWellFormed(result);
  });

  it("on 10 MB strings in templates, file contents and keys", () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    const doc = loadFixture("review-candidates");
    doc.steps[7].with.prompt = `{{ steps.publish.output.url }} ${huge} {{ input.topic`;
    doc.steps[1].with.files["score.ts"].content = huge;
    doc.metadata.description = huge;
    doc.steps[0].with.args[huge.slice(0, 1_000_000)] = "{{ input.topic }}";
    const result = validateLwir(doc);
    expectWellFormed(result);
    expect(result.findings.map(({ code }) => code).sort()).toEqual(["code.invalid_file_hash", "expression.invalid"]);
  });

  it("on values that are not JSON, with the single non_hashable finding at $", () => {
    const cyclic: Record<string, unknown> = loadFixture("compute-score");
    cyclic.self = cyclic;
    const withGetter = loadFixture("compute-score");
    Object.defineProperty(withGetter, "kind", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const throwingProxy = new Proxy(loadFixture("compute-score"), {
      ownKeys() {
        throw new Error("trap");
      },
      get() {
        throw new Error("trap");
      },
    });
    const values: unknown[] = [
      undefined,
      () => 1,
      Symbol("x"),
      10n,
      Number.NaN,
      new Date(0),
      new Map(),
      cyclic,
      withGetter,
      throwingProxy,
      { ...loadFixture("compute-score"), extra: undefined },
      { ...loadFixture("compute-score"), score: Number.POSITIVE_INFINITY },
      { ...loadFixture("compute-score"), sparse: [1, , 3] },
      { ...loadFixture("compute-score"), lone: "\ud800" },
      Object.create({ inherited: true }),
    ];
    for (const value of values) {
      const result = validateLwir(value);
      expect(result.findings.map(({ code, path }) => ({ code, path }))).toEqual([{ code: "lwir.non_hashable", path: "$" }]);
    }
  });

  it("on JSON that is not an object document", () => {
    for (const value of [null, 0, "workflow", true, [], [loadFixture("compute-score")]]) {
      const result = validateLwir(value);
      expect(result.findings.map(({ code, path }) => ({ code, path }))).toEqual([{ code: "schema.invalid", path: "$" }]);
    }
  });
});
