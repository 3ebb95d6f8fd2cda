import { moduleExtensions } from "./code-files.js";

export type ModuleResolution =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly message: string };

function joinRelative(importer: string, specifier: string): string | undefined {
  const segments = importer.split("/").slice(0, -1);
  for (const segment of specifier.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join("/");
}

function candidates(path: string): string[] {
  // TypeScript authors write "./util.js" for "./util.ts" (NodeNext style); extensionless is accepted too.
  if (path.endsWith(".js")) return [path, `${path.slice(0, -3)}.ts`];
  if (moduleExtensions.some((extension) => path.endsWith(extension))) return [path];
  return [path, ...moduleExtensions.map((extension) => `${path}${extension}`)];
}

/**
 * Resolves an import written in `importer` to one of the step's own files. Only relative
 * specifiers ("./x.js", "../lib/y.ts") that stay inside the files' root are accepted.
 */
export function resolveModuleSpecifier(
  importer: string,
  specifier: string,
  hasFile: (path: string) => boolean,
): ModuleResolution {
  const own = "code.run may import only its own files, with relative specifiers such as \"./util.js\"";
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
    return { ok: false, message: `Cannot import "${specifier}" from "${importer}": ${own}; there is no fs, network or npm package here.` };
  }
  const joined = joinRelative(importer, specifier);
  if (joined === undefined || joined === "") {
    return { ok: false, message: `Cannot import "${specifier}" from "${importer}": it points outside the step's files.` };
  }
  const found = candidates(joined).find(hasFile);
  if (found === undefined) {
    return { ok: false, message: `Cannot import "${specifier}" from "${importer}": no step file "${joined}". ${own}.` };
  }
  if (!moduleExtensions.some((extension) => found.endsWith(extension))) {
    return { ok: false, message: `Cannot import "${specifier}" from "${importer}": only .ts and .js files are modules.` };
  }
  return { ok: true, path: found };
}
