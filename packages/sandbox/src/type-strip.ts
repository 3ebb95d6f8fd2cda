import { transform } from "sucrase";

export type StripResult =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number };

/**
 * Removes TypeScript syntax from a `.ts` file (sucrase keeps line numbers, so guest stacks and
 * syntax errors point at the author's lines). `.js` files are returned as they are: QuickJS
 * reports their syntax errors itself.
 */
export function stripTypes(path: string, content: string): StripResult {
  if (!path.endsWith(".ts")) return { ok: true, code: content };
  try {
    const { code } = transform(content, {
      transforms: ["typescript"],
      disableESTransforms: true,
      preserveDynamicImport: true,
      filePath: path,
    });
    return { ok: true, code };
  } catch (error) {
    const loc = (error as { loc?: { line?: unknown; column?: unknown } }).loc;
    const line = typeof loc?.line === "number" ? loc.line : 1;
    const column = typeof loc?.column === "number" ? loc.column : 1;
    const raw = error instanceof Error ? error.message : String(error);
    // sucrase prefixes "Error transforming <file>:" and suffixes " (line:column)".
    const message = raw.replace(/^Error transforming [^:]*: /, "").replace(/ \(\d+:\d+\)$/, "");
    return { ok: false, message, line, column };
  }
}
