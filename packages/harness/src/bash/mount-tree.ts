import { InMemoryFs, MountableFs, OverlayFs, ReadWriteFs, type IFileSystem } from "just-bash";
import type { PathPolicy, PolicyMount } from "@little-stack/memory";
import { GuardedFs, type GuardedFsError } from "./guarded-fs.js";

function isInside(path: string, root: string): boolean {
  return path.startsWith(`${root}/`);
}

function mountFileSystem(mount: PolicyMount): IFileSystem {
  // Read-only mounts are OverlayFs in read-only mode (its writes throw EROFS); mountPoint "/" because
  // MountableFs hands it paths relative to the mount. Symlinks stay blocked in both (the default).
  return mount.mode === "rw"
    ? new ReadWriteFs({ root: mount.hostPath })
    : new OverlayFs({ root: mount.hostPath, mountPoint: "/", readOnly: true });
}

/**
 * Builds the virtual file system of a bash session: a read-only, empty base at `/` and one
 * guarded file system per mount. A mount nested inside another (skills staged under the own
 * scratch) becomes a mount of an inner MountableFs, because just-bash refuses nested mounts.
 */
export function buildMountTree(options: {
  readonly mounts: readonly PolicyMount[];
  readonly policy: PathPolicy<PolicyMount>;
  readonly onRefusedWrite?: (error: GuardedFsError) => void;
}): IFileSystem {
  const { onRefusedWrite } = options;
  const sorted = [...options.mounts].sort((left, right) => left.mountPath.length - right.mountPath.length);
  const parentOf = new Map<PolicyMount, PolicyMount | undefined>();
  for (const mount of sorted) {
    const ancestors = sorted.filter((other) => other !== mount && isInside(mount.mountPath, other.mountPath));
    parentOf.set(mount, ancestors.at(-1));
  }
  const childrenOf = (parent: PolicyMount | undefined): PolicyMount[] => sorted.filter((mount) => parentOf.get(mount) === parent);

  function build(mount: PolicyMount): IFileSystem {
    const guarded = new GuardedFs({ inner: mountFileSystem(mount), mountPath: mount.mountPath, policy: options.policy, ...(onRefusedWrite === undefined ? {} : { onRefusedWrite }) });
    const children = childrenOf(mount);
    if (children.length === 0) return guarded;
    return new MountableFs({
      base: guarded,
      mounts: children.map((child) => ({ mountPoint: child.mountPath.slice(mount.mountPath.length), filesystem: build(child) })),
    });
  }

  const base = new GuardedFs({ inner: new InMemoryFs({ "/dev/null": "" }), mountPath: "/", policy: options.policy, ...(onRefusedWrite === undefined ? {} : { onRefusedWrite }) });
  return new MountableFs({
    base,
    mounts: childrenOf(undefined).map((mount) => ({ mountPoint: mount.mountPath, filesystem: build(mount) })),
  });
}
