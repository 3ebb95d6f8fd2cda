import { MemoryConfigError } from "./memory-config-error.js";
import { checkStoreName } from "./store-name.js";

/** Access a workflow grants to a memory store: read-write, read-only, or not mounted. */
export type MemoryStoreAccess = "rw" | "ro" | "none";

/**
 * The `memory` option of a workflow definition.
 *
 * - `workflow`: this workflow's own store, as the planner and fixer see it (default `"rw"`;
 *   workers always get at most `"ro"`).
 * - `org`: the organization store, as the planner and fixer see it (default `"ro"`; workers always
 *   get at most `"ro"`).
 * - `attach`: ids of other workflows whose stores are mounted read-only at
 *   `/mnt/memory/peer-workflows/<id>/`.
 */
export type MemoryConfig = {
  readonly workflow?: MemoryStoreAccess;
  readonly org?: MemoryStoreAccess;
  readonly attach?: readonly string[];
};

/** A validated `MemoryConfig` with every default filled in. */
export type ResolvedMemoryConfig = {
  readonly workflow: MemoryStoreAccess;
  readonly org: MemoryStoreAccess;
  readonly attach: readonly string[];
};

export const defaultMemoryConfig: ResolvedMemoryConfig = Object.freeze({
  workflow: "rw",
  org: "ro",
  attach: Object.freeze([]) as readonly string[],
});

const accessValues: readonly MemoryStoreAccess[] = ["rw", "ro", "none"];
const knownKeys = new Set(["workflow", "org", "attach"]);

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function checkAccess(value: unknown, path: string, fallback: MemoryStoreAccess): MemoryStoreAccess {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (accessValues as readonly string[]).includes(value)) {
    return value as MemoryStoreAccess;
  }
  throw new MemoryConfigError(path, `expected "rw", "ro" or "none", got ${describe(value)}`);
}

/**
 * Validates a workflow's `memory` option (`undefined` means all defaults) and fills in defaults.
 * `ownWorkflowId`, when given, refuses attaching the workflow's own store. Throws
 * `MemoryConfigError` naming the field.
 */
export function resolveMemoryConfig(
  value: unknown,
  options: { readonly ownWorkflowId?: string; readonly path?: string } = {},
): ResolvedMemoryConfig {
  const root = options.path ?? "memory";
  if (value === undefined) return defaultMemoryConfig;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MemoryConfigError(root, `expected an object, got ${describe(value)}`);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!knownKeys.has(key)) {
      throw new MemoryConfigError(`${root}.${key}`, `unknown field (known fields: workflow, org, attach)`);
    }
  }
  const workflow = checkAccess(record.workflow, `${root}.workflow`, defaultMemoryConfig.workflow);
  const org = checkAccess(record.org, `${root}.org`, defaultMemoryConfig.org);
  const attachValue = record.attach;
  const attach: string[] = [];
  if (attachValue !== undefined) {
    if (!Array.isArray(attachValue)) {
      throw new MemoryConfigError(`${root}.attach`, `expected an array of workflow ids, got ${describe(attachValue)}`);
    }
    attachValue.forEach((entry: unknown, index) => {
      const path = `${root}.attach[${index}]`;
      if (typeof entry !== "string") {
        throw new MemoryConfigError(path, `expected a workflow id string, got ${describe(entry)}`);
      }
      const problem = checkStoreName(entry);
      if (problem !== undefined) throw new MemoryConfigError(path, `workflow id ${JSON.stringify(entry)} ${problem}`);
      if (entry === options.ownWorkflowId) {
        throw new MemoryConfigError(path, `a workflow cannot attach its own store (${JSON.stringify(entry)}); it is already at /mnt/memory/workflow`);
      }
      if (attach.includes(entry)) {
        throw new MemoryConfigError(path, `workflow id ${JSON.stringify(entry)} is attached twice`);
      }
      attach.push(entry);
    });
  }
  return Object.freeze({ workflow, org, attach: Object.freeze(attach.sort()) });
}
