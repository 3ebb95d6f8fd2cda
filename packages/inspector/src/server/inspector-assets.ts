import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { InspectorError } from "./inspector-error.js";

/** A file the page loads, served from the package (never from a network). */
export type InspectorAsset = { readonly body: string; readonly contentType: string };

const require = createRequire(import.meta.url);

/** Browser ES modules of the view libraries, from the installed packages. */
const vendorFiles: Readonly<Record<string, () => string>> = {
  "vendor/preact.mjs": () => join(dirname(require.resolve("preact/package.json")), "dist", "preact.mjs"),
  "vendor/hooks.mjs": () => join(dirname(require.resolve("preact/package.json")), "hooks", "dist", "hooks.mjs"),
  // htm exports no package.json: its main file sits beside the ES module build.
  "vendor/htm.mjs": () => join(dirname(require.resolve("htm")), "htm.module.js"),
};

/** Bare specifiers of the client modules → the asset URL the import map gives them. */
export const importMap = {
  imports: {
    preact: "/assets/vendor/preact.mjs",
    "preact/hooks": "/assets/vendor/hooks.mjs",
    htm: "/assets/vendor/htm.mjs",
  },
} as const;

// The client is compiled by tsc into dist/client (from src/client); the same folder serves the
// sources' tests and the published package.
const clientDir = fileURLToPath(new URL("../../dist/client/", import.meta.url));

const cache = new Map<string, InspectorAsset>();

/** The asset at `/assets/<name>`, or undefined when there is none by that name. */
export async function inspectorAsset(name: string): Promise<InspectorAsset | undefined> {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  let path: string | undefined;
  const vendor = vendorFiles[name];
  if (vendor !== undefined) path = vendor();
  else if (/^client\/[a-z0-9-]+\.js$/.test(name)) path = join(clientDir, name.slice("client/".length));
  if (path === undefined) return undefined;
  let body: string;
  try {
    body = await readFile(path, "utf8");
  } catch (error) {
    if (name.startsWith("client/")) {
      throw new InspectorError("inspector.client_not_built", `The inspector's page script ${path} is missing: build the package first (npx tsc -b packages/inspector, or pnpm build).`, { cause: error });
    }
    return undefined;
  }
  const asset = { body, contentType: "text/javascript; charset=utf-8" };
  cache.set(name, asset);
  return asset;
}

/** `sha256-…` of an inline script, for the Content-Security-Policy that allows only it. */
export function scriptHash(source: string): string {
  return `sha256-${createHash("sha256").update(source, "utf8").digest("base64")}`;
}
