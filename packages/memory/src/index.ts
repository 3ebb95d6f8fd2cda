// Public surface of @little-stack/memory: an explicit list of named exports.
export { describeMounts } from "./describe-mounts.js";
export { ensureMountDirectories } from "./ensure-mount-directories.js";
export {
  defaultMemoryConfig,
  resolveMemoryConfig,
  type MemoryConfig,
  type MemoryStoreAccess,
  type ResolvedMemoryConfig,
} from "./memory-config.js";
export { MemoryConfigError } from "./memory-config-error.js";
export { MemoryLayoutError } from "./memory-layout-error.js";
export {
  virtualPaths,
  type MemoryMount,
  type MemoryStoreKind,
  type MountMode,
  type PolicyMount,
  type ScratchKind,
  type ScratchMount,
} from "./mount.js";
export {
  createPathPolicy,
  resolveVirtualPath,
  type MountAncestorPath,
  type MountedPath,
  type PathAccess,
  type PathPolicy,
  type PathRefusal,
  type PathRefusalCode,
  type PathResolution,
  type ResolveVirtualPathOptions,
} from "./path-policy.js";
export { pipelineKey } from "./pipeline-key.js";
export {
  memoryStoreIds,
  mountsForRole,
  type MountRole,
  type RoleMounts,
  type RoleMountsOptions,
} from "./role-mounts.js";
export { pipelineScratchPath, runScratchLayout, type RunScratchLayout } from "./run-scratch-layout.js";
export { decodeStepPathDirectory, encodeStepPathDirectory } from "./step-path-directory.js";
export { checkDataDir, memoryStoreLayout, type MemoryStoreLayout } from "./store-layout.js";
export { checkStoreName } from "./store-name.js";
