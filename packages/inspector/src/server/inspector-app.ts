import type { World } from "@little-stack/local-world";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { inspectorAsset } from "./inspector-assets.js";
import { inspectorPage } from "./inspector-page.js";
import { inspectorStyles } from "./inspector-styles.js";
import { isUnfinished } from "./run-kind.js";
import { listRunRows, readRun, runView } from "./run-views.js";
import { stepView } from "./step-view.js";

/** How often a live page's log is read again. */
export const livePollMs = 250;

/**
 * The inspector's routes over a world it only reads: the page, its assets, a JSON API (runs, a
 * run, a step) and a server-sent-event stream per run that says when new events were committed.
 */
export function createInspectorApp(options: {
  readonly world: World;
  readonly pollMs?: number;
  /**
   * Host names (without port) a request may name in its Host header; others get 403. Default:
   * loopback names only, so a web page elsewhere cannot read the inspector through DNS rebinding.
   * Empty: any host (when you serve it on purpose beyond loopback).
   */
  readonly allowedHosts?: readonly string[];
}): Hono {
  const { world } = options;
  const pollMs = options.pollMs ?? livePollMs;
  const app = new Hono();
  const page = inspectorPage();

  const allowedHosts = new Set(options.allowedHosts ?? ["127.0.0.1", "localhost", "[::1]"]);
  app.use("*", async (context, next) => {
    const host = (context.req.header("host") ?? "").replace(/:\d+$/, "").toLowerCase();
    if (allowedHosts.size > 0 && !allowedHosts.has(host)) return context.text(`host ${host || "(none)"} is not served here`, 403);
    await next();
    context.header("X-Content-Type-Options", "nosniff");
    context.header("Referrer-Policy", "no-referrer");
    context.header("Cache-Control", "no-store");
  });

  app.get("/", (context) => {
    context.header("Content-Security-Policy", page.contentSecurityPolicy);
    return context.html(page.html);
  });
  app.get("/favicon.ico", (context) => context.body(null, 204));
  app.get("/assets/inspector.css", (context) => context.body(inspectorStyles, 200, { "Content-Type": "text/css; charset=utf-8" }));
  app.get("/assets/*", async (context) => {
    const asset = await inspectorAsset(context.req.path.slice("/assets/".length));
    if (asset === undefined) return context.text("not found", 404);
    return context.body(asset.body, 200, { "Content-Type": asset.contentType });
  });

  app.get("/api/runs", async (context) => context.json(await listRunRows(world, { workflow: context.req.query("workflow") ?? "", status: context.req.query("status") ?? "" })));
  app.get("/api/runs/:runId", async (context) => {
    const view = await runView(world, context.req.param("runId"));
    return view === undefined ? context.json({ error: `no run ${context.req.param("runId")} in this data dir` }, 404) : context.json(view);
  });
  app.get("/api/runs/:runId/steps/:stepPath", async (context) => {
    const view = await stepView(world, context.req.param("runId"), context.req.param("stepPath"));
    return view === undefined ? context.json({ error: `no step ${context.req.param("stepPath")} in run ${context.req.param("runId")}` }, 404) : context.json(view);
  });

  // Server-sent events: `events` whenever the run's log grew (the page then reloads its data),
  // `ended` once the run has ended. The log is polled read-only: the writer is another process.
  app.get("/api/runs/:runId/live", (context) => {
    const runId = context.req.param("runId");
    const after = Number(context.req.query("after") ?? "0");
    return streamSSE(context, async (stream) => {
      let seen = Number.isInteger(after) && after >= 0 ? after : 0;
      let aborted = false;
      let checked = false;
      stream.onAbort(() => {
        aborted = true;
      });
      while (!aborted) {
        const fresh = await world.listEvents(runId, { afterSequence: seen });
        if (fresh.length > 0) {
          seen = fresh.at(-1)!.sequence;
          await stream.writeSSE({ event: "events", data: JSON.stringify({ lastSequence: seen, types: fresh.map((event) => event.type) }) });
        }
        // Whether it ended can only change with new events (or be known at the first look).
        const run = fresh.length > 0 || !checked ? await readRun(world, runId) : undefined;
        checked = true;
        if (run !== undefined && !isUnfinished(run.row.status)) {
          await stream.writeSSE({ event: "ended", data: JSON.stringify({ status: run.row.status, lastSequence: seen }) });
          return;
        }
        await stream.sleep(pollMs);
      }
    });
  });

  app.notFound((context) => context.text("not found", 404));
  app.onError((error, context) => context.json({ error: error.message }, 500));
  return app;
}
