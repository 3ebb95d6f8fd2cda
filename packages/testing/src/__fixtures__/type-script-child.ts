// A child for run-type-script-file.test.ts: it imports a workspace package (resolved to its source
// through the @little-stack/source condition) and TypeScript-only syntax, then reports what it got.
import { sha256Hex } from "@little-stack/canonical";

type Mode = "report" | "fail" | "kill";
const mode = process.argv[2] as Mode;
const report = { args: process.argv.slice(3), cwd: process.cwd(), marker: process.env["LITTLE_CHILD_MARKER"] ?? null, digest: sha256Hex("abc"), canonicalFrom: import.meta.resolve("@little-stack/canonical") };
if (mode === "report") console.log(JSON.stringify(report));
if (mode === "fail") {
  console.error("failing on purpose");
  process.exit(3);
}
if (mode === "kill") process.kill(process.pid, "SIGKILL");
