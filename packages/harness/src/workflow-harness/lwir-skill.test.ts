import { join } from "node:path";
import { LWIR_FIELDS, LWIR_FINDING_CODES, validateLwir, type LwirFieldLocation } from "@little-stack/lwir";
import { parseSkillFrontmatter } from "@little-stack/skills";
import { describe, expect, it } from "vitest";
import {
  allExampleSteps,
  skillDirectory,
  skillExamples as examples,
  skillFiles,
  skillText as textOf,
  validExampleDocuments as validDocuments,
  type ExampleDocument as Doc,
  type ExampleStep as Step,
} from "./__fixtures__/lwir-skill-examples.js";

const topicFiles = skillFiles.filter((file) => file !== "SKILL.md");

/**
 * Binding findings come from the compiler's binding pass (lwir.md §8, plus the two the issue-13
 * design note adds). The compiler does not export a list yet; until it does, this is the list.
 */
const bindingCodes = [
  "binding.workflow_name_mismatch",
  "binding.input_schema_mismatch",
  "binding.output_schema_mismatch",
  "binding.model_disallowed",
  "binding.tool_disallowed",
  "binding.secret_disallowed",
  "binding.network_disallowed",
  "binding.terminal_output_mismatch",
  "binding.tool_args_mismatch",
  "binding.tool_output_mismatch",
  "binding.fan_in_output_mismatch",
  "binding.unguarded_optional_read",
];

/**
 * Validator codes the issue-13 design note defines that `validateLwir` does not emit yet. The
 * skill documents them already; once a code is in LWIR_FINDING_CODES, its examples must produce it.
 */
const pendingValidatorCodes = ["expression.unguarded_back_edge_read", "expression.invalid_path"];

/** What `submit_workflow` itself reports (plan-task.ts). */
const submissionCodes = ["plan.lwir_not_json", "plan.revisions_exhausted"];

const allSteps = allExampleSteps;

function codeOf(step: Step): string {
  const files = (step.with?.files ?? {}) as Record<string, { content: string }>;
  return Object.values(files).map((file) => file.content).join("\n");
}

describe("the lwir skill's examples", () => {
  it("has complete examples, valid and deliberately wrong ones", () => {
    expect(validDocuments.length).toBeGreaterThanOrEqual(8);
    expect(examples.length - validDocuments.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((example) => [example.where, example] as const))("%s validates as its tag says", (_where, example) => {
    const result = validateLwir(example.document);
    const found = result.findings.map((finding) => `${finding.code} at ${finding.path}: ${finding.message}`);
    if (example.expected.kind === "valid") {
      expect(found).toEqual([]);
      return;
    }
    const { code } = example.expected;
    if ((LWIR_FINDING_CODES as readonly string[]).includes(code)) {
      // Exactly the one mistake the text around the example explains.
      expect(result.findings.map((finding) => finding.code)).toEqual([code]);
    } else {
      // A code the validator does not emit yet: the example must have no other problem.
      expect(pendingValidatorCodes).toContain(code);
      expect(found).toEqual([]);
    }
  });

  it("covers every step type and every pattern the planner needs", () => {
    const steps = validDocuments.flatMap((document) => allSteps(document.steps));
    for (const type of ["ai.generate", "tool.call", "code.run", "decision", "parallel"]) {
      expect(steps.some((step) => step.uses === type), type).toBe(true);
    }
    const patterns: Record<string, (document: Doc) => boolean> = {
      "fan-out with a tool per item": (document) =>
        document.steps.some((step) => step.uses === "parallel" && (step.steps ?? []).some((body) => body.uses === "tool.call")),
      "review loop with a back-edge": (document) =>
        document.steps.some((step, index) =>
          step.uses === "decision" &&
          ((step.with?.cases ?? []) as { to: string }[]).some((entry) => document.steps.findIndex((other) => other.id === entry.to) < index),
        ),
      "code with tool calls": (document) =>
        allSteps(document.steps).some((step) => step.uses === "code.run" && (document.permissions?.tools ?? []).some((tool) => codeOf(step).includes(`tools.${tool}(`))),
      "a code step with a fixer": (document) => allSteps(document.steps).some((step) => step.uses === "code.run" && step.onFailure !== undefined),
      "decision routing": (document) =>
        document.steps.some((step) => step.uses === "decision" && ((step.with?.cases ?? []) as unknown[]).length >= 2),
      "choice output": (document) => allSteps(document.steps).some((step) => step.output?.mode === "choice"),
    };
    for (const [pattern, matches] of Object.entries(patterns)) {
      expect(validDocuments.some(matches), pattern).toBe(true);
    }
  });
});

describe("the lwir skill's coverage of the validator", () => {
  const findingsText = textOf("findings.md");
  const rowCodes = [...findingsText.matchAll(/^\| `([a-z_.]+)` \| (.*) \|$/gm)].map((match) => ({ code: match[1]!, advice: match[2]!.trim() }));

  it("explains every finding code in findings.md, with what to change", () => {
    const documented = new Map(rowCodes.map((row) => [row.code, row.advice]));
    const required = [...LWIR_FINDING_CODES, ...bindingCodes, ...pendingValidatorCodes, ...submissionCodes];
    const missing = required.filter((code) => (documented.get(code) ?? "").length < 10);
    expect(missing, "codes without a row `| `code` | what to change |` in findings.md").toEqual([]);
  });

  it("documents no finding code that does not exist", () => {
    const known = new Set<string>([...LWIR_FINDING_CODES, ...bindingCodes, ...pendingValidatorCodes, ...submissionCodes]);
    expect(rowCodes.map((row) => row.code).filter((code) => !known.has(code))).toEqual([]);
    expect(new Set(rowCodes.map((row) => row.code)).size).toBe(rowCodes.length);
  });

  // Where each group of fields is taught; a new location in LWIR_FIELDS must be placed here.
  const fieldHomes: Record<LwirFieldLocation, string> = {
    document: "document.md",
    metadata: "document.md",
    schemaSection: "document.md",
    permissions: "document.md",
    step: "steps.md",
    retry: "retry-and-fixer.md",
    retryBackoff: "retry-and-fixer.md",
    onFailure: "retry-and-fixer.md",
    fixer: "retry-and-fixer.md",
    aiGenerateWith: "ai-generate.md",
    toolCallWith: "tool-call.md",
    decisionWith: "decisions-and-loops.md",
    decisionCase: "decisions-and-loops.md",
    codeRunWith: "code-run.md",
    codeRunFile: "code-run.md",
    codeRunSandbox: "code-run.md",
    parallelWith: "parallel.md",
    parallelFanIn: "parallel.md",
    outputText: "outputs-and-schemas.md",
    outputObject: "outputs-and-schemas.md",
    outputArray: "outputs-and-schemas.md",
    outputChoice: "outputs-and-schemas.md",
    outputJson: "outputs-and-schemas.md",
  };

  it("documents every LWIR field in the topic file of its location", () => {
    const missing: string[] = [];
    for (const [location, fields] of Object.entries(LWIR_FIELDS) as [LwirFieldLocation, readonly string[]][]) {
      const home = fieldHomes[location];
      if (home === undefined) {
        missing.push(`${location}: no topic file (add it to fieldHomes)`);
        continue;
      }
      const text = textOf(home);
      for (const field of fields) {
        if (!text.includes(`\`${field}\``) && !text.includes(`"${field}"`)) missing.push(`${location}.${field} in ${home}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("the lwir skill's entry point", () => {
  const skill = textOf("SKILL.md");

  it("is a skill named lwir with a description of when to read it", () => {
    const frontmatter = parseSkillFrontmatter(join(skillDirectory, "SKILL.md"), skill);
    expect(frontmatter.name).toBe("lwir");
    expect(frontmatter.description).toMatch(/Read it before you write or fix a plan/);
  });

  it("indexes exactly the topic files that exist", () => {
    const indexed = [...skill.matchAll(/^\| ([a-z-]+\.md) \|/gm)].map((match) => match[1]);
    expect([...indexed].sort()).toEqual(topicFiles);
    expect(skillFiles.every((file) => file.endsWith(".md"))).toBe(true);
  });

  it("stays small: the essentials and the index, examples live in the topic files", () => {
    expect(skill.length).toBeLessThan(4_500);
    expect(skill).not.toContain("```json");
  });
});
