import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentId } from "@little-stack/canonical";
import { afterAll, describe, expect, it } from "vitest";
import { spawnFixture } from "./__fixtures__/child-process.js";
import { localWorld } from "./local-world.js";
import type { Durability } from "./durability.js";

/**
 * kill -9 at random moments, many times, against one run that every child resumes. After each
 * kill the log must hold every event the child reported committed, with no gap, no repeat and no
 * torn event, and every artifact it reported (or an event references) must read back with its
 * hash. `LITTLE_CRASH_KILLS=1000` runs the long version.
 */
const kills = Number(process.env.LITTLE_CRASH_KILLS ?? 20);
/** Optional file that receives a progress line every 50 kills (for long runs). */
const progressFile = process.env.LITTLE_CRASH_PROGRESS_FILE;
const root = mkdtempSync(join(tmpdir(), "local-world-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const delay = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe("localWorld under SIGKILL", () => {
  it(`loses nothing committed across ${kills} kills`, { timeout: 30_000 + kills * 10_000 }, async () => {
    const dataDir = join(root, "world");
    const runId = "run-crash";
    const reportedEvents = new Map<number, string>();
    const reportedArtifacts = new Map<string, string>();
    let previousCount = 0;
    let artifactsCheckedUpTo = 0;
    const checkedArtifacts = new Set<string>();
    let killedBeforeReady = 0;
    let killedWhileWriting = 0;
    // Rounds where the kill fell after a commit and before its report reached us: the window
    // that matters most, counted to show the kills really land inside it.
    let killedBetweenCommitAndReport = 0;

    for (let round = 0; round < kills; round += 1) {
      // Both modes promise to survive a process kill; alternate them.
      const durability: Durability = round % 2 === 0 ? "strict" : "process";
      const writer = spawnFixture("crash-writer.ts", [dataDir, runId, durability]);
      if (round % 5 === 4) {
        // Sometimes while it is still opening (WAL recovery, schema, resume read).
        await delay(Math.random() * 600);
        killedBeforeReady += 1;
      } else {
        await writer.waitForLine((line) => line === "ready");
        await delay(Math.random() * 60);
        killedWhileWriting += 1;
      }
      writer.child.kill("SIGKILL");
      const exit = await writer.exited;
      if (exit.signal !== "SIGKILL") {
        throw new Error(`round ${round + 1}: the writer exited on its own (${String(exit.code)}):\n${writer.stderr()}`);
      }
      for (const line of writer.lines) {
        const [kind, first, second] = line.split(" ");
        if (kind === "committed") reportedEvents.set(Number(first), second!);
        if (kind === "artifact") reportedArtifacts.set(first!, second!);
      }

      const world = localWorld({ dataDir });
      try {
        const events = await world.listEvents(runId);
        expect(events.length).toBeGreaterThanOrEqual(previousCount);
        if (events.length > Math.max(0, ...reportedEvents.keys())) killedBetweenCommitAndReport += 1;
        previousCount = events.length;
        const ids = new Set<string>();
        events.forEach((event, index) => {
          expect(event.sequence).toBe(index + 1);
          // Not torn: the stored fields still hash to the stored id.
          expect(event.eventId).toBe(
            contentId("evt", { runId, sequence: event.sequence, type: event.type, payload: event.payload }),
          );
          ids.add(event.eventId);
        });
        expect(ids.size).toBe(events.length);
        for (const [sequence, eventId] of reportedEvents) {
          expect(events[sequence - 1]?.eventId, `reported event ${sequence}`).toBe(eventId);
        }
        // Artifacts are immutable once renamed into place, so each is read back (re-hashed) after
        // the kill that follows its creation, and all of them once more at the end.
        for (const event of events.slice(artifactsCheckedUpTo)) {
          if (event.type !== "ArtifactCreated") continue;
          const { artifactId, sha256 } = event.payload as { artifactId: string; sha256: string };
          expect((await world.readArtifact(artifactId)).manifest.sha256).toBe(sha256);
        }
        artifactsCheckedUpTo = events.length;
        for (const [artifactId, sha256] of reportedArtifacts) {
          if (checkedArtifacts.has(artifactId)) continue;
          expect((await world.readArtifact(artifactId)).manifest.sha256).toBe(sha256);
          checkedArtifacts.add(artifactId);
        }
        if (progressFile !== undefined && ((round + 1) % 50 === 0 || round + 1 === kills)) {
          appendFileSync(
            progressFile,
            `${new Date().toISOString()} kills checked: ${round + 1}/${kills}, events: ${events.length}, reported committed: ${reportedEvents.size}, artifacts reported: ${reportedArtifacts.size}, kills between commit and report: ${killedBetweenCommitAndReport}, while opening: ${killedBeforeReady}\n`,
          );
        }
      } catch (error) {
        throw new Error(`after kill ${round + 1} of ${kills} (${durability}): ${(error as Error).message}`, { cause: error });
      } finally {
        await world.close();
      }
    }

    const finalWorld = localWorld({ dataDir });
    try {
      for (const event of await finalWorld.listEvents(runId)) {
        if (event.type !== "ArtifactCreated") continue;
        const { artifactId, sha256 } = event.payload as { artifactId: string; sha256: string };
        expect((await finalWorld.readArtifact(artifactId)).manifest.sha256).toBe(sha256);
      }
      for (const [artifactId, sha256] of reportedArtifacts) {
        expect((await finalWorld.readArtifact(artifactId)).manifest.sha256).toBe(sha256);
      }
    } finally {
      await finalWorld.close();
    }

    console.info(
      `crash test: ${kills} kills (${killedWhileWriting} while writing, ${killedBeforeReady} while opening, ` +
        `${killedBetweenCommitAndReport} between a commit and its report), ` +
        `${previousCount} events in the log, ${reportedEvents.size} reported committed, ${reportedArtifacts.size} artifacts reported`,
    );
    expect(reportedEvents.size).toBeGreaterThan(0);
    expect(previousCount).toBeGreaterThanOrEqual(reportedEvents.size);
  });
});
