// Benchmark: validateLwir on a ~1 MB valid LWIR document, against a same-process baseline of
// JSON.parse(JSON.stringify(doc)) + canonicalJson(doc) (the cheapest "touch every byte" work).
// Run: pnpm --filter @little-stack-apps/bench run lwir
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { canonicalJson } from "@little-stack/canonical";
import { validateLwir } from "@little-stack/lwir";

const targetBytes = 1024 * 1024;
const warmupRuns = 5;
const measuredRuns = 60;

function sha256(content: string): string {
  return `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`;
}

/** Source of one code.run file, padded with realistic-looking lines to `size` characters. */
function sourceFile(index: number, size: number): string {
  const lines = [`export async function run({ input }) {`, `  const base = ${index};`];
  let line = 0;
  while (lines.join("\n").length < size) {
    lines.push(`  const value${line} = (input?.values?.[${line % 17}] ?? base) * ${line + 1}; // keep ${line}`);
    line += 1;
  }
  lines.push(`  return { score: base };`, `}`);
  return lines.join("\n");
}

const objectSchema = {
  type: "object",
  required: ["score"],
  properties: { score: { type: "number" }, notes: { type: "string", maxLength: 2000 } },
};
// Every step gets its own schema, as a planner would write them (no two are identical).
const schemaFor = (index: number) => ({
  ...objectSchema,
  description: `Output of step ${index}`,
  properties: { ...objectSchema.properties, [`extra${index}`]: { type: "integer", minimum: 0, maximum: index + 1 } },
});

/** A valid ~1 MB chain of steps; `codeFileSize` sets how much of the megabyte is code.run source. */
function buildDocument(codeFileSize: number): Record<string, unknown> {
  const steps: Record<string, unknown>[] = [];
  let index = 0;
  let size = 0;
  while (size < targetBytes) {
    const id = `step-${index}`;
    const needs = index === 0 ? [] : [`step-${index - 1}`];
    const previous = index === 0 ? "{{ input.topic }}" : `{{ steps.step-${index - 1}.output }}`;
    const kind = index % 3;
    if (kind === 0) {
      steps.push({
        id,
        uses: "ai.generate",
        needs,
        with: { model: "gpt-4o-mini", prompt: `Improve the draft for ${"{{ input.topic }}"} given ${previous}.` },
        output: { mode: "object", schema: schemaFor(index) },
      });
    } else if (kind === 1) {
      steps.push({
        id,
        uses: "tool.call",
        needs,
        with: { tool: "search", args: { query: "{{ input.topic }}", context: previous } },
        output: { mode: "json", schema: schemaFor(index) },
      });
    } else {
      const content = sourceFile(index, codeFileSize);
      steps.push({
        id,
        uses: "code.run",
        needs,
        input: { previous },
        with: {
          entrypoint: "main.ts",
          files: { "main.ts": { content, sha256: sha256(content) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
        },
        output: { mode: "object", schema: schemaFor(index) },
        retry: { maxAttempts: 2 },
        onFailure: { fixer: { model: "gpt-4o-mini", maxAttempts: 2, system: "Fix the code." } },
      });
    }
    size += JSON.stringify(steps[steps.length - 1]).length + 1;
    index += 1;
  }
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bench.one-megabyte", version: "1.0.0" },
    input: { schema: { type: "object", required: ["topic"], properties: { topic: { type: "string" } } } },
    output: { schema: objectSchema },
    permissions: { models: ["gpt-4o-mini"], tools: ["search"], secrets: [], network: [] },
    steps,
  };
}

type Sample = { readonly wallMs: number; readonly cpuMs: number };

/** Wall time, and this process's CPU time (user + system), which other load on the machine inflates far less. */
function time(run: () => void): Sample {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  run();
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function summarize(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (quantile: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] as number;
  return { median: at(0.5), p95: at(0.95) };
}

function measure(label: string, doc: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  const check = validateLwir(doc);
  if (!check.valid) {
    console.error("The benchmark document is invalid:", check.findings.slice(0, 5));
    process.exit(1);
  }
  const baseline = (): void => {
    JSON.parse(JSON.stringify(doc));
    canonicalJson(doc);
  };
  const validate = (): void => {
    validateLwir(doc);
  };
  for (let run = 0; run < warmupRuns; run += 1) {
    baseline();
    validate();
  }
  const baselineSamples: Sample[] = [];
  const validateSamples: Sample[] = [];
  // Interleaved so both see the same machine state (GC, CPU frequency, other processes).
  for (let run = 0; run < measuredRuns; run += 1) {
    baselineSamples.push(time(baseline));
    validateSamples.push(time(validate));
  }
  const base = summarize(baselineSamples.map((sample) => sample.wallMs));
  const measured = summarize(validateSamples.map((sample) => sample.wallMs));
  const baseCpu = summarize(baselineSamples.map((sample) => sample.cpuMs));
  const measuredCpu = summarize(validateSamples.map((sample) => sample.cpuMs));
  const steps = (doc.steps as unknown[]).length;
  const row = (name: string, wall: { median: number; p95: number }, cpu: { median: number; p95: number }): string =>
    `  ${name.padEnd(52)} wall median ${wall.median.toFixed(2)} ms, p95 ${wall.p95.toFixed(2)} ms | cpu median ${cpu.median.toFixed(2)} ms, p95 ${cpu.p95.toFixed(2)} ms`;
  console.log(`\n${label}: ${(bytes / 1024 / 1024).toFixed(2)} MB, ${steps} steps`);
  console.log(row("validateLwir", measured, measuredCpu));
  console.log(row("baseline JSON.parse(JSON.stringify) + canonicalJson", base, baseCpu));
  console.log(
    `  ratio validateLwir / baseline: wall median ${(measured.median / base.median).toFixed(2)}x, cpu median ${(measuredCpu.median / baseCpu.median).toFixed(2)}x`,
  );
  const verdict = (milliseconds: number): string => (milliseconds < 100 ? "met" : "NOT met");
  console.log(`  target (median under 100 ms): wall ${verdict(measured.median)}, cpu ${verdict(measuredCpu.median)}`);
}

console.log(`validateLwir benchmark: ${measuredRuns} measured runs after ${warmupRuns} warm-up, node ${process.version}`);
measure("big code.run files (every third step has a ~20 KB file)", buildDocument(20_000));
measure("many small steps (every third step has a ~300 B file)", buildDocument(300));
