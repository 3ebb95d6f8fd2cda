import { lstatSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { MemoryLayoutError } from "./memory-layout-error.js";
import type { PolicyMount } from "./mount.js";

/** What an operation does to a path. */
export type PathAccess = "read" | "write";

/** Why a path was refused. Stable strings: tests and callers match on them. */
export type PathRefusalCode =
  | "empty_path"
  | "nul_byte"
  | "backslash"
  | "invalid_cwd"
  | "above_root"
  | "case_mismatch"
  | "outside_mounts"
  | "read_only"
  | "mount_point"
  | "symlink_escape";

export type PathRefusal = {
  readonly ok: false;
  readonly code: PathRefusalCode;
  /** The normalized virtual path, when normalization got that far. */
  readonly virtualPath?: string;
  /** One sentence for a model or a developer: what was refused and what to do instead. */
  readonly message: string;
};

/** A path inside a mount, with the host path it maps to (symlinks resolved on the host). */
export type MountedPath<M extends PolicyMount> = {
  readonly ok: true;
  readonly kind: "mounted";
  readonly virtualPath: string;
  readonly hostPath: string;
  readonly mount: M;
};

/**
 * A virtual directory that only exists because mounts live below it (`/`, `/mnt`,
 * `/mnt/memory`). It can be listed, never written.
 */
export type MountAncestorPath = {
  readonly ok: true;
  readonly kind: "mount-ancestor";
  readonly virtualPath: string;
  /** Names of the entries directly below it. */
  readonly children: readonly string[];
};

export type PathResolution<M extends PolicyMount> = MountedPath<M> | MountAncestorPath | PathRefusal;

export type ResolveVirtualPathOptions = {
  /** Absolute virtual directory relative paths start from. */
  readonly cwd: string;
  readonly access: PathAccess;
};

/** Pre-validated mounts: resolve many paths against the same mount table. */
export type PathPolicy<M extends PolicyMount> = {
  readonly mounts: readonly M[];
  resolve(path: string, options: ResolveVirtualPathOptions): PathResolution<M>;
};

type Normalized = { readonly ok: true; readonly path: string } | PathRefusal;

function refuse(code: PathRefusalCode, message: string, virtualPath?: string): PathRefusal {
  return virtualPath === undefined ? { ok: false, code, message } : { ok: false, code, virtualPath, message };
}

/** Lexical POSIX normalization; `..` above `/` is refused rather than clamped. */
function normalizeVirtual(path: string, cwd: string): Normalized {
  const segments: string[] = [];
  const joined = path.startsWith("/") ? path : `${cwd}/${path}`;
  for (const segment of joined.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) {
        return refuse("above_root", `"${path}" climbs above "/" with ".."; there is nothing above the root.`);
      }
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return { ok: true, path: `/${segments.join("/")}` };
}

function checkCharacters(path: string, what: string): PathRefusal | undefined {
  if (path.includes("\0")) return refuse("nul_byte", `${what} contains a NUL byte; paths cannot contain NUL.`);
  if (path.includes("\\")) {
    return refuse("backslash", `${what} contains a backslash; use "/" as the only separator and no "\\" in names.`);
  }
  return undefined;
}

function isInside(path: string, root: string): boolean {
  return root === "/" ? true : path === root || path.startsWith(`${root}/`);
}

function isHostInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * Resolves `relative` below the mount's host root one segment at a time, following symlinks on the
 * host. Refuses a symlink whose target leaves the root or does not exist (a dangling link would be
 * followed by a write and create a file wherever it points).
 */
function resolveHost(hostRoot: string, relative: readonly string[]): { ok: true; path: string } | { ok: false; reason: string } {
  const realRoot = realpathOrSelf(hostRoot);
  let current = realRoot;
  for (let index = 0; index < relative.length; index += 1) {
    const next = join(current, relative[index] as string);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // Does not exist yet: nothing below it can be a symlink.
      return { ok: true, path: join(next, ...relative.slice(index + 1)) };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    let target: string;
    try {
      target = realpathSync.native(next);
    } catch {
      return { ok: false, reason: "is a symlink whose target does not exist" };
    }
    if (!isHostInside(target, realRoot)) return { ok: false, reason: "is a symlink that points outside its mount" };
    current = target;
  }
  return { ok: true, path: current };
}

function checkMounts<M extends PolicyMount>(mounts: readonly M[]): M[] {
  const seen = new Set<string>();
  return mounts.map((mount, index) => {
    const where = `mounts[${index}].mountPath`;
    if (typeof mount.mountPath !== "string" || !mount.mountPath.startsWith("/")) {
      throw new MemoryLayoutError(where, `${JSON.stringify(mount.mountPath)} must be an absolute virtual path`);
    }
    const characters = checkCharacters(mount.mountPath, where);
    if (characters !== undefined) throw new MemoryLayoutError(where, characters.message);
    const normalized = normalizeVirtual(mount.mountPath, "/");
    if (!normalized.ok || normalized.path === "/") {
      throw new MemoryLayoutError(where, `${JSON.stringify(mount.mountPath)} must be a normalized path below "/"`);
    }
    if (seen.has(normalized.path)) throw new MemoryLayoutError(where, `${normalized.path} is mounted twice`);
    seen.add(normalized.path);
    if (mount.mode !== "rw" && mount.mode !== "ro") {
      throw new MemoryLayoutError(`mounts[${index}].mode`, `expected "rw" or "ro", got ${JSON.stringify(mount.mode)}`);
    }
    return normalized.path === mount.mountPath ? mount : { ...mount, mountPath: normalized.path };
  });
}

function writableHint(mounts: readonly PolicyMount[]): string {
  const writable = mounts.filter((mount) => mount.mode === "rw").map((mount) => `${mount.mountPath}/`);
  return writable.length === 0 ? "no mount is writable in this session" : `writable mounts: ${writable.join(", ")}`;
}

/**
 * The path policy of a harness bash session over a fixed mount table. Mounts may nest (skills
 * staged read-only inside the own scratch); the longest mount prefix wins.
 */
export function createPathPolicy<M extends PolicyMount>(mounts: readonly M[]): PathPolicy<M> {
  const table = checkMounts(mounts);
  const byLength = [...table].sort((left, right) => right.mountPath.length - left.mountPath.length);

  function resolve(path: string, options: ResolveVirtualPathOptions): PathResolution<M> {
    if (typeof path !== "string" || path.length === 0) return refuse("empty_path", "The path is empty.");
    const characters = checkCharacters(path, JSON.stringify(path.replaceAll("\0", "\\0")));
    if (characters !== undefined) return characters;
    const cwdCharacters = typeof options.cwd === "string" ? checkCharacters(options.cwd, "The working directory") : undefined;
    if (typeof options.cwd !== "string" || !options.cwd.startsWith("/") || cwdCharacters !== undefined) {
      return refuse("invalid_cwd", `The working directory ${JSON.stringify(options.cwd)} must be an absolute virtual path.`);
    }
    const cwd = normalizeVirtual(options.cwd, "/");
    if (!cwd.ok) return refuse("invalid_cwd", cwd.message);
    const normalized = normalizeVirtual(path, cwd.path);
    if (!normalized.ok) return normalized;
    const virtualPath = normalized.path;

    const mount = byLength.find((candidate) => isInside(virtualPath, candidate.mountPath));
    if (mount === undefined) return resolveOutside(virtualPath, options.access);

    if (options.access === "write") {
      if (mount.mode === "ro") {
        return refuse(
          "read_only",
          `${virtualPath} is on the read-only mount ${mount.mountPath}/; ${writableHint(table)}.`,
          virtualPath,
        );
      }
      if (virtualPath === mount.mountPath) {
        return refuse("mount_point", `${virtualPath} is a mount point and cannot itself be replaced or removed; change the files inside it.`, virtualPath);
      }
      const nested = table.find((other) => other.mountPath !== virtualPath && isInside(other.mountPath, virtualPath) && other !== mount);
      if (nested !== undefined) {
        return refuse("mount_point", `${virtualPath} contains the mount ${nested.mountPath}/ and cannot be replaced or removed.`, virtualPath);
      }
    }

    const relative = virtualPath === mount.mountPath ? [] : virtualPath.slice(mount.mountPath.length + 1).split("/");
    const host = resolveHost(mount.hostPath, relative);
    if (!host.ok) {
      return refuse("symlink_escape", `${virtualPath} ${host.reason} (${mount.mountPath}/); symlinks may not leave a mount.`, virtualPath);
    }
    return { ok: true, kind: "mounted", virtualPath, hostPath: host.path, mount };
  }

  function resolveOutside(virtualPath: string, access: PathAccess): PathResolution<M> {
    const below = table.filter((mount) => isInside(mount.mountPath, virtualPath) && mount.mountPath !== virtualPath);
    if (below.length > 0) {
      if (access === "write") {
        return refuse("outside_mounts", `${virtualPath} is a virtual directory that holds mounts and is read-only; ${writableHint(table)}.`, virtualPath);
      }
      const depth = virtualPath === "/" ? 1 : virtualPath.split("/").length;
      const children = [...new Set(below.map((mount) => mount.mountPath.split("/")[depth] as string))].sort();
      return { ok: true, kind: "mount-ancestor", virtualPath, children };
    }
    const lower = virtualPath.toLowerCase();
    const caseTwin = table.find(
      (mount) => isInside(lower, mount.mountPath.toLowerCase()) || isInside(mount.mountPath.toLowerCase(), lower),
    );
    if (caseTwin !== undefined) {
      return refuse(
        "case_mismatch",
        `${virtualPath} differs from the mount ${caseTwin.mountPath}/ only in letter case; virtual paths are case-sensitive.`,
        virtualPath,
      );
    }
    return refuse(
      "outside_mounts",
      `${virtualPath} is outside every mount (${table.map((mount) => `${mount.mountPath}/`).join(", ") || "none"}); ${access === "write" ? writableHint(table) : "only mounted paths exist"}.`,
      virtualPath,
    );
  }

  return { mounts: table, resolve };
}

/**
 * Resolves a bash path against the session's mounts: the host path to use, or a named refusal.
 * Refuses NUL bytes, `..` above `/`, paths outside every mount, case-only near-misses of a mount
 * (`/MNT/Memory/org`), writes to read-only mounts or to mount points, and symlinks (resolved on
 * the host) that leave their mount or dangle. Reads the host file system (lstat/realpath) but
 * never changes it.
 */
export function resolveVirtualPath<M extends PolicyMount>(
  mounts: readonly M[],
  path: string,
  options: ResolveVirtualPathOptions,
): PathResolution<M> {
  return createPathPolicy(mounts).resolve(path, options);
}
