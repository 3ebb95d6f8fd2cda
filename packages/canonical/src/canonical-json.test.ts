import { describe, expect, it } from "vitest";
import { canonicalJson, maxCanonicalJsonDepth } from "./canonical-json.js";
import { canonicalSnapshot } from "./canonical-snapshot.js";
import { CanonicalJsonError } from "./canonical-json-error.js";
import { LittleWorkflowError } from "./little-workflow-error.js";

function doubleFromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("canonicalJson: RFC 8785 examples", () => {
  it("canonicalizes the RFC's §3.2.2 sample exactly", () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalJson(JSON.parse(input))).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("sorts keys by UTF-16 code units, non-BMP characters included (§3.2.3)", () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`) as Record<string, string>;
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // Object.keys puts "1" first (integer-like); compare the serialized order instead.
    const serializedOrder = [...canonicalJson(input).matchAll(/"([^"]*)":"/g)].map((match) =>
      JSON.parse(`"${match[1]}"`) as string,
    );
    expect(serializedOrder.map((key) => input[key])).toEqual([
      "Carriage Return",
      "One",
      "Control",
      "Latin Small Letter O With Diaeresis",
      "Euro Sign",
      "Emoji: Grinning Face",
      "Hebrew Letter Dalet With Dagesh",
    ]);
    expect(keys).toHaveLength(7);
  });

  // Appendix B of RFC 8785: IEEE 754 bit patterns and their canonical text.
  it.each([
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ])("number with bits %s serializes as %s", (bits, expected) => {
    expect(canonicalJson(doubleFromBits(bits))).toBe(expected);
  });

  it("rejects NaN and Infinity bit patterns", () => {
    expect(() => canonicalJson(doubleFromBits("7fffffffffffffff"))).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(doubleFromBits("7ff0000000000000"))).toThrow(/not a finite number/);
  });

  it("escapes minimally: control characters as \\uXXXX lowercase or short forms, nothing else", () => {
    expect(canonicalJson("\b\f\n\r\t\u0001\u001f\"\\/é😀\u2028")).toBe(
      '"\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\/é😀\u2028"',
    );
  });

  it("writes no whitespace and keeps array order", () => {
    expect(canonicalJson({ b: [3, 1, { d: 1, c: 2 }], a: "x" })).toBe('{"a":"x","b":[3,1,{"c":2,"d":1}]}');
  });

  it("is stable under key order", () => {
    expect(canonicalJson({ a: 1, b: { x: 1, y: 2 } })).toBe(canonicalJson({ b: { y: 2, x: 1 }, a: 1 }));
  });

  it("accepts null-prototype objects as plain objects", () => {
    const value = Object.create(null) as Record<string, unknown>;
    value.k = 1;
    expect(canonicalJson(value)).toBe('{"k":1}');
  });
});

describe("canonicalJson: rejects everything that is not plain JSON, naming the path", () => {
  const cyclic: Record<string, unknown> = { a: { b: [] } };
  (cyclic.a as { b: unknown[] }).b.push(cyclic);
  // eslint-disable-next-line no-sparse-arrays
  const sparse = [1, , 3];
  class Point {
    x = 1;
  }
  function deeplyNested(depth: number): unknown {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = { a: value };
    return value;
  }

  it.each<[string, unknown, string, RegExp]>([
    ["undefined at top", undefined, "$", /undefined/],
    ["undefined in an object", { a: { b: undefined } }, "$.a.b", /undefined/],
    ["undefined in an array", [1, undefined], "$[1]", /undefined/],
    ["NaN", { n: Number.NaN }, "$.n", /finite/],
    ["Infinity", [Number.POSITIVE_INFINITY], "$[0]", /finite/],
    ["-Infinity", { "a b": Number.NEGATIVE_INFINITY }, '$["a b"]', /finite/],
    ["bigint", { big: 1n }, "$.big", /bigint/],
    ["function", { f: () => 1 }, "$.f", /function/],
    ["symbol value", { s: Symbol("x") }, "$.s", /symbol/],
    ["symbol key", { [Symbol("k")]: 1 }, "$", /symbol keys/],
    ["class instance", { p: new Point() }, "$.p", /instance of Point/],
    ["Date", { when: new Date(0) }, "$.when", /Date/],
    ["Map", { m: new Map() }, "$.m", /Map/],
    ["Set", [new Set()], "$[0]", /Set/],
    ["cycle", cyclic, "$.a.b[0]", /cycle/],
    ["sparse array", { list: sparse }, "$.list[1]", /sparse/],
    ["lone high surrogate", { s: "a\uD800b" }, "$.s", /lone surrogate/],
    ["lone low surrogate", ["\uDC00"], "$[0]", /lone surrogate/],
    ["lone surrogate in a key", { "\uD83D": 1 }, String.raw`$["\ud83d"]`, /lone surrogate/],
    // Longer than the hand-quoted limit, so written by JSON.stringify, whose escape is looked for in that piece.
    ["lone surrogate in a long string", { long: `${"x".repeat(300)}\uDBFF` }, "$.long", /lone surrogate/],
    ["lone surrogate beside a spliced snapshot", { plan: canonicalSnapshot({ steps: ["a", "b"] }).value, note: "\uDFFF" }, "$.note", /lone surrogate/],
    ["nesting deeper than the limit", deeplyNested(maxCanonicalJsonDepth + 5), "$" + ".a".repeat(maxCanonicalJsonDepth), /nesting deeper than 1000/],
  ])("%s", (_label, value, path, problem) => {
    let thrown: unknown;
    try {
      canonicalJson(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CanonicalJsonError);
    const error = thrown as CanonicalJsonError;
    expect(error.path).toBe(path);
    expect(error.message).toMatch(problem);
    expect(error.code).toBe("canonical.not_json");
    expect(LittleWorkflowError.is(error)).toBe(true);
  });

  it("reads accessor properties the way JSON.stringify does", () => {
    const withAccessor = Object.defineProperty({}, "g", { get: () => 1, enumerable: true });
    expect(canonicalJson(withAccessor)).toBe('{"g":1}');
  });

  it("accepts nesting up to the limit", () => {
    let value: unknown = 1;
    for (let level = 0; level < maxCanonicalJsonDepth - 1; level += 1) value = [value];
    expect(canonicalJson(value)).toBe(`${"[".repeat(maxCanonicalJsonDepth - 1)}1${"]".repeat(maxCanonicalJsonDepth - 1)}`);
  });

  it("accepts the same object twice when it is not a cycle", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe("canonicalJson and surrogates written by JSON.stringify", () => {
  it("refuses a key with a lone surrogate every time (the refused key is not cached)", () => {
    for (let time = 0; time < 2; time += 1) expect(() => canonicalJson({ "k\uD800": 1 })).toThrow(CanonicalJsonError);
  });

  it("keeps a well-formed pair in a long string and in a key, as JSON.stringify writes it", () => {
    const long = `${"y".repeat(300)}\u{1F600}`;
    expect(canonicalJson({ long, "\u{1F600}": 1 })).toBe(`{"long":${JSON.stringify(long)},"\u{1F600}":1}`);
  });
});
