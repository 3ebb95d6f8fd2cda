import { readdirSync, readFileSync } from "node:fs";
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
});
