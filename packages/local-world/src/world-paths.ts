import { join, resolve } from "node:path";
import type { WorldPaths } from "./world.js";

/** The data-dir roots shared by every world (see the layout in the README). */
export function worldPaths(dataDir: string): WorldPaths {
  const root = resolve(dataDir);
  const memory = join(root, "memory");
  return {
    dataDir: root,
    memory,
    memoryWorkflows: join(memory, "workflows"),
    memoryPipelines: join(memory, "pipelines"),
    memoryOrg: join(memory, "org"),
    runs: join(root, "runs"),
    skillsCache: join(root, "skills-cache"),
  };
}
