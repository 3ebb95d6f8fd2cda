import type { CodeRunFile } from "./code-files.js";
import type { PreparedSource } from "./worker-protocol.js";

type StripTypes = typeof import("./type-strip.js").stripTypes;

let stripper: Promise<StripTypes> | undefined;
/** sucrase is loaded on the first TypeScript step only, so hosts that run none never pay for it. */
function loadStripper(): Promise<StripTypes> {
  stripper ??= import("./type-strip.js").then((module) => module.stripTypes);
  return stripper;
}

const cache = new Map<string, PreparedSource>();
const cacheLimit = 512;

/**
 * Type-strips every `.ts` file on the host, once per (path, hash): the stripper then lives in one
 * place instead of in every worker, and warm executions reuse the result. A file that does not
 * parse is passed on as its syntax error, reported only if the code actually imports it.
 */
export async function prepareSources(files: Readonly<Record<string, CodeRunFile>>): Promise<Record<string, PreparedSource>> {
  const prepared: Record<string, PreparedSource> = {};
  for (const [path, file] of Object.entries(files)) {
    if (!path.endsWith(".ts")) {
      prepared[path] = { code: file.content };
      continue;
    }
    const key = `${path}\n${file.sha256}`;
    let source = cache.get(key);
    if (!source) {
      const result = (await loadStripper())(path, file.content);
      source = result.ok ? { code: result.code } : { syntaxError: { line: result.line, column: result.column, message: result.message } };
      if (cache.size >= cacheLimit) cache.clear();
      cache.set(key, source);
    }
    prepared[path] = source;
  }
  return prepared;
}
