import { describe, expect, it } from "vitest";
import { CanonicalJsonError } from "./canonical-json-error.js";
import { canonicalJson, maxCanonicalJsonDepth } from "./canonical-json.js";
import { canonicalSnapshot, canonicalSnapshotOf, snapshotIfJson } from "./canonical-snapshot.js";
import { sha256Digest } from "./digest.js";

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

function nested(levels: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value;
}

describe("canonicalSnapshot", () => {
  // Parsed, so "__proto__" is an own key (in an object literal it would set the prototype).
  const documentText = '{"steps":[{"id":"b","with":{"args":{"z":1,"a":[true,null,"é"]}}},{"id":"a"}],"apiVersion":"v","__proto__":{"kept":"as data"}}';
  const fresh = (): Record<string, unknown> => JSON.parse(documentText) as Record<string, unknown>;

  it("returns a deep-frozen copy with the value's canonical text and leaves the value alone", () => {
    const value = fresh();
    const snapshot = canonicalSnapshot(value);
    expect(snapshot.json).toBe(canonicalJson(value));
    expect(isDeepFrozen(snapshot.value)).toBe(true);
    expect(snapshot.value).not.toBe(value);
    expect(Object.isFrozen(value)).toBe(false);
    expect(Object.hasOwn(snapshot.value, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(snapshot.value)).toBe(Object.prototype);
    expect(canonicalJson(snapshot.value)).toBe(snapshot.json);
    // The value's own key order is kept (a schema's property order matters to a model).
    expect(JSON.stringify(snapshot.value)).toBe(JSON.stringify(fresh()));
  });

  it("gives the same text inside larger values as the walk would, and the same digest", () => {
    const snapshot = canonicalSnapshot(fresh());
    const around = (inner: unknown) => ({ z: [inner, { inner }], a: 1 });
    expect(canonicalJson(around(snapshot.value))).toBe(canonicalJson(around(fresh())));
    expect(sha256Digest(snapshot.value)).toBe(sha256Digest(fresh()));
    expect(sha256Digest(snapshot.value)).toBe(sha256Digest(snapshot.value));
    expect(sha256Digest({ x: snapshot.value })).toBe(sha256Digest({ x: fresh() }));
  });

  it("shared: hands out the same copy again for the same canonical text (key order aside)", () => {
    const first = canonicalSnapshot({ b: 1, a: { c: [1, 2] } }, { share: true });
    const second = canonicalSnapshot({ a: { c: [1, 2] }, b: 1 }, { share: true });
    expect(second).toBe(first);
    expect(canonicalSnapshot({ a: { c: [1, 3] }, b: 1 }, { share: true })).not.toBe(first);
    // Unshared snapshots neither use nor fill the shared ones, however many are made.
    expect(canonicalSnapshot({ b: 1, a: { c: [1, 2] } })).not.toBe(first);
    for (let index = 0; index < 200; index += 1) canonicalSnapshot({ index });
    expect(canonicalSnapshot({ a: { c: [1, 2] }, b: 1 }, { share: true })).toBe(first);
  });

  it("returns a snapshot's own copy as that snapshot, without walking it", () => {
    const snapshot = canonicalSnapshot(fresh());
    expect(canonicalSnapshot(snapshot.value)).toBe(snapshot);
    expect(canonicalSnapshot(snapshot.value, { share: true })).toBe(snapshot);
    expect(canonicalSnapshotOf(snapshot.value)).toBe(snapshot);
    expect(canonicalSnapshotOf(fresh())).toBeUndefined();
    expect(canonicalSnapshotOf(Object.freeze({ a: 1 }))).toBeUndefined();
    expect(canonicalSnapshotOf("text")).toBeUndefined();
  });

  it("attaches its text to the copy invisibly: the copy has the value's keys only, and is frozen", () => {
    const value = { b: [1, { c: 2 }], a: "x" };
    const snapshot = canonicalSnapshot(value);
    expect(Reflect.ownKeys(snapshot.value)).toEqual(["b", "a"]);
    expect(Object.getOwnPropertySymbols(snapshot.value)).toEqual([]);
    expect(Object.isFrozen(snapshot.value)).toBe(true);
    expect(Object.isFrozen(snapshot.value.b)).toBe(true);
    expect(Object.isFrozen(snapshot.value.b[1])).toBe(true);
    // An array copy too, and the caller's value is not touched.
    const array = canonicalSnapshot([{ z: 1 }]);
    expect(Reflect.ownKeys(array.value)).toEqual(["0", "length"]);
    expect(Object.isFrozen(array.value)).toBe(true);
    expect(canonicalSnapshotOf(array.value)).toBe(array);
    expect(Object.isFrozen(value)).toBe(false);
  });

  it("still enforces the depth limit where a snapshot is nested deep", () => {
    const snapshot = canonicalSnapshot(nested(maxCanonicalJsonDepth - 5));
    expect(() => canonicalJson(snapshot.value)).not.toThrow();
    expect(() => canonicalJson(nested(10) as object)).not.toThrow();
    let outer: unknown = snapshot.value;
    for (let level = 0; level < 10; level += 1) outer = [outer];
    expect(() => canonicalJson(outer)).toThrow(CanonicalJsonError);
  });

  it("refuses what is not plain JSON, naming where", () => {
    expect(() => canonicalSnapshot({ steps: [{ at: new Date(0) }] })).toThrow(/\$\.steps\[0\]\.at/);
  });

  it("keeps primitives as they are", () => {
    expect(canonicalSnapshot("text")).toEqual({ value: "text", json: '"text"' });
    expect(canonicalSnapshot(null).json).toBe("null");
  });

  it("snapshotIfJson: the copy for plain JSON, the value itself otherwise", () => {
    const value = fresh();
    const copy = snapshotIfJson(value);
    expect(copy).not.toBe(value);
    expect(canonicalSnapshotOf(copy)?.value).toBe(copy);
    const notJson = { at: new Date(0) };
    expect(snapshotIfJson(notJson)).toBe(notJson);
  });
});
