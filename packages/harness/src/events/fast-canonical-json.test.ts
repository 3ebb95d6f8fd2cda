import { CanonicalJsonError, canonicalJson, sha256Digest } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { fastCanonicalJson } from "./fast-canonical-json.js";
import { hashModelRequest } from "./hash-model-request.js";

const samples: unknown[] = [
  null,
  0,
  -0,
  1e21,
  1.5e-7,
  -123.456,
  "plain",
  "quote \" backslash \\ newline \n tab \t control \u0001",
  "paired surrogate 😀 and é",
  "literal backslash-u text: \\ud800",
  [],
  {},
  [1, [2, [3, { b: 1, a: 2 }]]],
  { "z": 1, "a": { "é": 1, "e": 2, "E": 3, "😀": 4, "\uffff": 5, "": 6, "10": 7, "9": 8 } },
  Object.assign(Object.create(null) as object, { b: 2, a: 1 }),
  JSON.parse('{"__proto__": {"x": 1}, "a": [true, false, null]}') as unknown,
];

describe("fastCanonicalJson", () => {
  it.each(samples.map((sample) => [JSON.stringify(sample), sample]))("equals canonicalJson for %s", (_label, sample) => {
    expect(fastCanonicalJson(sample)).toBe(canonicalJson(sample));
  });

  it("defers to canonicalJson (and its errors) for anything that is not plain JSON", () => {
    for (const bad of [{ a: Number.NaN }, [undefined], { a: () => 1 }, { at: new Date(0) }, "lone \ud800 surrogate", { k: "x\udc00" }, [1, , 3]]) {
      expect(() => fastCanonicalJson(bad)).toThrow(CanonicalJsonError);
    }
  });

  it("gives hashModelRequest the same digest as sha256Digest", () => {
    const request = { model: "p:m", messages: [{ role: "user", content: [{ type: "text", text: "héllo 😀" }] }], tools: [{ name: "t", digest: "sha256:1" }] };
    expect(hashModelRequest(request)).toBe(sha256Digest(request));
  });
});
