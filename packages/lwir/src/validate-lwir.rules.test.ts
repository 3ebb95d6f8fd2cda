import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LWIR_FINDING_CODES } from "./findings.js";
import { loadFixture } from "./__fixtures__/load-fixture.js";
import { validateLwir } from "./validate-lwir.js";

// Mutations reach into arbitrary paths of the parsed base document.
// biome-ignore lint: see above.
type Doc = any;

type RuleCase = {
  readonly rule: string;
  readonly mutate: (doc: Doc) => void;
  readonly code: string;
  readonly path: string;
};

const sha = (content: string): string => `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`;
const validFile = (content: string) => ({ content, sha256: sha(content) });
const extraStep = (id: string) => ({
  id,
  uses: "tool.call",
  with: { tool: "search" },
  output: { mode: "text" },
});

/**
 * Each case starts from the valid review-candidates document (steps: 0 research tool.call,
 * 1 score code.run, 2 evaluate parallel [judge], 3 draft, 4 review, 5 decide, 6 publish,
 * 7 finish), breaks exactly one rule, and expects exactly that rule's finding.
 */
const cases: readonly RuleCase[] = [
  // document (§1)
  { rule: "unknown top-level field", mutate: (d) => (d.labels = {}), code: "schema.invalid", path: "$.labels" },
  { rule: "apiVersion", mutate: (d) => (d.apiVersion = "littleworkflow.dev/v1"), code: "schema.invalid", path: "$.apiVersion" },
  { rule: "kind", mutate: (d) => (d.kind = "Pipeline"), code: "schema.invalid", path: "$.kind" },
  { rule: "metadata object", mutate: (d) => delete d.metadata, code: "schema.invalid", path: "$.metadata" },
  { rule: "metadata.name", mutate: (d) => (d.metadata.name = ""), code: "schema.invalid", path: "$.metadata.name" },
  { rule: "metadata.version", mutate: (d) => (d.metadata.version = 1), code: "schema.invalid", path: "$.metadata.version" },
  { rule: "metadata unknown field", mutate: (d) => (d.metadata.owner = "x"), code: "schema.invalid", path: "$.metadata.owner" },
  { rule: "input section", mutate: (d) => delete d.input, code: "schema.invalid", path: "$.input" },
  { rule: "input.schema required", mutate: (d) => delete d.input.schema, code: "schema.invalid", path: "$.input.schema" },
  { rule: "input section unknown field", mutate: (d) => (d.input.example = {}), code: "schema.invalid", path: "$.input.example" },
  { rule: "output.schema required", mutate: (d) => (d.output = {}), code: "schema.invalid", path: "$.output.schema" },
  {
    rule: "input schema subset",
    mutate: (d) => (d.input.schema.properties.topic.pattern = "^a"),
    code: "schema.invalid",
    path: "$.input.schema.properties.topic.pattern",
  },
  {
    rule: "output schema subset",
    mutate: (d) => (d.output.schema.properties.report.format = "email"),
    code: "schema.invalid",
    path: "$.output.schema.properties.report.format",
  },
  { rule: "permissions object", mutate: (d) => (d.permissions.secrets = "all"), code: "schema.invalid", path: "$.permissions.secrets" },
  { rule: "permissions is an object", mutate: (d) => (d.permissions = ["gpt-4o-mini"]), code: "schema.invalid", path: "$.permissions" },
  { rule: "permissions entries", mutate: (d) => d.permissions.models.push(3), code: "schema.invalid", path: "$.permissions.models[1]" },
  { rule: "permissions unknown field", mutate: (d) => (d.permissions.roles = []), code: "schema.invalid", path: "$.permissions.roles" },
  {
    rule: "permissions.secrets not implemented",
    mutate: (d) => (d.permissions.secrets = ["API_KEY"]),
    code: "schema.unimplemented_field",
    path: "$.permissions.secrets",
  },
  {
    rule: "permissions.network not implemented",
    mutate: (d) => (d.permissions.network = ["example.com"]),
    code: "schema.unimplemented_field",
    path: "$.permissions.network",
  },
  { rule: "steps array", mutate: (d) => (d.steps = {}), code: "schema.invalid", path: "$.steps" },
  { rule: "steps non-empty", mutate: (d) => (d.steps = []), code: "schema.invalid", path: "$.steps" },
  {
    rule: "one terminal per list",
    mutate: (d) => d.steps.push(extraStep("audit")),
    code: "terminal.ambiguous",
    path: "$.steps",
  },
  {
    rule: "one terminal per parallel body",
    mutate: (d) => {
      delete d.steps[2].with.fanIn.outputStep;
      d.steps[2].steps.push(extraStep("note"));
    },
    code: "terminal.ambiguous",
    path: "$.steps[2].steps",
  },
  // steps (§2, §7)
  { rule: "step object", mutate: (d) => d.steps.push(42), code: "step.invalid", path: "$.steps[8]" },
  { rule: "unknown step field", mutate: (d) => (d.steps[0].description = "x"), code: "step.invalid", path: "$.steps[0].description" },
  { rule: "steps only on parallel", mutate: (d) => (d.steps[0].steps = []), code: "step.invalid", path: "$.steps[0].steps" },
  { rule: "with required", mutate: (d) => delete d.steps[7].with, code: "step.invalid", path: "$.steps[7].with" },
  { rule: "unknown with field", mutate: (d) => (d.steps[7].with.temperature = 0), code: "step.invalid", path: "$.steps[7].with.temperature" },
  { rule: "ai.generate prompt", mutate: (d) => delete d.steps[7].with.prompt, code: "step.invalid", path: "$.steps[7].with.prompt" },
  { rule: "ai.generate system", mutate: (d) => (d.steps[7].with.system = 1), code: "step.invalid", path: "$.steps[7].with.system" },
  { rule: "onFailure object", mutate: (d) => (d.steps[7].onFailure = "retry"), code: "step.invalid", path: "$.steps[7].onFailure" },
  { rule: "onFailure fields", mutate: (d) => (d.steps[1].onFailure.alert = true), code: "step.invalid", path: "$.steps[1].onFailure.alert" },
  { rule: "id with a dot", mutate: (d) => (d.steps[7].id = "fin.ish"), code: "step.invalid_id", path: "$.steps[7].id" },
  { rule: "id with brackets", mutate: (d) => (d.steps[7].id = "finish[0]"), code: "step.invalid_id", path: "$.steps[7].id" },
  { rule: "id with @attempt_", mutate: (d) => (d.steps[7].id = "finish@attempt_1"), code: "step.invalid_id", path: "$.steps[7].id" },
  { rule: "id empty", mutate: (d) => (d.steps[7].id = ""), code: "step.invalid_id", path: "$.steps[7].id" },
  { rule: "id missing", mutate: (d) => delete d.steps[7].id, code: "step.invalid_id", path: "$.steps[7].id" },
  { rule: "id is the end sentinel", mutate: (d) => (d.steps[7].id = "end"), code: "step.invalid_id", path: "$.steps[7].id" },
  {
    rule: "invalid id of a needed, referenced and routed-to step (no second findings)",
    mutate: (d) => {
      d.steps[6].id = "pub.lish";
      d.steps[5].with.default = "pub.lish";
      d.steps[7].needs = ["pub.lish"];
      d.steps[7].with.prompt = 'Announce the report published at {{ steps["pub.lish"].output.url }}.';
    },
    code: "step.invalid_id",
    path: "$.steps[6].id",
  },
  {
    rule: "invalid id of a parallel body's output step",
    mutate: (d) => {
      d.steps[2].steps[0].id = "judge[0]";
      d.steps[2].with.fanIn.outputStep = "judge[0]";
    },
    code: "step.invalid_id",
    path: "$.steps[2].steps[0].id",
  },
  {
    rule: "id unique in its list",
    mutate: (d) => d.steps.push(structuredClone(d.steps[7])),
    code: "step.duplicate_id",
    path: "$.steps[8].id",
  },
  { rule: "uses", mutate: (d) => (d.steps[7].uses = "ai.chat"), code: "step.invalid_type", path: "$.steps[7].uses" },
  { rule: "needs array", mutate: (d) => (d.steps[0].needs = {}), code: "step.invalid_needs", path: "$.steps[0].needs" },
  {
    rule: "needs array (its references are not second-guessed)",
    mutate: (d) => (d.steps[1].needs = "research"),
    code: "step.invalid_needs",
    path: "$.steps[1].needs",
  },
  {
    rule: "maxVisits on a cycle (the cycle rule does not repeat it)",
    mutate: (d) => (d.steps[4].maxVisits = "3"),
    code: "step.max_visits_out_of_range",
    path: "$.steps[4].maxVisits",
  },
  { rule: "needs entry type", mutate: (d) => (d.steps[0].needs = [3]), code: "step.invalid_needs", path: "$.steps[0].needs[0]" },
  {
    rule: "needs entry twice",
    mutate: (d) => (d.steps[7].needs = ["publish", "publish"]),
    code: "step.invalid_needs",
    path: "$.steps[7].needs[1]",
  },
  {
    rule: "needs itself",
    mutate: (d) => (d.steps[7].needs = ["publish", "finish"]),
    code: "step.invalid_needs",
    path: "$.steps[7].needs[1]",
  },
  {
    rule: "needs names a step of the list",
    mutate: (d) => d.steps[7].needs.push("ghost"),
    code: "step.missing_dependency",
    path: "$.steps[7].needs[1]",
  },
  {
    rule: "body needs: sibling or the parallel's needs",
    mutate: (d) => (d.steps[2].steps[0].needs = ["research"]),
    code: "step.missing_dependency",
    path: "$.steps[2].steps[0].needs[0]",
  },
  {
    rule: "reference to an unknown step",
    mutate: (d) => (d.steps[7].with.prompt = "Announce {{ steps.ghost.output }} at {{ steps.publish.output.url }}"),
    code: "step.missing_dependency",
    path: "$.steps[7].with.prompt",
  },
  {
    rule: "reference needs the step in needs",
    mutate: (d) => (d.steps[7].with.prompt = "{{ steps.publish.output.url }} {{ steps.research.output.hits }}"),
    code: "step.undeclared_dependency",
    path: "$.steps[7].with.prompt",
  },
  {
    rule: "lastOutput without a back-edge still needs needs",
    mutate: (d) => (d.steps[0].with.args.query = "{{ steps.finish.lastOutput }}"),
    code: "step.undeclared_dependency",
    path: "$.steps[0].with.args.query",
  },
  {
    rule: "body reference to an outer step the parallel does not need",
    mutate: (d) => (d.steps[2].steps[0].with.prompt = "Judge {{ item.text }} against {{ steps.research.output.hits }}"),
    code: "step.undeclared_dependency",
    path: "$.steps[2].steps[0].with.prompt",
  },
  { rule: "sensitive", mutate: (d) => (d.steps[6].sensitive = "no"), code: "step.sensitive_must_be_boolean", path: "$.steps[6].sensitive" },
  { rule: "maxVisits 0", mutate: (d) => (d.steps[7].maxVisits = 0), code: "step.max_visits_out_of_range", path: "$.steps[7].maxVisits" },
  { rule: "maxVisits 101", mutate: (d) => (d.steps[7].maxVisits = 101), code: "step.max_visits_out_of_range", path: "$.steps[7].maxVisits" },
  { rule: "maxVisits fraction", mutate: (d) => (d.steps[7].maxVisits = 1.5), code: "step.max_visits_out_of_range", path: "$.steps[7].maxVisits" },
  { rule: "retry object", mutate: (d) => (d.steps[1].retry = 3), code: "step.invalid_retry", path: "$.steps[1].retry" },
  { rule: "retry fields", mutate: (d) => (d.steps[1].retry.jitter = true), code: "step.invalid_retry", path: "$.steps[1].retry.jitter" },
  { rule: "retry.backoff object", mutate: (d) => (d.steps[1].retry.backoff = 100), code: "step.invalid_retry", path: "$.steps[1].retry.backoff" },
  {
    rule: "retry.backoff.initialMs",
    mutate: (d) => (d.steps[1].retry.backoff.initialMs = -1),
    code: "step.invalid_retry",
    path: "$.steps[1].retry.backoff.initialMs",
  },
  { rule: "retry.maxAttempts", mutate: (d) => (d.steps[1].retry.maxAttempts = 11), code: "step.invalid_retry", path: "$.steps[1].retry.maxAttempts" },
  {
    rule: "retry.backoff.factor",
    mutate: (d) => (d.steps[1].retry.backoff.factor = 0.5),
    code: "step.invalid_retry",
    path: "$.steps[1].retry.backoff.factor",
  },
  {
    rule: "retry.backoff.maxMs >= initialMs",
    mutate: (d) => (d.steps[1].retry.backoff.maxMs = 50),
    code: "step.invalid_retry",
    path: "$.steps[1].retry.backoff.maxMs",
  },
  // output modes (§3)
  { rule: "output required", mutate: (d) => delete d.steps[7].output, code: "output.invalid", path: "$.steps[7].output" },
  { rule: "output object", mutate: (d) => (d.steps[7].output = "text"), code: "output.invalid", path: "$.steps[7].output" },
  { rule: "output.mode", mutate: (d) => (d.steps[7].output.mode = "yaml"), code: "output.invalid", path: "$.steps[7].output.mode" },
  {
    rule: "field that does not apply to the mode",
    mutate: (d) => (d.steps[3].output.values = ["a"]),
    code: "output.invalid",
    path: "$.steps[3].output.values",
  },
  {
    rule: "object mode needs an object schema",
    mutate: (d) => (d.steps[7].output.schema = { type: "string" }),
    code: "output.invalid",
    path: "$.steps[7].output.schema.type",
  },
  { rule: "object mode schema", mutate: (d) => delete d.steps[7].output.schema, code: "output.missing_schema", path: "$.steps[7].output.schema" },
  { rule: "array mode schema", mutate: (d) => delete d.steps[2].output.schema, code: "output.missing_schema", path: "$.steps[2].output.schema" },
  {
    rule: "referenced json output needs a schema",
    mutate: (d) => delete d.steps[0].output.schema,
    code: "output.missing_schema",
    path: "$.steps[0].output.schema",
  },
  {
    rule: "step output schema subset",
    mutate: (d) => (d.steps[7].output.schema.properties.report.default = "none"),
    code: "schema.invalid",
    path: "$.steps[7].output.schema.properties.report.default",
  },
  {
    rule: "choice values required",
    mutate: (d) => delete d.steps[2].steps[0].output.values,
    code: "output.missing_values",
    path: "$.steps[2].steps[0].output.values",
  },
  {
    rule: "choice values non-empty",
    mutate: (d) => (d.steps[2].steps[0].output.values = []),
    code: "output.invalid_values",
    path: "$.steps[2].steps[0].output.values",
  },
  {
    rule: "choice values unique strings",
    mutate: (d) => (d.steps[2].steps[0].output.values = ["keep", "keep"]),
    code: "output.invalid_values",
    path: "$.steps[2].steps[0].output.values[1]",
  },
  { rule: "output.name", mutate: (d) => (d.steps[4].output.name = 3), code: "output.invalid_metadata", path: "$.steps[4].output.name" },
  {
    rule: "output.description",
    mutate: (d) => (d.steps[4].output.description = null),
    code: "output.invalid_metadata",
    path: "$.steps[4].output.description",
  },
  {
    rule: "parallel output mode is array",
    mutate: (d) => (d.steps[2].output = { mode: "json", schema: { type: "array" } }),
    code: "output.invalid_for_step",
    path: "$.steps[2].output.mode",
  },
  {
    rule: "parallel output describes the fan-in envelope",
    mutate: (d) => (d.steps[2].output.schema.items.required = ["itemKey", "status"]),
    code: "output.invalid_for_step",
    path: "$.steps[2].output.schema.items",
  },
  // decision (§2)
  {
    rule: "decision default",
    mutate: (d) => {
      d.steps[5].with.cases.push({ when: "{{ steps.review.lastOutput.approved }}", to: "publish" });
      delete d.steps[5].with.default;
    },
    code: "decision.default_required",
    path: "$.steps[5].with.default",
  },
  {
    rule: "decision cases array",
    mutate: (d) => d.steps[2].steps.push({ id: "gate", uses: "decision", needs: ["judge"], with: { cases: {}, default: "end" } }),
    code: "decision.case_invalid",
    path: "$.steps[2].steps[1].with.cases",
  },
  {
    rule: "decision case when is one template",
    mutate: (d) => (d.steps[5].with.cases[0].when = "approved is {{ steps.review.lastOutput.approved }}"),
    code: "decision.case_invalid",
    path: "$.steps[5].with.cases[0].when",
  },
  {
    rule: "decision case fields",
    mutate: (d) => (d.steps[5].with.cases[0].label = "retry"),
    code: "decision.case_invalid",
    path: "$.steps[5].with.cases[0].label",
  },
  {
    rule: "decision case to is a string",
    mutate: (d) => d.steps[5].with.cases.push({ when: "{{ steps.review.lastOutput.approved }}", to: 7 }),
    code: "decision.case_invalid",
    path: "$.steps[5].with.cases[1].to",
  },
  {
    rule: "decision case object",
    mutate: (d) => d.steps[5].with.cases.push("draft"),
    code: "decision.case_invalid",
    path: "$.steps[5].with.cases[1]",
  },
  {
    rule: "decision case target in scope",
    mutate: (d) => d.steps[5].with.cases.push({ when: "{{ steps.review.lastOutput.notes == '' }}", to: "ghost" }),
    code: "decision.target_not_in_scope",
    path: "$.steps[5].with.cases[1].to",
  },
  {
    rule: "decision default in scope",
    mutate: (d) => {
      d.steps[5].with.cases.push({ when: "{{ steps.review.lastOutput.approved }}", to: "publish" });
      d.steps[5].with.default = "ghost";
    },
    code: "decision.target_not_in_scope",
    path: "$.steps[5].with.default",
  },
  {
    rule: "decision in a body routes within the body",
    mutate: (d) => d.steps[2].steps.push({ id: "gate", uses: "decision", needs: ["judge"], with: { cases: [], default: "finish" } }),
    code: "decision.target_not_in_scope",
    path: "$.steps[2].steps[1].with.default",
  },
  {
    rule: "decision has no output",
    mutate: (d) => (d.steps[5].output = { mode: "text" }),
    code: "decision.output_not_allowed",
    path: "$.steps[5].output",
  },
  // expressions (§6)
  {
    rule: "unbalanced braces",
    mutate: (d) => (d.steps[7].with.prompt = "Announce {{ steps.publish.output.url }} {{ input.topic"),
    code: "expression.invalid",
    path: "$.steps[7].with.prompt",
  },
  {
    rule: "item outside a parallel body",
    mutate: (d) => (d.steps[0].with.args.query = "{{ item.id }}"),
    code: "expression.invalid",
    path: "$.steps[0].with.args.query",
  },
  {
    rule: "forbidden syntax in step input",
    mutate: (d) => (d.steps[1].input.extra = "{{ input.topic; input.topic }}"),
    code: "expression.invalid",
    path: "$.steps[1].input.extra",
  },
  {
    rule: "reading below a back-edge read needs coalesce",
    mutate: (d) => (d.steps[3].with.prompt = "Notes so far: {{ steps.review.lastOutput.notes }}"),
    code: "expression.unguarded_back_edge_read",
    path: "$.steps[3].with.prompt",
  },
  {
    rule: "a path no value of the schema has",
    mutate: (d) => (d.steps[4].with.prompt = "Review draft number {{ steps.draft.allVisits.length }}."),
    code: "expression.invalid_path",
    path: "$.steps[4].with.prompt",
  },
  // models and tools (§2)
  { rule: "ai.generate model", mutate: (d) => delete d.steps[7].with.model, code: "model.missing", path: "$.steps[7].with.model" },
  { rule: "model allowlist", mutate: (d) => (d.steps[7].with.model = "gpt-5"), code: "model.disallowed", path: "$.steps[7].with.model" },
  {
    rule: "model allowlist in a body",
    mutate: (d) => (d.steps[2].steps[0].with.model = "gpt-5"),
    code: "model.disallowed",
    path: "$.steps[2].steps[0].with.model",
  },
  { rule: "tool.call tool", mutate: (d) => delete d.steps[6].with.tool, code: "tool.missing", path: "$.steps[6].with.tool" },
  { rule: "tool.call with object", mutate: (d) => (d.steps[6].with = "publish"), code: "step.invalid", path: "$.steps[6].with" },
  { rule: "tool allowlist", mutate: (d) => (d.steps[6].with.tool = "delete-all"), code: "tool.disallowed", path: "$.steps[6].with.tool" },
  // code.run (§2)
  { rule: "code.run with object", mutate: (d) => (d.steps[1].with = []), code: "code.invalid_config", path: "$.steps[1].with" },
  {
    rule: "code.run with fields",
    mutate: (d) => (d.steps[1].with.timeoutMs = 1000),
    code: "code.invalid_config",
    path: "$.steps[1].with.timeoutMs",
  },
  {
    rule: "entrypoint required",
    mutate: (d) => delete d.steps[1].with.entrypoint,
    code: "code.missing_entrypoint",
    path: "$.steps[1].with.entrypoint",
  },
  {
    rule: "entrypoint relative",
    mutate: (d) => (d.steps[1].with.entrypoint = "/score.ts"),
    code: "code.invalid_entrypoint",
    path: "$.steps[1].with.entrypoint",
  },
  {
    rule: "entrypoint without ..",
    mutate: (d) => (d.steps[1].with.entrypoint = "lib/../score.ts"),
    code: "code.invalid_entrypoint",
    path: "$.steps[1].with.entrypoint",
  },
  {
    rule: "entrypoint .ts or .js",
    mutate: (d) => {
      d.steps[1].with.files["score.py"] = validFile("print(1)");
      d.steps[1].with.entrypoint = "score.py";
    },
    code: "code.invalid_entrypoint",
    path: "$.steps[1].with.entrypoint",
  },
  {
    rule: "entrypoint is a file",
    mutate: (d) => (d.steps[1].with.entrypoint = "main.ts"),
    code: "code.invalid_entrypoint",
    path: "$.steps[1].with.entrypoint",
  },
  { rule: "files required", mutate: (d) => delete d.steps[1].with.files, code: "code.missing_files", path: "$.steps[1].with.files" },
  { rule: "files non-empty", mutate: (d) => (d.steps[1].with.files = {}), code: "code.missing_files", path: "$.steps[1].with.files" },
  {
    rule: "file path without ..",
    mutate: (d) => (d.steps[1].with.files["../evil.js"] = validFile("export const x = 1;")),
    code: "code.invalid_file_path",
    path: '$.steps[1].with.files["../evil.js"]',
  },
  {
    rule: "file path without backslash",
    mutate: (d) => (d.steps[1].with.files["lib\\util.js"] = validFile("export const x = 1;")),
    code: "code.invalid_file_path",
    path: '$.steps[1].with.files["lib\\\\util.js"]',
  },
  {
    rule: "file path without empty segment",
    mutate: (d) => (d.steps[1].with.files["lib//util.js"] = validFile("export const x = 1;")),
    code: "code.invalid_file_path",
    path: '$.steps[1].with.files["lib//util.js"]',
  },
  {
    rule: "file object",
    mutate: (d) => (d.steps[1].with.files["data.json"] = "{}"),
    code: "code.invalid_file",
    path: '$.steps[1].with.files["data.json"]',
  },
  {
    rule: "file content string",
    mutate: (d) => (d.steps[1].with.files["score.ts"].content = 5),
    code: "code.invalid_file",
    path: '$.steps[1].with.files["score.ts"].content',
  },
  {
    rule: "file fields",
    mutate: (d) => (d.steps[1].with.files["score.ts"].mode = "0644"),
    code: "code.invalid_file",
    path: '$.steps[1].with.files["score.ts"].mode',
  },
  {
    rule: "file hash matches content",
    mutate: (d) => (d.steps[1].with.files["score.ts"].content += "\n"),
    code: "code.invalid_file_hash",
    path: '$.steps[1].with.files["score.ts"].sha256',
  },
  {
    rule: "file hash format",
    mutate: (d) => (d.steps[1].with.files["score.ts"].sha256 = "md5:abc"),
    code: "code.invalid_file_hash",
    path: '$.steps[1].with.files["score.ts"].sha256',
  },
  { rule: "sandbox required", mutate: (d) => delete d.steps[1].with.sandbox, code: "code.missing_sandbox", path: "$.steps[1].with.sandbox" },
  { rule: "sandbox object", mutate: (d) => (d.steps[1].with.sandbox = "deny"), code: "code.invalid_sandbox", path: "$.steps[1].with.sandbox" },
  {
    rule: "sandbox network deny",
    mutate: (d) => (d.steps[1].with.sandbox.network = "allow"),
    code: "code.invalid_sandbox",
    path: "$.steps[1].with.sandbox.network",
  },
  {
    rule: "sandbox network required",
    mutate: (d) => delete d.steps[1].with.sandbox.network,
    code: "code.invalid_sandbox",
    path: "$.steps[1].with.sandbox.network",
  },
  {
    rule: "sandbox env deny",
    mutate: (d) => (d.steps[1].with.sandbox.env = true),
    code: "code.invalid_sandbox",
    path: "$.steps[1].with.sandbox.env",
  },
  {
    rule: "sandbox fields",
    mutate: (d) => (d.steps[1].with.sandbox.cpu = "deny"),
    code: "code.invalid_sandbox",
    path: "$.steps[1].with.sandbox.cpu",
  },
  // fixer (§2)
  {
    rule: "fixer only on code.run",
    mutate: (d) => (d.steps[7].onFailure = { fixer: structuredClone(d.steps[1].onFailure.fixer) }),
    code: "fixer.unsupported_step",
    path: "$.steps[7].onFailure.fixer",
  },
  { rule: "fixer object", mutate: (d) => (d.steps[1].onFailure.fixer = true), code: "fixer.invalid_config", path: "$.steps[1].onFailure.fixer" },
  {
    rule: "fixer fields",
    mutate: (d) => (d.steps[1].onFailure.fixer.temperature = 0),
    code: "fixer.invalid_config",
    path: "$.steps[1].onFailure.fixer.temperature",
  },
  {
    rule: "fixer model",
    mutate: (d) => delete d.steps[1].onFailure.fixer.model,
    code: "fixer.model.missing",
    path: "$.steps[1].onFailure.fixer.model",
  },
  {
    rule: "fixer model allowlist",
    mutate: (d) => (d.steps[1].onFailure.fixer.model = "gpt-5"),
    code: "fixer.model.disallowed",
    path: "$.steps[1].onFailure.fixer.model",
  },
  {
    rule: "fixer maxAttempts >= 1",
    mutate: (d) => (d.steps[1].onFailure.fixer.maxAttempts = 0),
    code: "fixer.max_attempts_invalid",
    path: "$.steps[1].onFailure.fixer.maxAttempts",
  },
  {
    rule: "fixer maxAttempts integer",
    mutate: (d) => (d.steps[1].onFailure.fixer.maxAttempts = 2.5),
    code: "fixer.max_attempts_invalid",
    path: "$.steps[1].onFailure.fixer.maxAttempts",
  },
  {
    rule: "fixer system",
    mutate: (d) => (d.steps[1].onFailure.fixer.system = "   "),
    code: "fixer.system_missing",
    path: "$.steps[1].onFailure.fixer.system",
  },
  // parallel (§2)
  {
    rule: "no nested parallel",
    mutate: (d) => {
      const inner = structuredClone(d.steps[2]);
      inner.id = "inner";
      inner.needs = [];
      d.steps[2].steps.push(inner);
    },
    code: "parallel.nested_unsupported",
    path: "$.steps[2].steps[1].uses",
  },
  { rule: "parallel with object", mutate: (d) => (d.steps[2].with = 5), code: "parallel.invalid", path: "$.steps[2].with" },
  { rule: "parallel with fields", mutate: (d) => (d.steps[2].with.timeoutMs = 5), code: "parallel.invalid", path: "$.steps[2].with.timeoutMs" },
  {
    rule: "items is one template",
    mutate: (d) => (d.steps[2].with.items = "input.candidates"),
    code: "parallel.invalid_items",
    path: "$.steps[2].with.items",
  },
  { rule: "itemKey is one template", mutate: (d) => delete d.steps[2].with.itemKey, code: "parallel.invalid_item_key", path: "$.steps[2].with.itemKey" },
  {
    rule: "itemKey is computed from item",
    mutate: (d) => (d.steps[2].with.itemKey = "{{ input.topic }}"),
    code: "parallel.invalid_item_key",
    path: "$.steps[2].with.itemKey",
  },
  {
    rule: "a whole template that does not parse is an expression finding, not a shape finding",
    mutate: (d) => (d.steps[2].with.items = "{{ input.candidates ; }}"),
    code: "expression.invalid",
    path: "$.steps[2].with.items",
  },
  {
    rule: "cardinality matches_items",
    mutate: (d) => (d.steps[2].with.cardinality = { kind: "fixed", count: 3 }),
    code: "parallel.invalid_cardinality",
    path: "$.steps[2].with.cardinality",
  },
  { rule: "maxBranches 1..100", mutate: (d) => (d.steps[2].with.maxBranches = 101), code: "parallel.invalid_branches", path: "$.steps[2].with.maxBranches" },
  { rule: "maxBranches >= 1", mutate: (d) => (d.steps[2].with.maxBranches = 0), code: "parallel.invalid_branches", path: "$.steps[2].with.maxBranches" },
  {
    rule: "maxConcurrency >= 1",
    mutate: (d) => (d.steps[2].with.maxConcurrency = 0),
    code: "parallel.invalid_concurrency",
    path: "$.steps[2].with.maxConcurrency",
  },
  {
    rule: "maxConcurrency <= maxBranches",
    mutate: (d) => (d.steps[2].with.maxConcurrency = 11),
    code: "parallel.invalid_concurrency",
    path: "$.steps[2].with.maxConcurrency",
  },
  {
    rule: "failureMode",
    mutate: (d) => (d.steps[2].with.failureMode = "ignore"),
    code: "parallel.invalid_failure_mode",
    path: "$.steps[2].with.failureMode",
  },
  { rule: "fanIn object", mutate: (d) => delete d.steps[2].with.fanIn, code: "parallel.invalid_fan_in", path: "$.steps[2].with.fanIn" },
  {
    rule: "fanIn.order",
    mutate: (d) => (d.steps[2].with.fanIn.order = "random"),
    code: "parallel.invalid_fan_in",
    path: "$.steps[2].with.fanIn.order",
  },
  {
    rule: "fanIn.output",
    mutate: (d) => (d.steps[2].with.fanIn.output = "object"),
    code: "parallel.invalid_fan_in",
    path: "$.steps[2].with.fanIn.output",
  },
  {
    rule: "fanIn fields",
    mutate: (d) => (d.steps[2].with.fanIn.dedupe = true),
    code: "parallel.invalid_fan_in",
    path: "$.steps[2].with.fanIn.dedupe",
  },
  {
    rule: "fanIn.outputStep names a body step",
    mutate: (d) => (d.steps[2].with.fanIn.outputStep = "finish"),
    code: "parallel.fan_in_output_step_invalid",
    path: "$.steps[2].with.fanIn.outputStep",
  },
  {
    rule: "fanIn.outputStep is not a decision",
    mutate: (d) => {
      d.steps[2].steps.push({ id: "gate", uses: "decision", needs: ["judge"], with: { cases: [], default: "end" } });
      d.steps[2].with.fanIn.outputStep = "gate";
    },
    code: "parallel.fan_in_output_step_invalid",
    path: "$.steps[2].with.fanIn.outputStep",
  },
  { rule: "parallel body non-empty", mutate: (d) => (d.steps[2].steps = []), code: "parallel.missing_steps", path: "$.steps[2].steps" },
  { rule: "parallel body required", mutate: (d) => delete d.steps[2].steps, code: "parallel.missing_steps", path: "$.steps[2].steps" },
  // graph (§4)
  {
    rule: "steps.X.output on a multi-visit step",
    mutate: (d) => (d.steps[4].with.prompt = "Review this report: {{ steps.draft.output }}"),
    code: "lwir.output_ambiguous_for_multi_visit",
    path: "$.steps[4].with.prompt",
  },
  {
    rule: "every step on a cycle has maxVisits >= 2",
    mutate: (d) => delete d.steps[4].maxVisits,
    code: "lwir.invalid_cycle",
    path: "$.steps[3]",
  },
  {
    rule: "a cycle passes through a decision",
    mutate: (d) => {
      d.steps.push({ ...extraStep("ping"), needs: ["pong"], maxVisits: 2 });
      d.steps.push({ ...extraStep("pong"), needs: ["ping"], maxVisits: 2 });
    },
    code: "lwir.invalid_cycle",
    path: "$.steps[8]",
  },
  {
    rule: "needing a forward decision target that has needs",
    mutate: (d) => (d.steps[6].needs = ["review"]),
    code: "lwir.decision_target_referenced_by_needs",
    path: "$.steps[7].needs[0]",
  },
];

const pick = (findings: readonly { code: string; path: string }[]) => findings.map(({ code, path }) => ({ code, path }));

describe("validateLwir: one broken rule, one finding", () => {
  it.each(cases.map((ruleCase) => [ruleCase.rule, ruleCase] as const))("%s", (_rule, ruleCase) => {
    const doc = loadFixture("review-candidates");
    ruleCase.mutate(doc);
    const result = validateLwir(doc);
    expect(pick(result.findings)).toEqual([{ code: ruleCase.code, path: ruleCase.path }]);
    expect(result.valid).toBe(false);
    for (const finding of result.findings) {
      expect(finding.severity).toBe("error");
      expect(finding.message.length).toBeGreaterThan(10);
    }
  });

  it("covers every pinned code except those that need a non-object or non-JSON document", () => {
    const covered = new Set(cases.map((ruleCase) => ruleCase.code));
    const elsewhere = new Set(["lwir.non_hashable", "lwir.internal_error"]);
    expect(LWIR_FINDING_CODES.filter((code) => !covered.has(code) && !elsewhere.has(code))).toEqual([]);
  });

  it("reports every broken rule of a document in one pass", () => {
    const doc = loadFixture("review-candidates");
    const chosen = [
      "apiVersion",
      "permissions.secrets not implemented",
      "id with a dot",
      "sensitive",
      "maxVisits 0",
      "output.mode",
      "decision default in scope",
      "model allowlist in a body",
      "file hash matches content",
      "fixer system",
      "failureMode",
      "steps.X.output on a multi-visit step",
    ];
    const selected = chosen.map((rule) => cases.find((ruleCase) => ruleCase.rule === rule) as RuleCase);
    for (const ruleCase of selected) ruleCase.mutate(doc);
    const result = validateLwir(doc);
    expect(result.valid).toBe(false);
    const expected = selected.map(({ code, path }) => ({ code, path }));
    // "id with a dot" and "maxVisits 0" both hit steps[7]: their paths differ, so both stay.
    expect(pick(result.findings)).toEqual(expect.arrayContaining(expected));
    expect(result.findings).toHaveLength(expected.length);
  });
});
