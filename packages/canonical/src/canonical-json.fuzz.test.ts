import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

// An independent, deliberately naive RFC 8785 writer (sorted entries, JSON.stringify leaves) to
// check canonicalJson's fast path and careful walk against, on random plain JSON.
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${reference(item)}`).join(",")}}`;
  }
  return typeof value === "number" && value === 0 ? "0" : JSON.stringify(value);
}

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

// Also the last control character (escaped) and characters JSON.stringify leaves as they are (DEL,
// the line separator), which the hand-quoted path must treat the same way.
const alphabet = ["a", "B", "é", "😀", "\n", '"', "\\", "1", "10", "\u0000", "\uffff", "u", "d800", " ", "\u007f", "\u2028", "\u001f"];

function randomString(random: () => number): string {
  let text = "";
  const length = Math.floor(random() * 6);
  for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

function randomJson(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth > 4 || pick < 0.3) {
    const leaf = random();
    if (leaf < 0.2) return null;
    if (leaf < 0.35) return random() < 0.5;
    if (leaf < 0.7) return (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
    return randomString(random);
  }
  if (pick < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let count = Math.floor(random() * 5); count > 0; count -= 1) object[randomString(random)] = randomJson(random, depth + 1);
  return object;
}

describe("canonicalJson against a naive reference", () => {
  it("agrees on 3,000 random plain JSON values", () => {
    const random = prng(20261129);
    for (let round = 0; round < 3000; round += 1) {
      const value = randomJson(random, 0);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });

  it("writes a literal backslash-u-d800 text correctly (the fast path's surrogate guard falls back)", () => {
    expect(canonicalJson({ text: "\\ud800" })).toBe('{"text":"\\\\ud800"}');
  });
});
