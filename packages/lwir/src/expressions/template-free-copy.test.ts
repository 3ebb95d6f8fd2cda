import { canonicalSnapshot } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { resolveTemplates } from "./evaluate-template.js";
import { templateFreeCopy } from "./template-free-copy.js";

const context = { input: { name: "Ada" }, steps: {} };

describe("templateFreeCopy", () => {
  it("copies a deep-frozen value without templates: equal, same key order, fresh, changeable, the source untouched", () => {
    const source = canonicalSnapshot({ tool: "noop", args: { z: 1, a: [true, null, "text"], "2": "two", __proto__x: 0 } }).value;
    const copy = templateFreeCopy(source) as { args: { a: unknown[] } };
    expect(copy).toEqual(source);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
    expect(Object.isFrozen(copy)).toBe(false);
    copy.args.a.push("more");
    expect((templateFreeCopy(source) as { args: { a: unknown[] } }).args.a).toEqual([true, null, "text"]);
    expect(source.args.a).toEqual([true, null, "text"]);
  });

  it("leaves alone a value with a template, one not frozen all the way down, and one not plain JSON", () => {
    expect(templateFreeCopy(Object.freeze({ name: "{{ input.name }}" }))).toBeUndefined();
    expect(templateFreeCopy({ a: 1 })).toBeUndefined();
    expect(templateFreeCopy(Object.freeze({ inner: { a: 1 } }))).toBeUndefined();
    expect(templateFreeCopy(Object.freeze({ gone: undefined }))).toBeUndefined();
    expect(templateFreeCopy(Object.freeze({ n: Number.NaN }))).toBeUndefined();
    expect(templateFreeCopy(Object.freeze({ when: Object.freeze(new Date(0)) }))).toBeUndefined();
  });
});

describe("resolveTemplates with frozen parts", () => {
  it("resolves the templates of a frozen value and copies its template-free parts", () => {
    const record: Record<string, string> = {};
    for (let field = 0; field < 50; field += 1) record[`f${field}`] = `value ${field}`;
    const withValue = canonicalSnapshot({ greeting: "hi {{ input.name }}", who: "{{ input.name }}", record }).value;
    const resolved = resolveTemplates(withValue, context) as { greeting: string; who: string; record: Record<string, string> };
    expect(resolved).toEqual({ greeting: "hi Ada", who: "Ada", record });
    expect(resolved.record).not.toBe(record);
    resolved.record.f0 = "changed";
    expect((resolveTemplates(withValue, context) as { record: Record<string, string> }).record.f0).toBe("value 0");
  });

  it("sees a change to a value that is not frozen (nothing is kept for it)", () => {
    const open = { args: { n: 1 } };
    expect(resolveTemplates(open, context)).toEqual({ args: { n: 1 } });
    open.args.n = 2;
    expect(resolveTemplates(open, context)).toEqual({ args: { n: 2 } });
  });
});
