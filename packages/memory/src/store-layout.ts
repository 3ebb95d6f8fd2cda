import { isAbsolute, join, resolve } from "node:path";
import { MemoryLayoutError } from "./memory-layout-error.js";
import { checkStoreName } from "./store-name.js";

/** Host paths of the memory stores under one data dir (`<dataDir>/memory/…`). */
export type MemoryStoreLayout = {
  readonly root: string;
  readonly org: string;
  /** `<dataDir>/memory/org/skills`: org-mounted skills, one directory per skill. */
  readonly orgSkills: string;
  workflowStore(workflowId: string): string;
  pipelineStore(pipelineKey: string): string;
};

/** `dataDir` made absolute; refuses empty strings and NUL bytes. */
export function checkDataDir(dataDir: string): string {
  if (typeof dataDir !== "string" || dataDir.length === 0) {
    throw new MemoryLayoutError("dataDir", "expected a non-empty directory path");
  }
  if (dataDir.includes("\0")) throw new MemoryLayoutError("dataDir", "contains a NUL byte");
  return isAbsolute(dataDir) ? resolve(dataDir) : resolve(process.cwd(), dataDir);
}

/** Throws `MemoryLayoutError` when `name` cannot be one directory name. */
export function requireStoreName(field: string, name: string): string {
  const problem = typeof name === "string" ? checkStoreName(name) : "is not a string";
  if (problem !== undefined) throw new MemoryLayoutError(field, `${JSON.stringify(name)} ${problem}`);
  return name;
}

const pipelineKeyPattern = /^[0-9a-f]{64}$/;

export function memoryStoreLayout(dataDir: string): MemoryStoreLayout {
  const root = join(checkDataDir(dataDir), "memory");
  const org = join(root, "org");
  return {
    root,
    org,
    orgSkills: join(org, "skills"),
    workflowStore: (workflowId) => join(root, "workflows", requireStoreName("workflow id", workflowId)),
    pipelineStore: (key) => {
      if (!pipelineKeyPattern.test(key)) {
        throw new MemoryLayoutError("pipeline key", `${JSON.stringify(key)} is not 64 lowercase hex; compute it with pipelineKey()`);
      }
      return join(root, "pipelines", key);
    },
  };
}
