import { describe, expect, it } from "vitest";
import { formatFindingsJson, formatFindingsText } from "./format-findings.js";

const findings = [
  { severity: "error", code: "model.disallowed", path: "$.steps[0].with.model", message: 'Model "gpt-5" is not in permissions.models.' },
  { severity: "error", code: "terminal.ambiguous", path: "$.steps", message: "Two terminal steps:\nsummarize and classify." },
];

describe("formatFindingsText", () => {
  it("prints `path  code  message` per finding and a summary naming the input", () => {
    expect(formatFindingsText({ displayName: "plan.json", findings })).toBe(
      [
        '$.steps[0].with.model  model.disallowed  Model "gpt-5" is not in permissions.models.',
        "$.steps  terminal.ambiguous  Two terminal steps: summarize and classify.",
        "plan.json: invalid LWIR (2 findings)",
        "",
      ].join("\n"),
    );
  });

  it("says valid, and uses the singular for one finding", () => {
    expect(formatFindingsText({ displayName: "a.json", findings: [] })).toBe("a.json: valid LWIR (0 findings)\n");
    expect(formatFindingsText({ displayName: "a.json", findings: findings.slice(0, 1) }).endsWith("a.json: invalid LWIR (1 finding)\n")).toBe(true);
  });
});

describe("formatFindingsJson", () => {
  it("prints exactly { valid, findings } with the four finding fields", () => {
    const extra = [{ ...findings[0]!, internal: true }];
    expect(JSON.parse(formatFindingsJson({ valid: false, findings: extra }))).toEqual({ valid: false, findings: [findings[0]] });
  });
});
