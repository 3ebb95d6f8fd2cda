import { CanonicalText, contentId, LittleWorkflowError, sha256DigestOfBytes } from "@little-stack/canonical";
import { afterEach, describe, expect, it } from "vitest";
import type { EventEnvelope, World } from "../world.js";

export type WorldConformanceOptions = {
  /**
   * Changes the stored bytes of an artifact behind the world's back, so the suite can check that
   * reads detect it. Omit it when the storage offers no way to do that; the check is then left out.
   */
  readonly tamperArtifact?: (world: World, artifactId: string) => Promise<void>;
  /**
   * Damages one stored event behind the world's back, so the suite can check that reads refuse it
   * with `world.event_log_corrupt` naming the run and the sequence: `"payload"` replaces the
   * payload with other valid JSON, `"type"` changes the type to another valid type, `"unparsable"`
   * makes the stored payload text something that is not JSON. Omit it when the storage offers no
   * way to do that; the check is then left out.
   */
  readonly tamperEvent?: (world: World, event: { readonly runId: string; readonly sequence: number; readonly damage: EventDamage }) => Promise<void>;
  /**
   * Makes the current holder of a run's lock count as gone, as the world would see it after the
   * holder died or stopped renewing (a dead pid for a process lock, a lapsed lease), so the suite
   * can check takeovers and fencing. Omit it when the storage offers no way; the check is left out.
   */
  readonly loseRunLock?: (world: World, runId: string) => Promise<void>;
  /**
   * The world leaves out the optional `deferListEvents` (the runtime then reads a completed run's
   * events at once): the suite checks that it is absent instead of how it reads.
   */
  readonly withoutDeferListEvents?: true;
};

/** How `tamperEvent` damages a stored event. */
export type EventDamage = "payload" | "type" | "unparsable";

/**
 * The behaviour every `World` must have, as a vitest suite. Call it from a test file:
 *
 * ```ts
 * describeWorldConformance("postgresWorld", async () => postgresWorld({ url: freshDatabase() }));
 * ```
 *
 * `makeWorld` must return a fresh, empty world each time; the suite closes every world it makes.
 */
export function describeWorldConformance(
  name: string,
  makeWorld: () => World | Promise<World>,
  options: WorldConformanceOptions = {},
): void {
  describe(`World conformance: ${name}`, () => {
    const opened: World[] = [];

    async function fresh(): Promise<World> {
      const world = await makeWorld();
      opened.push(world);
      return world;
    }

    afterEach(async () => {
      for (const world of opened.splice(0)) await world.close();
    });

    async function expectCode(promise: Promise<unknown>, code: string): Promise<LittleWorkflowError> {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(LittleWorkflowError.is(error, code), `expected a ${code} error, got ${String(error)}`).toBe(true);
      return error as LittleWorkflowError;
    }

    describe("events", () => {
      it("appends one event and resolves to its envelope", async () => {
        const world = await fresh();
        const [envelope] = await world.appendEvents("run-a", { type: "RunStarted", payload: { input: { x: 1 } } });
        expect(envelope).toEqual({
          eventId: contentId("evt", { runId: "run-a", sequence: 1, type: "RunStarted", payload: { input: { x: 1 } } }),
          runId: "run-a",
          sequence: 1,
          type: "RunStarted",
          recordedAt: expect.any(String),
          payload: { input: { x: 1 } },
        });
        expect(new Date(envelope!.recordedAt).toISOString()).toBe(envelope!.recordedAt);
      });

      it("appends a batch atomically with dense sequences following the last one", async () => {
        const world = await fresh();
        await world.appendEvents("run-a", [{ type: "RunStarted", payload: {} }]);
        const batch = await world.appendEvents("run-a", [
          { type: "StepScheduled", payload: { stepPath: "a" } },
          { type: "StepAttemptStarted", payload: { stepPath: "a", attempt: 1 } },
          { type: "StepCompleted", payload: { stepPath: "a" } },
        ]);
        expect(batch.map((event) => event.sequence)).toEqual([2, 3, 4]);
        const listed = await world.listEvents("run-a");
        expect(listed.map((event) => [event.sequence, event.type])).toEqual([
          [1, "RunStarted"],
          [2, "StepScheduled"],
          [3, "StepAttemptStarted"],
          [4, "StepCompleted"],
        ]);
        expect(listed.slice(1)).toEqual(batch);
      });

      it("gives every event the deterministic id of { runId, sequence, type, payload }", async () => {
        const world = await fresh();
        const payload = { b: [1, 2.5, "x"], a: { nested: true, empty: null } };
        const stored = await world.appendEvents("run-ids", [
          { type: "Custom.one", payload },
          { type: "Custom.two", payload: "text" },
        ]);
        expect(stored.map((event) => event.eventId)).toEqual([
          contentId("evt", { runId: "run-ids", sequence: 1, type: "Custom.one", payload }),
          contentId("evt", { runId: "run-ids", sequence: 2, type: "Custom.two", payload: "text" }),
        ]);
        const other = await fresh();
        const again = await other.appendEvents("run-ids", [
          { type: "Custom.one", payload },
          { type: "Custom.two", payload: "text" },
        ]);
        expect(again.map((event) => event.eventId)).toEqual(stored.map((event) => event.eventId));
      });

      it("keeps sequences independent per run", async () => {
        const world = await fresh();
        await world.appendEvents("run-a", [{ type: "A", payload: 1 }, { type: "A", payload: 2 }]);
        const [first] = await world.appendEvents("run-b", { type: "B", payload: 1 });
        expect(first!.sequence).toBe(1);
        expect((await world.listEvents("run-a")).length).toBe(2);
      });

      it("lists after a sequence and by type prefix", async () => {
        const world = await fresh();
        await world.appendEvents("run-f", [
          { type: "RunStarted", payload: {} },
          { type: "harness.tool_call.started", payload: { n: 1 } },
          { type: "harness.model.called", payload: { n: 2 } },
          { type: "harness.tool_call.succeeded", payload: { n: 3 } },
          { type: "RunCompleted", payload: {} },
        ]);
        const sequences = (events: EventEnvelope[]) => events.map((event) => event.sequence);
        expect(sequences(await world.listEvents("run-f", { afterSequence: 3 }))).toEqual([4, 5]);
        expect(sequences(await world.listEvents("run-f", { typePrefix: "harness.tool_call." }))).toEqual([2, 4]);
        expect(sequences(await world.listEvents("run-f", { typePrefix: "harness.", afterSequence: 2 }))).toEqual([3, 4]);
        expect(sequences(await world.listEvents("run-f", { afterSequence: 5 }))).toEqual([]);
        expect(sequences(await world.listEvents("run-f", { typePrefix: "Nothing" }))).toEqual([]);
      });

      it("returns [] for a run with no events", async () => {
        const world = await fresh();
        expect(await world.listEvents("never-seen")).toEqual([]);
        expect(await world.getRun("never-seen")).toBeUndefined();
      });

      it("resolves [] for an empty batch and stores nothing", async () => {
        const world = await fresh();
        expect(await world.appendEvents("run-empty", [])).toEqual([]);
        expect(await world.getRun("run-empty")).toBeUndefined();
      });

      it("rejects a payload that is not plain JSON, naming the event and path, and stores nothing of the batch", async () => {
        const world = await fresh();
        await world.appendEvents("run-bad", { type: "RunStarted", payload: {} });
        const badPayloads: Array<[unknown, string]> = [
          [{ when: new Date(0) }, "$.when"],
          [{ list: [1, undefined] }, "$.list[1]"],
          [{ n: Number.NaN }, "$.n"],
          [{ big: 10n }, "$.big"],
          [{ run: () => 1 }, "$.run"],
          [undefined, "$"],
        ];
        for (const [payload, path] of badPayloads) {
          const error = await expectCode(
            world.appendEvents("run-bad", [
              { type: "Fine", payload: { ok: true } },
              { type: "Broken", payload },
            ]),
            "world.invalid_event",
          );
          expect(error.details).toMatchObject({ index: 1, path });
          expect(error.message).toContain(path);
        }
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        await expectCode(world.appendEvents("run-bad", { type: "Cyclic", payload: cyclic }), "world.invalid_event");
        expect((await world.listEvents("run-bad")).map((event) => event.type)).toEqual(["RunStarted"]);
      });

      it("rejects malformed event types and run ids", async () => {
        const world = await fresh();
        await expectCode(world.appendEvents("run-x", { type: "", payload: 1 }), "world.invalid_event");
        await expectCode(world.appendEvents("run-x", { type: "has space", payload: 1 }), "world.invalid_event");
        await expectCode(world.appendEvents("run-x", { payload: 1 } as never), "world.invalid_event");
        await expectCode(world.appendEvents("../escape", { type: "A", payload: 1 }), "world.invalid_id");
        await expectCode(world.appendEvents("", { type: "A", payload: 1 }), "world.invalid_id");
        await expectCode(world.listEvents("a/b"), "world.invalid_id");
        await expectCode(world.listEvents("run-x", { afterSequence: -1 }), "world.invalid_list_options");
        expect(await world.getRun("run-x")).toBeUndefined();
      });

      it("stores an event given with its sealed canonical payload exactly as one given without", async () => {
        const payload = { b: [1, 2.5, "x"], a: { nested: true, empty: null } };
        const plain = await (await fresh()).appendEvents("run-sealed", { type: "Custom.one", payload });
        const world = await fresh();
        const [sealed] = await world.appendEvents("run-sealed", { type: "Custom.one", payload, canonicalPayload: CanonicalText.of(payload) });
        expect(sealed!.eventId).toBe(plain[0]!.eventId);
        expect(sealed!.payload).toEqual(payload);
        const [listed] = await world.listEvents("run-sealed");
        expect(listed!.payload).toEqual(payload);
        // A look-alike is not sealed: the world serializes `payload` and never stores its text.
        const forged = { json: '{"forged":true}' } as unknown as CanonicalText;
        const [second] = await world.appendEvents("run-sealed", { type: "Custom.one", payload, canonicalPayload: forged });
        expect(second!.payload).toEqual(payload);
        expect((await world.listEvents("run-sealed")).map((event) => event.payload)).toEqual([payload, payload]);
      });

      it("stores canonical JSON and hands out detached copies", async () => {
        const world = await fresh();
        const payload = { z: 1, a: [{ y: -0, x: "é" }] };
        const [stored] = await world.appendEvents("run-copy", { type: "A", payload });
        payload.z = 99;
        payload.a.push({ y: 1, x: "changed" });
        expect(stored!.payload).toEqual({ a: [{ x: "é", y: 0 }], z: 1 });
        const [listed] = await world.listEvents("run-copy");
        expect(listed!.payload).toEqual({ a: [{ x: "é", y: 0 }], z: 1 });
        (listed!.payload as { z: number }).z = 5;
        const [again] = await world.listEvents("run-copy");
        expect((again!.payload as { z: number }).z).toBe(1);
      });

      if (options.tamperEvent !== undefined) {
        const tamper = options.tamperEvent;
        for (const damage of ["payload", "type", "unparsable"] as const) {
          it(`refuses an event whose ${damage === "unparsable" ? "payload is not JSON" : damage} was changed behind its back, naming the run and sequence`, async () => {
            const world = await fresh();
            await world.appendEvents("run-damaged", [
              { type: "RunStarted", payload: { n: 1 } },
              { type: "StepCompleted", payload: { n: 11 } },
              { type: "RunCompleted", payload: { n: 12 } },
            ]);
            await world.appendEvents("run-sound", { type: "RunStarted", payload: { n: 1 } });
            await tamper(world, { runId: "run-damaged", sequence: 2, damage });
            for (const read of [() => world.listEvents("run-damaged"), () => world.listEvents("run-damaged", { afterSequence: 1 })]) {
              const error = await expectCode(read(), "world.event_log_corrupt");
              expect(error.details).toMatchObject({ runId: "run-damaged", sequence: 2 });
              expect(error.message).toContain("run-damaged");
            }
            // Events after the damage, and other runs, still read.
            expect((await world.listEvents("run-damaged", { afterSequence: 2 })).map((event) => event.sequence)).toEqual([3]);
            expect((await world.listEvents("run-sound")).map((event) => event.payload)).toEqual([{ n: 1 }]);
          });
        }
      }

      if (options.withoutDeferListEvents === true) {
        it("has no deferListEvents (left out, as declared)", async () => {
          const world = await fresh();
          expect(world.deferListEvents).toBeUndefined();
        });
      } else {
        it("defers a listing: read() returns what listEvents does, with the same options, the same array on every call", async () => {
          const world = await fresh();
          await world.appendEvents("run-d", [
            { type: "RunStarted", payload: { n: 1 } },
            { type: "harness.tool_call.started", payload: { n: 2 } },
            { type: "harness.tool_call.succeeded", payload: { n: 3 } },
            { type: "RunCompleted", payload: { n: 4 } },
          ]);
          const defer = world.deferListEvents!.bind(world);
          for (const listOptions of [undefined, { afterSequence: 2 }, { typePrefix: "harness." }, { typePrefix: "Run", afterSequence: 1 }, { afterSequence: 4 }]) {
            const deferred = await defer("run-d", listOptions);
            const read = deferred.read();
            expect(read).toEqual(await world.listEvents("run-d", listOptions));
            expect(deferred.read()).toBe(read);
          }
          expect((await defer("never-seen")).read()).toEqual([]);
          await expectCode(defer("run-d", { afterSequence: -1 }), "world.invalid_list_options");
          await expectCode(defer("not a run id!"), "world.invalid_id");
        });

        it("keeps a deferred listing readable after close, and refuses new ones", async () => {
          const world = await fresh();
          await world.appendEvents("run-e", [
            { type: "RunStarted", payload: { n: 1 } },
            { type: "RunCompleted", payload: { n: 2 } },
          ]);
          const expected = await world.listEvents("run-e");
          const deferred = await world.deferListEvents!("run-e");
          await world.close();
          expect(deferred.read()).toEqual(expected);
          await expectCode(world.deferListEvents!("run-e"), "world.closed");
        });

        if (options.tamperEvent !== undefined) {
          const tamper = options.tamperEvent;
          it("refuses a damaged event when a deferred listing is read, naming the run and sequence, on every read", async () => {
            const world = await fresh();
            await world.appendEvents("run-damaged", [
              { type: "RunStarted", payload: { n: 1 } },
              { type: "StepCompleted", payload: { n: 11 } },
              { type: "RunCompleted", payload: { n: 12 } },
            ]);
            await tamper(world, { runId: "run-damaged", sequence: 2, damage: "payload" });
            const deferred = await world.deferListEvents!("run-damaged");
            const thrown = (): unknown => {
              try {
                deferred.read();
              } catch (caught) {
                return caught;
              }
              return undefined;
            };
            const error = thrown();
            expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), `expected world.event_log_corrupt, got ${String(error)}`).toBe(true);
            expect((error as LittleWorkflowError).details).toMatchObject({ runId: "run-damaged", sequence: 2 });
            expect(thrown()).toBe(error);
            expect((await world.deferListEvents!("run-damaged", { afterSequence: 2 })).read().map((event) => event.sequence)).toEqual([3]);
          });
        }
      }

      it("stores a durable: false batch like any other: sequenced, listed, summarized, followed by durable ones", async () => {
        const world = await fresh();
        const soft = await world.appendEvents("run-soft", [{ type: "RunStarted", payload: {} }, { type: "StepScheduled", payload: { stepPath: "a" } }], { durable: false });
        expect(soft.map((event) => event.sequence)).toEqual([1, 2]);
        expect((await world.listEvents("run-soft")).map((event) => event.type)).toEqual(["RunStarted", "StepScheduled"]);
        expect((await world.getRun("run-soft"))?.eventCount).toBe(2);
        const durable = await world.appendEvents("run-soft", { type: "StepCompleted", payload: { stepPath: "a" } }, { durable: true });
        const again = await world.appendEvents("run-soft", { type: "RunCompleted", payload: {} }, { durable: false });
        expect([durable[0]!.sequence, again[0]!.sequence]).toEqual([3, 4]);
        const listed = await world.listEvents("run-soft");
        expect(listed.map((event) => event.eventId)).toEqual([...soft, ...durable, ...again].map((event) => event.eventId));
        expect((await world.getRun("run-soft"))?.lastEventType).toBe("RunCompleted");
      });

      it("rejects a durable option that is not a boolean, storing nothing", async () => {
        const world = await fresh();
        for (const durable of ["false", 0, null, {}]) {
          const error = await expectCode(world.appendEvents("run-bad-durable", { type: "A", payload: 1 }, { durable } as never), "world.invalid_append_option");
          expect(error.message).toContain('"durable" must be true or false');
        }
        expect(await world.getRun("run-bad-durable")).toBeUndefined();
      });

      it("keeps sequences dense under concurrent appends from one process", async () => {
        const world = await fresh();
        await Promise.all(
          Array.from({ length: 25 }, (_, index) =>
            world.appendEvents("run-concurrent", index % 2 === 0
              ? { type: "Single", payload: { index } }
              : [{ type: "Pair", payload: { index, half: 1 } }, { type: "Pair", payload: { index, half: 2 } }]),
          ),
        );
        const events = await world.listEvents("run-concurrent");
        expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 37 }, (_, index) => index + 1));
        // A batch stays contiguous.
        for (let index = 0; index < events.length; index += 1) {
          const payload = events[index]!.payload as { half?: number; index: number };
          if (payload.half === 1) expect(events[index + 1]!.payload).toEqual({ index: payload.index, half: 2 });
        }
      });
    });

    describe("runs", () => {
      it("summarizes each run with counts, first and last events", async () => {
        const world = await fresh();
        await world.appendEvents("run-1", [{ type: "RunStarted", payload: {} }, { type: "StepCompleted", payload: {} }]);
        await world.appendEvents("run-2", { type: "RunStarted", payload: {} });
        await world.appendEvents("run-1", { type: "RunCompleted", payload: {} });
        const runs = await world.listRuns();
        expect(runs.map((run) => run.runId).sort()).toEqual(["run-1", "run-2"]);
        const first = runs.find((run) => run.runId === "run-1")!;
        const events = await world.listEvents("run-1");
        expect(first).toEqual({
          runId: "run-1",
          eventCount: 3,
          firstEventType: "RunStarted",
          firstRecordedAt: events[0]!.recordedAt,
          lastEventType: "RunCompleted",
          lastRecordedAt: events[2]!.recordedAt,
        });
        expect(await world.getRun("run-1")).toEqual(first);
        expect(runs[0]!.firstRecordedAt <= runs[1]!.firstRecordedAt).toBe(true);
      });

      it("lists no runs in an empty world", async () => {
        const world = await fresh();
        expect(await world.listRuns()).toEqual([]);
      });
    });

    describe("artifacts", () => {
      async function started(world: World, runId = "run-art"): Promise<void> {
        await world.appendEvents(runId, { type: "RunStarted", payload: {} });
      }

      it("writes and reads bytes, text and JSON with content-addressed manifests", async () => {
        const world = await fresh();
        await started(world);
        const bytes = new Uint8Array([0, 1, 2, 255]);
        const binary = await world.writeArtifact({ runId: "run-art", stepPath: "fetch", name: "raw.bin", bytes });
        expect(binary).toEqual({
          id: contentId("art", {
            runId: "run-art",
            stepPath: "fetch",
            name: "raw.bin",
            contentType: "application/octet-stream",
            encoding: "binary",
            sha256: sha256DigestOfBytes(bytes),
            size: 4,
          }),
          runId: "run-art",
          stepPath: "fetch",
          name: "raw.bin",
          contentType: "application/octet-stream",
          encoding: "binary",
          sha256: sha256DigestOfBytes(bytes),
          size: 4,
        });
        const read = await world.readArtifact(binary.id);
        expect(read.manifest).toEqual(binary);
        expect([...read.bytes]).toEqual([0, 1, 2, 255]);

        const text = await world.writeArtifact({ runId: "run-art", stepPath: "write", name: "notes.md", text: "héllo ✓", contentType: "text/markdown" });
        expect(text).toMatchObject({ encoding: "utf-8", contentType: "text/markdown", size: Buffer.byteLength("héllo ✓") });
        expect(await world.readArtifactText(text.id)).toBe("héllo ✓");

        const json = await world.writeArtifact({ runId: "run-art", stepPath: "", name: "output.json", json: { b: 1, a: [true, null] } });
        expect(json).toMatchObject({ encoding: "json", contentType: "application/json", stepPath: "" });
        expect(await world.readArtifactText(json.id)).toBe('{"a":[true,null],"b":1}');
        expect(await world.readArtifactJson(json.id)).toEqual({ a: [true, null], b: 1 });
        expect(await world.getArtifactManifest(json.id)).toEqual(json);
      });

      it("gives the same content the same id and different content a different one", async () => {
        const world = await fresh();
        await started(world);
        const first = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "a.txt", text: "same" });
        const second = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "a.txt", text: "same" });
        const other = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "a.txt", text: "different" });
        expect(second).toEqual(first);
        expect(other.id).not.toBe(first.id);
        expect(await world.readArtifactText(first.id)).toBe("same");
        expect(await world.readArtifactText(other.id)).toBe("different");
      });

      it("hands out copies: changing the input or the read bytes changes nothing stored", async () => {
        const world = await fresh();
        await started(world);
        const bytes = new Uint8Array([1, 2, 3]);
        const manifest = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "b", bytes });
        bytes[0] = 9;
        const read = await world.readArtifact(manifest.id);
        read.bytes[1] = 9;
        expect([...(await world.readArtifact(manifest.id)).bytes]).toEqual([1, 2, 3]);
      });

      it("refuses artifacts of a run that has no events", async () => {
        const world = await fresh();
        await expectCode(world.writeArtifact({ runId: "no-such-run", stepPath: "s", name: "a", text: "x" }), "world.unknown_run");
      });

      it("rejects malformed artifacts and unknown ids", async () => {
        const world = await fresh();
        await started(world);
        await expectCode(world.writeArtifact({ runId: "run-art", stepPath: "s", name: "a", json: { d: new Date() } }), "world.invalid_artifact");
        await expectCode(world.writeArtifact({ runId: "run-art", stepPath: "s", name: "", text: "x" }), "world.invalid_artifact");
        await expectCode(world.writeArtifact({ runId: "run-art", stepPath: "s", name: "../x", text: "x" }), "world.invalid_artifact");
        await expectCode(
          world.writeArtifact({ runId: "run-art", stepPath: "s", name: "both", text: "x", bytes: new Uint8Array() } as never),
          "world.invalid_artifact",
        );
        await expectCode(world.readArtifact("art_0000000000000000"), "world.artifact_not_found");
        await expectCode(world.readArtifact("not-an-id"), "world.invalid_id");
        expect(await world.getArtifactManifest("art_0000000000000000")).toBeUndefined();
        const binary = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "b", bytes: new Uint8Array([0xff, 0xfe]) });
        await expectCode(world.readArtifactText(binary.id), "world.invalid_artifact");
        await expectCode(world.readArtifactJson(binary.id), "world.invalid_artifact");
      });

      if (options.tamperArtifact !== undefined) {
        const tamper = options.tamperArtifact;
        it("detects an artifact changed behind its back", async () => {
          const world = await fresh();
          await started(world);
          const manifest = await world.writeArtifact({ runId: "run-art", stepPath: "s", name: "t", text: "original" });
          await tamper(world, manifest.id);
          await expectCode(world.readArtifact(manifest.id), "world.artifact_integrity");
          await expectCode(world.readArtifactText(manifest.id), "world.artifact_integrity");
        });
      }
    });

    describe("run locks", () => {
      it("gives one holder at a time and refuses a second one by name", async () => {
        const world = await fresh();
        const lock = await world.acquireRunLock("run-lock");
        expect(lock).toMatchObject({ runId: "run-lock", pid: process.pid });
        expect(lock.token).toMatch(/^[0-9a-f]{32}$/);
        const error = await expectCode(world.acquireRunLock("run-lock"), "world.run_locked");
        expect(error.message).toContain("run-lock");
        expect(error.message).toContain(String(process.pid));
        const other = await world.acquireRunLock("run-other");
        await lock.release();
        await lock.release();
        const again = await world.acquireRunLock("run-lock");
        expect(again.token).not.toBe(lock.token);
        // Releasing an old handle never frees the new holder's lock.
        await lock.release();
        await expectCode(world.acquireRunLock("run-lock"), "world.run_locked");
        await again.release();
        await other.release();
      });

      it("lets exactly one of many concurrent callers win", async () => {
        const world = await fresh();
        const results = await Promise.allSettled(Array.from({ length: 10 }, () => world.acquireRunLock("run-race")));
        expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
        for (const result of results) {
          if (result.status === "rejected") expect(LittleWorkflowError.is(result.reason, "world.run_locked")).toBe(true);
        }
      });

      it("rejects a malformed run id", async () => {
        const world = await fresh();
        await expectCode(world.acquireRunLock("../../etc"), "world.invalid_id");
      });
    });

    describe("fencing", () => {
      it("numbers every acquisition of a run with a fence that only grows, per run", async () => {
        const world = await fresh();
        const first = await world.acquireRunLock("run-fence");
        expect(Number.isSafeInteger(first.fence) && first.fence >= 1).toBe(true);
        expect(typeof first.holder).toBe("string");
        expect(first.signal.aborted).toBe(false);
        const other = await world.acquireRunLock("run-fence-other");
        await first.release();
        const second = await world.acquireRunLock("run-fence");
        expect(second.fence).toBeGreaterThan(first.fence);
        await second.release();
        const third = await world.acquireRunLock("run-fence");
        expect(third.fence).toBeGreaterThan(second.fence);
        expect(second.signal.aborted).toBe(false);
        await third.release();
        await other.release();
      });

      it("stores an append naming the held fence and refuses a stale or unknown one with world.lease_lost, storing nothing", async () => {
        const world = await fresh();
        const first = await world.acquireRunLock("run-fenced");
        const [started] = await world.appendEvents("run-fenced", { type: "RunStarted", payload: {} }, { fence: first.fence });
        expect(started!.sequence).toBe(1);
        await first.release();
        const afterRelease = await expectCode(
          world.appendEvents("run-fenced", [{ type: "A", payload: 1 }, { type: "B", payload: 2 }], { fence: first.fence }),
          "world.lease_lost",
        );
        expect(afterRelease.message).toContain("run-fenced");
        const second = await world.acquireRunLock("run-fenced");
        await expectCode(world.appendEvents("run-fenced", { type: "Stale", payload: 1 }, { fence: first.fence }), "world.lease_lost");
        await expectCode(world.appendEvents("run-fenced", { type: "Future", payload: 1 }, { fence: second.fence + 1 }), "world.lease_lost");
        await expectCode(world.appendEvents("run-unheld", { type: "A", payload: 1 }, { fence: 1 }), "world.lease_lost");
        const batch = await world.appendEvents(
          "run-fenced",
          [{ type: "StepCompleted", payload: { stepPath: "a" } }, { type: "RunCompleted", payload: {} }],
          { fence: second.fence },
        );
        expect(batch.map((event) => event.sequence)).toEqual([2, 3]);
        expect((await world.listEvents("run-fenced")).map((event) => event.type)).toEqual(["RunStarted", "StepCompleted", "RunCompleted"]);
        expect(await world.getRun("run-unheld")).toBeUndefined();
        await second.release();
      });

      it("rejects a fence that is not a positive integer, storing nothing", async () => {
        const world = await fresh();
        for (const fence of [0, -1, 1.5, Number.NaN, "1"]) {
          await expectCode(world.appendEvents("run-bad-fence", { type: "A", payload: 1 }, { fence } as never), "world.invalid_fence");
        }
        expect(await world.getRun("run-bad-fence")).toBeUndefined();
      });

      it("keeps fenced appends from one holder dense under concurrency", async () => {
        const world = await fresh();
        const lock = await world.acquireRunLock("run-fenced-concurrent");
        await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            world.appendEvents("run-fenced-concurrent", { type: "Single", payload: { index } }, { fence: lock.fence }),
          ),
        );
        const events = await world.listEvents("run-fenced-concurrent");
        expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
        await lock.release();
      });

      if (options.loseRunLock !== undefined) {
        const loseRunLock = options.loseRunLock;
        it("lets another holder take over a lock whose holder is gone, with a bigger fence; the old fence is refused", async () => {
          const world = await fresh();
          const old = await world.acquireRunLock("run-takeover");
          await world.appendEvents("run-takeover", { type: "RunStarted", payload: {} }, { fence: old.fence });
          await loseRunLock(world, "run-takeover");
          // The suite's worlds are separate stores, so the taker is this same world (another caller).
          const taker = world;
          const current = await taker.acquireRunLock("run-takeover");
          expect(current.fence).toBeGreaterThan(old.fence);
          expect(current.recoveredFrom).toMatchObject({ runId: "run-takeover", token: old.token });
          await expectCode(world.appendEvents("run-takeover", { type: "StepCompleted", payload: { by: "old" } }, { fence: old.fence }), "world.lease_lost");
          await taker.appendEvents("run-takeover", { type: "StepCompleted", payload: { by: "new" } }, { fence: current.fence });
          expect((await taker.listEvents("run-takeover")).map((event) => event.payload)).toEqual([{}, { by: "new" }]);
          // The old handle's release never frees the new holder's lock.
          await old.release();
          await expectCode(taker.acquireRunLock("run-takeover"), "world.run_locked");
          await current.release();
        });
      }
    });

    describe("outer-loop manifests", () => {
      it("reads undefined before the first write, then the last manifest written", async () => {
        const world = await fresh();
        expect(await world.readOuterLoopManifest("loop-1")).toBeUndefined();
        await world.writeOuterLoopManifest("loop-1", { cycle: 1, pendingCycleRunId: "run-1", cycles: [] });
        await world.writeOuterLoopManifest("loop-1", { cycle: 2, pendingCycleRunId: "run-2", cycles: [{ runId: "run-1" }] });
        expect(await world.readOuterLoopManifest("loop-1")).toEqual({ cycle: 2, pendingCycleRunId: "run-2", cycles: [{ runId: "run-1" }] });
        expect(await world.readOuterLoopManifest("loop-2")).toBeUndefined();
      });

      it("rejects a manifest that is not a JSON object and keeps the previous one", async () => {
        const world = await fresh();
        await world.writeOuterLoopManifest("loop-1", { cycle: 1 });
        await expectCode(world.writeOuterLoopManifest("loop-1", [] as never), "world.invalid_outer_loop_manifest");
        await expectCode(world.writeOuterLoopManifest("loop-1", { at: new Date() } as never), "world.invalid_outer_loop_manifest");
        await expectCode(world.writeOuterLoopManifest("../x", { cycle: 1 }), "world.invalid_id");
        expect(await world.readOuterLoopManifest("loop-1")).toEqual({ cycle: 1 });
      });
    });

    describe("configuration and lifecycle", () => {
      it("exposes the data-dir roots and maxConcurrentSteps", async () => {
        const world = await fresh();
        const { paths } = world;
        expect(paths.memory.startsWith(paths.dataDir)).toBe(true);
        for (const path of [paths.memoryWorkflows, paths.memoryPipelines, paths.memoryOrg]) {
          expect(path.startsWith(paths.memory)).toBe(true);
        }
        expect(paths.runs.startsWith(paths.dataDir)).toBe(true);
        expect(paths.skillsCache.startsWith(paths.dataDir)).toBe(true);
        expect(Number.isSafeInteger(world.maxConcurrentSteps) && world.maxConcurrentSteps >= 1).toBe(true);
      });

      it("refuses every call after close, and close is idempotent", async () => {
        const world = await fresh();
        await world.appendEvents("run-c", { type: "A", payload: 1 });
        await world.close();
        await world.close();
        await expectCode(world.appendEvents("run-c", { type: "A", payload: 2 }), "world.closed");
        await expectCode(world.listEvents("run-c"), "world.closed");
        await expectCode(world.listRuns(), "world.closed");
        await expectCode(world.acquireRunLock("run-c"), "world.closed");
        await expectCode(world.readOuterLoopManifest("loop"), "world.closed");
      });
    });
  });
}
