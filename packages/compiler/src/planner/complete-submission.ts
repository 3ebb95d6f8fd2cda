import { sha256DigestOfBytes } from "@little-stack/canonical";
import { LWIR_API_VERSION, LWIR_KIND } from "@little-stack/lwir";

/** What the compiler knows that a planner should not have to retype. */
export type SubmissionDefaults = {
  readonly workflowId: string;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  /** The workflow's tool names: code.run files that name one as `tools.<name>` get it permitted. */
  readonly toolNames: readonly string[];
};

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every step, parallel bodies included. */
function allSteps(steps: unknown): Json[] {
  const list = Array.isArray(steps) ? steps.filter(isRecord) : [];
  return list.flatMap((step) => (step.uses === "parallel" ? [step, ...allSteps(step.steps)] : [step]));
}

/** `{ path: content }` or `{ path: { content } }` → `{ path: { content, sha256 } }`; a given sha256 is kept (and checked later). */
function completeFiles(files: unknown): unknown {
  if (!isRecord(files)) return files;
  let changed = false;
  const entries = Object.entries(files).map(([path, file]) => {
    if (typeof file === "string") {
      changed = true;
      return [path, { content: file, sha256: sha256DigestOfBytes(file) }];
    }
    if (isRecord(file) && typeof file.content === "string" && !Object.hasOwn(file, "sha256")) {
      changed = true;
      return [path, { ...file, sha256: sha256DigestOfBytes(file.content) }];
    }
    return [path, file];
  });
  return changed ? Object.fromEntries(entries) : files;
}

/** The same array when every element came back as it was. */
function keptUnlessChanged(original: readonly unknown[], mapped: unknown[]): unknown[] | readonly unknown[] {
  return mapped.every((item, index) => item === original[index]) ? original : mapped;
}

// A part that needs nothing comes back as the same object, so a complete document (a fixed plan)
// completes to itself: its canonicalSnapshot is then reused instead of walked again each run.
function completeStep(step: Json): Json {
  let completed = step;
  if (step.uses === "code.run" && isRecord(step.with) && Object.hasOwn(step.with, "files")) {
    const files = completeFiles(step.with.files);
    if (files !== step.with.files) completed = { ...completed, with: { ...step.with, files } };
  }
  if (step.uses === "parallel" && Array.isArray(step.steps)) {
    const inner = keptUnlessChanged(step.steps, step.steps.map((item) => (isRecord(item) ? completeStep(item) : item)));
    if (inner !== step.steps) completed = { ...completed, steps: inner };
  }
  return completed;
}

function usedModels(steps: readonly Json[]): string[] {
  const models = new Set<string>();
  for (const step of steps) {
    const withBlock = isRecord(step.with) ? step.with : {};
    if (step.uses === "ai.generate" && typeof withBlock.model === "string") models.add(withBlock.model);
    const fixer = isRecord(step.onFailure) && isRecord(step.onFailure.fixer) ? step.onFailure.fixer : undefined;
    if (typeof fixer?.model === "string") models.add(fixer.model);
  }
  return [...models].sort();
}

function escapeForPattern(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}

function usedTools(steps: readonly Json[], toolNames: readonly string[]): string[] {
  const tools = new Set<string>();
  for (const step of steps) {
    const withBlock = isRecord(step.with) ? step.with : {};
    if (step.uses === "tool.call" && typeof withBlock.tool === "string") tools.add(withBlock.tool);
    if (step.uses !== "code.run" || !isRecord(withBlock.files)) continue;
    const sources = Object.values(withBlock.files).map((file) => (typeof file === "string" ? file : isRecord(file) && typeof file.content === "string" ? file.content : ""));
    for (const name of toolNames) {
      const named = new RegExp(`\\btools\\s*(?:\\.\\s*${escapeForPattern(name)}\\b|\\[\\s*["'\`]${escapeForPattern(name)}["'\`]\\s*\\])`);
      if (sources.some((source) => named.test(source))) tools.add(name);
    }
  }
  return [...tools].sort();
}

/**
 * Fills in what a planner's submission may leave out (issue 13, item 3): `apiVersion`, `kind`,
 * `metadata.name`, `input.schema` / `output.schema` (the definition's), a code file's `sha256`
 * (a file may also be given as its content string), and `permissions.models` / `permissions.tools`
 * (derived from the steps: ai.generate and fixer models; tool.call tools and the workflow tools a
 * code.run file names as `tools.<name>`). What the model did write is kept as written and checked
 * by validation like any document. Pure and deterministic, so a replayed submission completes to
 * the same document; anything that is not an object is returned unchanged.
 */
export function completeSubmission(submitted: unknown, defaults: SubmissionDefaults): unknown {
  if (!isRecord(submitted)) return submitted;
  const steps = Array.isArray(submitted.steps) ? keptUnlessChanged(submitted.steps, submitted.steps.map((step) => (isRecord(step) ? completeStep(step) : step))) : submitted.steps;
  const everyStep = allSteps(steps);
  const metadata = submitted.metadata === undefined ? { name: defaults.workflowId } : isRecord(submitted.metadata) && !Object.hasOwn(submitted.metadata, "name") ? { name: defaults.workflowId, ...submitted.metadata } : submitted.metadata;
  const section = (value: unknown, schema: unknown) => (value === undefined ? { schema } : isRecord(value) && !Object.hasOwn(value, "schema") ? { ...value, schema } : value);
  const permissions = submitted.permissions === undefined ? {} : submitted.permissions;
  const completedPermissions =
    isRecord(permissions) && !(Object.hasOwn(permissions, "models") && Object.hasOwn(permissions, "tools"))
      ? {
          ...permissions,
          ...(Object.hasOwn(permissions, "models") ? {} : { models: usedModels(everyStep) }),
          ...(Object.hasOwn(permissions, "tools") ? {} : { tools: usedTools(everyStep, defaults.toolNames) }),
        }
      : permissions;
  const completed = {
    apiVersion: submitted.apiVersion ?? LWIR_API_VERSION,
    kind: submitted.kind ?? LWIR_KIND,
    metadata,
    input: section(submitted.input, defaults.inputSchema),
    output: section(submitted.output, defaults.outputSchema),
    permissions: completedPermissions,
    ...(steps === undefined ? {} : { steps }),
  };
  const unchanged = (Object.keys(completed) as (keyof typeof completed)[]).every((key) => Object.hasOwn(submitted, key) && submitted[key] === completed[key]);
  return unchanged ? submitted : { ...submitted, ...completed };
}
