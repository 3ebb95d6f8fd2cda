import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedRun, failedRun, gates, loopAndFanOutRun, runInProgress, writerWorld } from "./__fixtures__/inspected-runs.js";
import type { LocalWorld } from "@little-stack/local-world";
import { startInspector, type RunningInspector } from "./server/start-inspector.js";

/**
 * The inspector end to end in a real browser: Debian's Chromium driven by playwright-core
 * (`.ci/run` installs the chromium package when /usr/bin/chromium is missing; nothing is
 * downloaded at run time). The data dir is written by a real runtime on a local world; the
 * inspector reads it read-only from its own connection, as `little inspect` does.
 */
const chromiumPath = "/usr/bin/chromium";
let dir: string;
let inspector: RunningInspector;
let context: BrowserContext;
let page: Page;
let world: LocalWorld;
const foreignRequests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: apt-get install -y chromium (.ci/run does it)`);
  dir = mkdtempSync(join(tmpdir(), "lw-inspector-"));
  world = writerWorld(join(dir, "data"));
  await completedRun(world);
  await failedRun(world);
  await loopAndFanOutRun(world);
  inspector = await startInspector({ dataDir: join(dir, "data"), port: 0, pollMs: 100 });
  context = await chromium.launchPersistentContext(join(dir, "chromium-profile"), {
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("request", (request) => {
    if (!request.url().startsWith(inspector.url)) foreignRequests.push(request.url());
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  page.on("response", (response) => {
    if (response.status() >= 400) pageErrors.push(`${response.status()} ${response.url()}`);
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await inspector?.close();
  await world?.close();
  if (process.env["LITTLE_KEEP_SCREENSHOTS"] === undefined) rmSync(dir, { recursive: true, force: true });
  else process.stdout.write(`inspector screenshots kept in ${dir}\n`);
});

const shot = (name: string) => page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });

describe("the inspector in Chromium", () => {
  it("lists the runs with kind, status, duration and cost, and filters them by status and workflow", async () => {
    await page.goto(inspector.url);
    const rows = page.locator("table.runs tbody tr");
    await expect.poll(() => rows.count()).toBe(3);
    const completed = page.locator('tr[data-run="run-completed"]');
    await expect.poll(() => completed.innerText()).toContain("completed");
    expect(await completed.innerText()).toContain("support.triage");
    expect(await completed.innerText()).toMatch(/\$0\.0\d{4}/);
    // The failed run made no model call: it cost nothing, and says so.
    expect(await page.locator('tr[data-run="run-failed"]').innerText()).toMatch(/\$0$/);
    await page.selectOption('select[name="status"]', "failed");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain("run-failed");
    await page.selectOption('select[name="status"]', "");
    await page.selectOption('select[name="workflow"]', "batch.loop-and-fan");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain("run-loop-fan");
    await shot("runs");
  });

  it("shows a completed run: the plan graph beside the timeline, and each step's prompt, response, tool call, tokens, cost and the fixer's diff", async () => {
    await page.goto(`${inspector.url}#/runs/run-completed`);
    await expect.poll(() => page.locator("h1").innerText()).toContain("run-completed");
    for (const step of ["lookup", "summarize", "total"]) expect(await page.locator(`svg.plan g.node[data-step="${step}"]`).count()).toBe(1);
    expect(await page.locator("svg.plan g.node.completed").count()).toBe(3);
    expect(await page.locator(".timeline .row").count()).toBe(3);
    expect(await page.locator('.timeline .bar[data-kind="fixer"]').count()).toBe(1);
    await shot("run-completed");

    await page.click('table.steps a:text-is("summarize")');
    await expect.poll(() => page.locator("h1").innerText()).toContain("Step summarize");
    const call = page.locator(".model-call").first();
    expect(await call.innerText()).toContain("openai.chat:gpt-4o-mini");
    expect(await call.locator(".prompt").first().innerText()).toContain("Summarize for plan pro: It crashes at login.");
    // The model's answer has HTML in it: shown as text, nothing of it runs.
    expect(await call.locator(".response").innerText()).toContain('<img src=x onerror="window.__pwned=1"><script>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await call.innerText()).toMatch(/tokens in 182 cached 128 \(70%\) out 31/);
    expect(await call.locator(".cost").innerText()).toMatch(/^\$0\.0000\d+$/);
    await shot("step-summarize");

    await page.goto(`${inspector.url}#/runs/run-completed/steps/lookup`);
    await expect.poll(() => page.locator("table.tool-calls").innerText()).toContain("lookup");
    expect(await page.locator("table.tool-calls").innerText()).toMatch(/lookup\s+code/);
    expect(await page.locator("pre.input").innerText()).toContain('"customerId": "C-7"');

    await page.goto(`${inspector.url}#/runs/run-completed/steps/total`);
    await expect.poll(() => page.locator(".attempt").count()).toBe(1);
    const diff = page.locator(".diff");
    await expect.poll(() => diff.count()).toBe(1);
    expect(await diff.locator(".removed").innerText()).toContain("input.pricing.amount * 100");
    expect(await diff.locator(".added").innerText()).toContain("Math.round(input.price * 100)");
    expect(await page.locator("pre.input").innerText()).toContain('"price": 12.5');
    // The fixer's try_fix ran in the sandbox: a tool call of the step, made by the model.
    expect(await page.locator("table.tool-calls").innerText()).toMatch(/try_fix\s+model/);
    await shot("step-total-fixer");
  });

  it("shows a failed run's failure, the failed step and its error as text", async () => {
    await page.goto(`${inspector.url}#/runs/run-failed`);
    const alert = page.locator('[role="alert"]').first();
    await expect.poll(() => alert.innerText()).toContain("step_failed");
    expect(await alert.innerText()).toContain("explode");
    expect(await page.locator("svg.plan g.node.failed").count()).toBe(1);
    expect(await page.locator('.timeline .bar[data-status="failed"]').count()).toBe(1);
    await page.click('table.steps a:text-is("explode")');
    await expect.poll(() => page.locator(".attempt .error").innerText()).toContain("ledger <b>locked</b>");
    expect(await page.locator(".attempt .error b").count()).toBe(0);
    await shot("run-failed");
  });

  it("shows a loop's visits and a fan-out's branches side by side, with the back-edge and the parallel group in the graph", async () => {
    await page.goto(`${inspector.url}#/runs/run-loop-fan`);
    await expect.poll(() => page.locator(".timeline .row").count()).toBeGreaterThan(6);
    const paths = await page.locator(".timeline .row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-path")));
    expect(paths).toEqual(expect.arrayContaining(["bump.visit[0]", "bump.visit[1]", "bump.visit[2]", "check.visit[0]", "fan[alpha].work", "fan[beta].work", "fan[gamma].work", "fan"]));
    expect(await page.locator('svg.plan polyline[data-edge="back"]').count()).toBe(1);
    expect(await page.locator('svg.plan g.group[data-step="fan"]').textContent()).toContain("fan (parallel)");
    expect(await page.locator('svg.plan g.node[data-step="work"]').count()).toBe(1);
    await shot("run-loop-fan");
  });

  it("shows a run in progress and its new steps as they are committed, without a reload", async () => {
    const gate = gates();
    const running = runInProgress(world, gate);
    await expect.poll(() => gate.entered, { timeout: 20_000 }).toBe(1);
    gate.release();
    await expect.poll(() => gate.entered, { timeout: 20_000 }).toBe(2);
    await page.goto(`${inspector.url}#/runs/run-in-progress`);
    await expect.poll(() => page.locator("h1").innerText()).toContain("running");
    expect(await page.locator(".live").count()).toBe(1);
    await expect.poll(() => page.locator(".timeline .row").count()).toBe(1);
    // Marks this document: a reload would lose the mark.
    await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
    gate.release();
    await expect.poll(() => page.locator('.timeline .row[data-path="second"]').count(), { timeout: 20_000 }).toBe(1);
    await shot("run-in-progress");
    await expect.poll(() => gate.entered, { timeout: 20_000 }).toBe(3);
    gate.release();
    await running;
    await expect.poll(() => page.locator("h1").innerText(), { timeout: 20_000 }).toContain("completed");
    expect(await page.locator('.timeline .row[data-path="third"]').count()).toBe(1);
    expect(await page.locator("svg.plan g.node.completed").count()).toBe(3);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("weighs what a first visit loads (HTML, CSS, scripts), with everything served by the inspector", async () => {
    const weights = new Map<string, number>();
    const onResponse = async (response: import("playwright-core").Response) => {
      if (response.url().includes("/api/")) return;
      weights.set(new URL(response.url()).pathname, (await response.body()).length);
    };
    const fresh = await context.newPage();
    fresh.on("response", (response) => void onResponse(response));
    await fresh.goto(`${inspector.url}#/runs/run-loop-fan`);
    await expect.poll(() => fresh.locator(".timeline .row").count()).toBeGreaterThan(0);
    await fresh.close();
    const total = [...weights.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect([...weights.keys()]).toEqual(expect.arrayContaining(["/", "/assets/inspector.css", "/assets/vendor/preact.mjs", "/assets/vendor/htm.mjs", "/assets/client/main.js"]));
    // Small by design: the layout runs on the server, the views are preact + htm.
    expect(total).toBeLessThan(100_000);
    process.stdout.write(`inspector page weight (uncompressed, without API data): ${total} bytes in ${weights.size} files\n`);
  });

  it("loaded nothing from anywhere but the inspector, and raised no page error", () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
