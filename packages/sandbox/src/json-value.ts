/** Where a value stops being plain JSON, and why. */
export type JsonProblem = { readonly path: string; readonly problem: string };

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return identifier.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The first place where `value` is not plain JSON (objects with the Object prototype or none,
 * dense arrays, strings, finite numbers, booleans, null), or undefined when it is JSON.
 */
export function findJsonProblem(value: unknown, path = "$", seen = new Set<object>()): JsonProblem | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") {
    return Number.isFinite(value) ? undefined : { path, problem: `${String(value)} is not a finite number` };
  }
  if (value === undefined) return { path, problem: "undefined is not JSON (use null or leave the key out)" };
  if (typeof value !== "object") return { path, problem: `a ${typeof value} is not JSON` };
  if (seen.has(value)) return { path, problem: "a circular reference is not JSON" };
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        if (!(index in value)) return { path: childPath(path, index), problem: "an array hole is not JSON" };
        const problem = findJsonProblem(value[index], childPath(path, index), seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype !== Object.prototype && prototype !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return { path, problem: `a ${typeof name === "string" ? name : "class instance"} is not plain JSON` };
    }
    for (const [key, child] of Object.entries(value)) {
      const problem = findJsonProblem(child, childPath(path, key), seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}
