/**
 * Step paths (lwir.md §7): `<id>`, `<id>.visit[<n>]` for multi-visit steps (0-based),
 * `<parallelId>[<encodedItemKey>].<bodyStepId>` inside a parallel branch, and
 * `<parallelId>@attempt_<n>[…]` for the branches a group's retry attempt n (n ≥ 2) runs again.
 */
export function stepPathFor(options: { readonly prefix: string; readonly stepId: string; readonly maxVisits: number; readonly visitIndex: number }): string {
  const base = options.prefix === "" ? options.stepId : `${options.prefix}.${options.stepId}`;
  return options.maxVisits > 1 ? `${base}.visit[${options.visitIndex}]` : base;
}

/** URI-encodes an item key, with `.` as `%2E` so it cannot be read as a path separator. */
export function encodeItemKey(itemKey: string): string {
  return encodeURIComponent(itemKey).replace(/\./g, "%2E");
}

/** The path prefix of one branch of the parallel group at `groupPath`. */
export function branchPathFor(groupPath: string, itemKey: string): string {
  return `${groupPath}[${encodeItemKey(itemKey)}]`;
}

/** Where attempt `attempt` of the parallel group at `groupPath` runs its branches: the group path, then `@attempt_<n>`. */
export function groupAttemptPath(groupPath: string, attempt: number): string {
  return attempt <= 1 ? groupPath : `${groupPath}@${attemptIdFor(attempt)}`;
}

/** `attempt_<n>`, 1-based. */
export function attemptIdFor(attempt: number): string {
  return `attempt_${attempt}`;
}
