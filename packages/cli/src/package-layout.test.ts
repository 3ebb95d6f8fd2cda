import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = new URL("../", import.meta.url);

describe("the little executable's packaging", () => {
  it("declares bin little → dist/bin.js, the compiled src/bin.ts", () => {
    const manifest = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8")) as { bin?: unknown };
    expect(manifest.bin).toEqual({ little: "./dist/bin.js" });
  });

  it("keeps the shebang in src/bin.ts only (a shebang in a module with exports breaks its .d.ts)", () => {
    const sources = readdirSync(new URL("src/", packageDir), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    const withShebang = sources.filter((file) => readFileSync(new URL(`src/${file}`, packageDir), "utf8").startsWith("#!"));
    expect(withShebang).toEqual(["bin.ts"]);
  });

  it("starts light: what src/cli.ts statically imports by value is clipanion, @little-stack/canonical and node: only (commands load the rest in execute())", () => {
    const srcDir = fileURLToPath(new URL("src/", packageDir));
    const valueImport = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+"([^"]+)";/gms;
    const seen = new Set<string>();
    const packages = new Map<string, string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(valueImport)) {
        if (specifier!.startsWith(".")) visit(join(dirname(file), specifier!.replace(/\.js$/, ".ts")));
        else packages.set(specifier!, relative(srcDir, file));
      }
    };
    visit(join(srcDir, "cli.ts"));
    expect(seen.size).toBeGreaterThan(10);
    const heavy = [...packages].filter(([name]) => !name.startsWith("node:") && name !== "clipanion" && name !== "@little-stack/canonical");
    expect(heavy.map(([name, file]) => `${file} imports ${name}`)).toEqual([]);
  });
});
