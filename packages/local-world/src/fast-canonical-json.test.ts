import { canonicalJson } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { fastCanonicalJson } from "./fast-canonical-json.js";

/** Deterministic pseudo-random values covering the shapes and characters payloads contain. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const strings = ["", "a", "é", "日本", "😀", "\u0000", "\u001f", "\"", "\\", "\n\t", "\u2028", "\uFFFF", "z", "A", "_", "10", "1", "b"];
const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, Number.MAX_SAFE_INTEGER, -1.5e300, 2 ** 53 + 2, 0.000001];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const kind = depth > 4 ? Math.floor(random() * 4) : Math.floor(random() * 6);
  switch (kind) {
    case 0:
      return pick(strings) + pick(strings);
    case 1:
      return random() < 0.5 ? pick(numbers) : (random() - 0.5) * 10 ** Math.floor(random() * 30);
    case 2:
      return random() < 0.5;
    case 3:
      return null;
    case 4:
      return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let index = Math.floor(random() * 6); index > 0; index -= 1) {
        object[pick(strings) + pick(strings)] = randomValue(random, depth + 1);
      }
      return object;
    }
  }
}

describe("fastCanonicalJson", () => {
  it("produces exactly canonicalJson's text for plain values", () => {
    const random = generator(20261129);
    for (let index = 0; index < 5000; index += 1) {
      const value = randomValue(random, 0);
      const fast = fastCanonicalJson(value);
      const expected = canonicalJson(value);
      if (fast !== undefined) expect(fast).toBe(expected);
    }
    // The fast path must actually be taken for ordinary payloads.
    expect(fastCanonicalJson({ stepPath: "a[b%2Ec].d", attempt: 1, output: { z: [1, 2.5, "x"], a: null } })).toBe(
      '{"attempt":1,"output":{"a":null,"z":[1,2.5,"x"]},"stepPath":"a[b%2Ec].d"}',
    );
  });

  it("declines everything that needs the general canonicalizer's checks or error paths", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const withAccessor = Object.defineProperty({}, "x", { get: () => 1, enumerable: true });
    const withSymbol = { a: 1, [Symbol("s")]: 2 };
    let deep: unknown = 1;
    for (let index = 0; index < 70; index += 1) deep = [deep];
    class Point {
      x = 1;
    }
    const declined: unknown[] = [
      undefined,
      () => 1,
      10n,
      Symbol("x"),
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "pair 😀 is fine in canonicalJson but declined here",
      "lone \uD800",
      { "key \uDC00": 1 },
      [1, , 3],
      new Date(0),
      new Map(),
      new Point(),
      cyclic,
      withAccessor,
      withSymbol,
      { nested: [undefined] },
    ];
    for (const value of declined) expect(fastCanonicalJson(value)).toBeUndefined();
    // A long but acyclic nesting is declined, and canonicalJson still answers it.
    expect(fastCanonicalJson(deep)).toBeUndefined();
    expect(canonicalJson(deep)).toBe(`${"[".repeat(70)}1${"]".repeat(70)}`);
  });

  it("accepts null-prototype objects like canonicalJson does", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(fastCanonicalJson(bare)).toBe(canonicalJson(bare));
  });
});
