import type { Tool } from "ai";
import { bashToolDefinition } from "../bash/bash-tool-definition.js";
import { createBashTool, type BashSkillStaging, type BashToolLimits } from "../bash/bash-tool.js";
import type { PolicyMount } from "@little-stack/memory";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

const ownScratch = "/mnt/scratch/own";
const skillMountPattern = /^\.agents\/skills\/([^/]+)\/?$/;

/**
 * The bash tool of an agent-loop session: ctx.bash when the runtime gave one, else a just-bash
 * shell over ctx's memory and scratch mounts, its absolute runtime mounts, and the skills staged
 * in ctx.mounts (`.agents/skills/<name>/`). Undefined when the session has nothing to mount.
 */
export function sessionBashTool(ctx: WorkflowHarnessContext, limits?: BashToolLimits): Tool | undefined {
  if (ctx.bash !== undefined) return bashToolDefinition(ctx.bash);
  const mounts: PolicyMount[] = [];
  const skills: BashSkillStaging[] = [];
  for (const mount of [...ctx.memoryMounts, ...ctx.scratchMounts]) mounts.push({ mountPath: trimSlash(mount.mountPath), hostPath: mount.hostPath, mode: mount.mode });
  for (const mount of ctx.mounts) {
    const skill = skillMountPattern.exec(mount.mountPath);
    if (skill !== null) skills.push({ name: skill[1]!, mountPath: mount.mountPath, hostPath: mount.hostPath });
    else if (mount.mountPath.startsWith("/")) mounts.push({ mountPath: trimSlash(mount.mountPath), hostPath: mount.hostPath, mode: mount.mode });
  }
  if (mounts.length === 0) return undefined;
  const cwd = mounts.some((mount) => mount.mountPath === ownScratch) ? ownScratch : mounts[0]!.mountPath;
  const bash = createBashTool({
    mounts,
    skills,
    cwd,
    abortSignal: ctx.abortSignal,
    ...(limits === undefined ? {} : { limits }),
    ...(ctx.bashCapabilities === undefined ? {} : { capabilities: ctx.bashCapabilities }),
  });
  return bashToolDefinition(bash);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
