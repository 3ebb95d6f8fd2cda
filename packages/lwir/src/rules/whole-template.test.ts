import { describe, expect, it } from "vitest";
import { isWholeTemplate } from "./whole-template.js";

describe("isWholeTemplate", () => {
  it.each(["{{ input.items }}", "{{item.id}}", "{{ steps.a.output === 'x' }}"])("accepts %s", (text) => {
    expect(isWholeTemplate(text)).toBe(true);
  });
  it.each([
    "input.items",
    " {{ input.items }}",
    "{{ input.items }} ",
    "x {{ input.items }}",
    "{{ a }}{{ b }}",
    "{{ }}",
    "{{",
    "",
    5,
    null,
  ])("rejects %j", (text) => {
    expect(isWholeTemplate(text)).toBe(false);
  });
});
