import { describe, expect, it } from "vitest";
import { createPrivateSlot } from "./private-slot.js";

describe("createPrivateSlot", () => {
  it("keeps a value on a plain object without changing what the object shows", () => {
    const slot = createPrivateSlot<number>();
    const target = { a: 1 };
    slot.attach(target, 42);
    expect(slot.read(target)).toBe(42);
    expect(slot.has(target)).toBe(true);
    expect(Reflect.ownKeys(target)).toEqual(["a"]);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect({ ...target }).toEqual({ a: 1 });
    expect(JSON.stringify(target)).toBe('{"a":1}');
  });

  it("is distinct per slot and refuses objects without it", () => {
    const first = createPrivateSlot<string>();
    const second = createPrivateSlot<string>();
    const target = {};
    first.attach(target, "x");
    expect(second.has(target)).toBe(false);
    expect(() => second.read(target)).toThrow(TypeError);
    expect(() => first.read({})).toThrow(TypeError);
  });

  it("refuses a second attach to the same object", () => {
    const slot = createPrivateSlot<number>();
    const target = {};
    slot.attach(target, 1);
    expect(() => slot.attach(target, 2)).toThrow(TypeError);
    expect(slot.read(target)).toBe(1);
  });
});

describe("PrivateSlot.accessor", () => {
  it("gives one shared enumerable getter that reads each object's own slot", () => {
    const slot = createPrivateSlot<{ readonly name: string }>();
    const descriptor = slot.accessor((value) => value.name.toUpperCase());
    const first = {};
    const second = {};
    slot.attach(first, { name: "ada" });
    slot.attach(second, { name: "grace" });
    Object.defineProperty(first, "name", descriptor);
    Object.defineProperty(second, "name", descriptor);
    expect([(first as { name: string }).name, (second as { name: string }).name]).toEqual(["ADA", "GRACE"]);
    expect(Object.getOwnPropertyDescriptor(first, "name")!.get).toBe(Object.getOwnPropertyDescriptor(second, "name")!.get);
    expect({ ...first }).toEqual({ name: "ADA" });
    expect(Object.getOwnPropertyDescriptor(first, "name")!.configurable).toBe(false);
    expect(slot.accessor((value) => value, { configurable: true }).configurable).toBe(true);
  });

  it("throws a TypeError on an object without the slot", () => {
    const slot = createPrivateSlot<number>();
    const stranger = Object.defineProperty({}, "value", slot.accessor((value) => value));
    expect(() => (stranger as { value: number }).value).toThrow(TypeError);
  });
});
