import { mkdir } from "node:fs/promises";

/**
 * Creates every mount's host directory (and parents) if missing; existing ones are left alone.
 * Read-only mounts get an empty directory too, so a session always sees every mount it was given.
 */
export async function ensureMountDirectories(mounts: readonly { readonly hostPath: string }[]): Promise<void> {
  for (const mount of mounts) await mkdir(mount.hostPath, { recursive: true });
}
