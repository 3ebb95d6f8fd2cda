import { expectTypeOf } from "vitest";
import type { ArtifactInput, EventEnvelope, World } from "./world.js";
import type { JsonValue } from "./json-value.js";
import { localWorld, type LocalWorld } from "./local-world.js";
import { memoryWorld } from "./memory-world.js";

declare const world: World;

// Both worlds are Worlds; the local one adds its own paths and settings.
expectTypeOf(memoryWorld()).toEqualTypeOf<World>();
expectTypeOf(localWorld).returns.toEqualTypeOf<LocalWorld>();
expectTypeOf<LocalWorld>().toMatchTypeOf<World>();

// One event or a batch; always resolves to an array of envelopes with JSON payloads.
expectTypeOf(world.appendEvents("run", { type: "A", payload: 1 })).resolves.toEqualTypeOf<EventEnvelope[]>();
expectTypeOf(world.appendEvents("run", [{ type: "A", payload: 1 }])).resolves.toEqualTypeOf<EventEnvelope[]>();
expectTypeOf<EventEnvelope["payload"]>().toEqualTypeOf<JsonValue>();

// Exactly one of bytes, text or json.
const text: ArtifactInput = { runId: "r", stepPath: "s", name: "n", text: "x" };
const json: ArtifactInput = { runId: "r", stepPath: "s", name: "n", json: { a: 1 } };
const bytes: ArtifactInput = { runId: "r", stepPath: "s", name: "n", bytes: new Uint8Array() };
// @ts-expect-error two contents at once
const both: ArtifactInput = { runId: "r", stepPath: "s", name: "n", text: "x", bytes: new Uint8Array() };
// @ts-expect-error no content
const none: ArtifactInput = { runId: "r", stepPath: "s", name: "n" };
void [text, json, bytes, both, none];
