import type { MemoryMount, ScratchMount } from "./mount.js";

/**
 * The "memory + scratch mount descriptions" block of a harness system prompt (item 4 of the order
 * in seed 003): one line per mount with its path, mode and purpose. Empty string without mounts.
 */
export function describeMounts(options: {
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
}): string {
  const sections: string[] = [];
  if (options.memoryMounts.length > 0) {
    sections.push(
      ["Memory mounts (read with bash):", ...options.memoryMounts.map((mount) => `- ${mount.mountPath}/ (${mount.mode}) — ${mount.purpose}.`)].join("\n"),
    );
  }
  if (options.scratchMounts.length > 0) {
    sections.push(
      ["Scratch mounts (ephemeral, this run only):", ...options.scratchMounts.map((mount) => `- ${mount.mountPath}/ (${mount.mode}) — ${mount.purpose}.`)].join("\n"),
    );
  }
  return sections.join("\n\n");
}
