import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * Installs @little-stack/lwir the way a user without zod would have it: its sources next to
 * node_modules holding only its real dependencies (canonical, ajv, ajv-formats), no zod anywhere
 * up the tree. A real child process then uses the package from there.
 */
function installWithoutZod(): string {
  const root = mkdtempSync(join(tmpdir(), "lwir-without-zod-"));
  const modules = join(root, "node_modules");
  mkdirSync(join(modules, "@little-stack"), { recursive: true });
  symlinkSync(realpathSync(join(packageDir, "node_modules/@little-stack/canonical")), join(modules, "@little-stack/canonical"));
  symlinkSync(realpathSync(join(packageDir, "node_modules/ajv")), join(modules, "ajv"));
  symlinkSync(realpathSync(join(packageDir, "node_modules/ajv-formats")), join(modules, "ajv-formats"));
  cpSync(join(packageDir, "src"), join(root, "lwir/src"), {
    recursive: true,
    filter: (source) => !/\.test(-d)?\.ts$/.test(source),
  });
  writeFileSync(join(root, "lwir/package.json"), JSON.stringify({ type: "module" }));
  return root;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("@little-stack/lwir without zod installed", () => {
  it("works for JSON Schema and fails with schema.zod_unavailable only when a Zod schema is given", () => {
    const root = installWithoutZod();
    roots.push(root);
    const script = join(root, "probe.ts");
    writeFileSync(
      script,
      `
import { normalizeSchema, normalizeOutputMode, registerWorkflowVersion } from ${JSON.stringify(pathToFileURL(join(root, "lwir/src/index.ts")).href)};
const result: Record<string, unknown> = {};
result.plain = normalizeSchema({ type: "string" });
result.mode = normalizeOutputMode({ kind: "text" });
result.id = registerWorkflowVersion({ a: 1 }).id;
try {
  normalizeSchema({ _zod: { def: { type: "string" } } });
} catch (error) {
  result.code = (error as { code?: string }).code;
  result.message = (error as Error).message;
}
console.log(JSON.stringify(result));
`,
    );
    const child = spawnSync(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", script], {
      cwd: repoRoot,
      encoding: "utf8",
      // pnpm's bin shims put its whole store on NODE_PATH, which would make zod resolvable.
      env: { ...process.env, NODE_PATH: "" },
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout) as Record<string, unknown>;
    expect(result.plain).toEqual({ type: "string" });
    expect(result.mode).toEqual({ mode: "text" });
    expect(result.id).toMatch(/^wfver_[0-9a-f]{16}$/);
    expect(result.code).toBe("schema.zod_unavailable");
    expect(result.message).toMatch(/`zod` package cannot be loaded.*pnpm add zod@\^4/);
  });
});
