import { describe, expect, it } from "vitest";
import { hmacSha256Digest, isSha256Digest, sha256Digest, sha256DigestOfBytes, sha256Hex } from "./digest.js";
import { contentId, idFromDigest, isPrefixedId, randomId } from "./prefixed-id.js";
import { LittleWorkflowError } from "./little-workflow-error.js";

describe("digests", () => {
  it("hashes the canonical form, so key order does not matter", () => {
    expect(sha256Digest({ a: 1, b: 2 })).toBe(sha256Digest({ b: 2, a: 1 }));
    expect(sha256Digest({ a: 1 })).toBe(`sha256:${sha256Hex('{"a":1}')}`);
  });

  it("matches the known sha256 of 'abc'", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256DigestOfBytes(new TextEncoder().encode("abc"))).toBe(
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("reproduces the code.run file hash of the compile-pipeline seed", () => {
    const content =
      "export async function run({ input }) {\n  return { score: input.signals.length / 10 };\n}";
    expect(sha256DigestOfBytes(content)).toBe(
      "sha256:1ed396c7cbeba5c323250026707a76c1e1ad3f62572334094e5167c357c6de7c",
    );
  });

  it("computes RFC 4231 test case 2 HMAC", () => {
    expect(hmacSha256Digest("Jefe", "what do ya want for nothing?")).toBe(
      "sha256:5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("recognises well-formed digests only", () => {
    expect(isSha256Digest(sha256Digest(1))).toBe(true);
    expect(isSha256Digest("sha256:ABC")).toBe(false);
    expect(isSha256Digest(42)).toBe(false);
  });
});

describe("prefixed ids", () => {
  it("derives ids from content deterministically", () => {
    const digest = sha256Digest({ k: 1 });
    expect(contentId("wfver", { k: 1 })).toBe(`wfver_${digest.slice(7, 23)}`);
    expect(idFromDigest("art", digest)).toBe(`art_${digest.slice(7, 23)}`);
    expect(isPrefixedId(contentId("evt", [1]), "evt")).toBe(true);
    expect(isPrefixedId(contentId("evt", [1]), "art")).toBe(false);
  });

  it("makes distinct random ids", () => {
    const first = randomId("run");
    expect(isPrefixedId(first, "run")).toBe(true);
    expect(randomId("run")).not.toBe(first);
  });

  it("refuses a malformed prefix with a named error", () => {
    expect(() => randomId("Run-1")).toThrow(/lowercase/);
    try {
      contentId("", 1);
    } catch (error) {
      expect(LittleWorkflowError.is(error, "canonical.invalid_id_prefix")).toBe(true);
    }
    expect.assertions(2);
  });
});
