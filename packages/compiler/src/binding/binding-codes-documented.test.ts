import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BINDING_FINDING_CODES } from "./binding-target.js";

// Every finding the pass returns is typed BindingFinding, so its code is in BINDING_FINDING_CODES.
// The planner learns what each finding means from the built-in lwir skill (in the harness, which
// cannot import this package): a binding code added here without its row there fails this test.
const findingsFile = fileURLToPath(new URL("../../../harness/skills/lwir/findings.md", import.meta.url));

describe("binding codes in the planner's reference", () => {
  it("every code in BINDING_FINDING_CODES has a row with what to change in the lwir skill's findings.md", () => {
    const text = readFileSync(findingsFile, "utf8");
    const documented = new Set([...text.matchAll(/^\| `(binding\.[a-z_]+)` \| (.{10,})\|$/gm)].map((match) => match[1]));
    expect(BINDING_FINDING_CODES.filter((code) => !documented.has(code))).toEqual([]);
  });

});
