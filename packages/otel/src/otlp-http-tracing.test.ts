import { runTypeScriptFile } from "@little-stack/testing";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spanIdFor, traceIdFor } from "./span-ids.js";

const tracedRun = fileURLToPath(new URL("./__fixtures__/traced-run.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A span as the OTLP/HTTP JSON body carries it, with its attributes flattened. */
type ReceivedSpan = { traceId: string; spanId: string; parentSpanId: string; name: string; kind: number; startTimeUnixNano: string; endTimeUnixNano: string; status?: { code?: number }; attributes: Record<string, unknown> };

/** A real OTLP/HTTP receiver on 127.0.0.1: every POST to /v1/traces is parsed and kept. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; requests: number; close(): Promise<void> }> {
  const state = { spans: [] as ReceivedSpan[], requests: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces" || !String(request.headers["content-type"]).includes("json")) {
        response.writeHead(415).end();
        return;
      }
      state.requests += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans: { scopeSpans: { spans: (Omit<ReceivedSpan, "attributes"> & { attributes?: { key: string; value: Record<string, unknown> }[] })[] }[] }[] };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) {
          for (const span of scope.spans) {
            const attributes: Record<string, unknown> = {};
            for (const attribute of span.attributes ?? []) attributes[attribute.key] = Object.values(attribute.value)[0];
            state.spans.push({ ...span, attributes });
          }
        }
      }
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    get spans() {
      return state.spans;
    },
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let dir: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "lw-otel-"));
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

async function traced(runId: string, mode: "full" | "crash"): Promise<string> {
  const result = await runTypeScriptFile(tracedRun, [receiver.url, dir, runId, mode], { cwd: repoRoot, conditions: ["@little-stack/source"] });
  if (result.exitCode !== 0) throw new Error(`traced run failed: ${result.stderr}`);
  return result.stdout;
}

describe("otlpHttpTracing", () => {
  it("exports a span per run, step attempt, model call and tool call over OTLP/HTTP, with GenAI attributes and the run and step ids", async () => {
    await traced("run-traced", "full");
    expect(receiver.requests).toBeGreaterThan(0);
    const spans = receiver.spans;
    const byName = (name: string) => spans.filter((span) => span.name === name);
    expect(spans.map((span) => span.name).sort()).toEqual(["chat gpt-4o-mini", "execute_tool lookup", "execute_tool lookup", "little.run run-traced", "little.step again", "little.step lookup", "little.step summarize"].sort());
    const run = byName("little.run run-traced")[0]!;
    expect(run.traceId).toBe(traceIdFor("run-traced"));
    expect(run.spanId).toBe(spanIdFor("run", "run-traced"));
    expect(run.parentSpanId ?? "").toBe("");
    expect(spans.every((span) => span.traceId === run.traceId && span.attributes["little.run.id"] === "run-traced")).toBe(true);
    const step = byName("little.step summarize")[0]!;
    expect(step.parentSpanId).toBe(run.spanId);
    expect(step.attributes).toMatchObject({ "little.step.path": "summarize", "little.step.id": "summarize", "little.step.attempt": 1 });
    const chat = byName("chat gpt-4o-mini")[0]!;
    expect(chat.parentSpanId).toBe(step.spanId);
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai.chat",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 9,
      "gen_ai.usage.cache_read.input_tokens": 64,
      "little.step.path": "summarize",
    });
    const tool = byName("execute_tool lookup").find((span) => span.attributes["little.step.path"] === "lookup")!;
    expect(tool.parentSpanId).toBe(byName("little.step lookup")[0]!.spanId);
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "lookup", "little.tool.caller": "code" });
    // Children lie inside their parents on the time axis.
    for (const span of spans) {
      const parent = spans.find((candidate) => candidate.spanId === span.parentSpanId);
      if (parent === undefined) continue;
      expect(BigInt(span.startTimeUnixNano) >= BigInt(parent.startTimeUnixNano)).toBe(true);
      expect(BigInt(span.endTimeUnixNano) <= BigInt(parent.endTimeUnixNano)).toBe(true);
    }
  });

  it("does not export spans of recorded work again when a killed run is resumed, and continues the same trace", async () => {
    // The first process dies after the first step's transaction and the model call's response.
    expect(await traced("run-resumed", "crash")).toContain("simulated crash");
    const exportedBefore = receiver.spans.map((span) => span.spanId);
    expect(receiver.spans.map((span) => span.name)).toContain("little.step lookup");
    expect(receiver.spans.map((span) => span.name)).not.toContain("little.run run-resumed");

    await traced("run-resumed", "full");
    const spans = receiver.spans;
    // Every span id once: nothing of the first process was traced again by the second.
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
    const names = spans.map((span) => span.name).sort();
    expect(names.filter((name) => name === "little.step lookup")).toHaveLength(1);
    expect(names.filter((name) => name === "chat gpt-4o-mini").length).toBeLessThanOrEqual(1);
    expect(names).toContain("little.step again");
    expect(names).toContain("little.run run-resumed");
    const resumedSpans = spans.filter((span) => !exportedBefore.includes(span.spanId));
    expect(resumedSpans.map((span) => span.attributes["little.step.path"])).not.toContain("lookup");
    // One trace: the first process's spans hang under the run span the second process ended.
    const run = spans.find((span) => span.name === "little.run run-resumed")!;
    expect(spans.every((span) => span.traceId === traceIdFor("run-resumed"))).toBe(true);
    expect(spans.filter((span) => span.name.startsWith("little.step")).every((span) => span.parentSpanId === run.spanId)).toBe(true);
    // The first step's tool ran once (recorded), the last step's once (after the resume).
    expect(readFileSync(join(dir, "tool-calls.log"), "utf8").trim().split("\n")).toEqual(["C-1", "C-2"]);
  });
});
