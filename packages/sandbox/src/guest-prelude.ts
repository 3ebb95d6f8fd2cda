/**
 * Guest-side JavaScript evaluated in every fresh QuickJS context before the step's modules.
 * It is a function expression; the worker calls it with (configJson, hostCallTool, hostLog) and
 * keeps the `invoke` function it returns. The host functions stay in this closure: the guest
 * never sees them on globalThis. Nothing here is a security boundary (the WASM instance is);
 * it makes the guest deterministic, gives it `tools` and `console`, and reports outcomes as data.
 */
export const guestPreludeSource = String.raw`(function (configJson, hostCallTool, hostLog) {
  "use strict";
  const config = JSON.parse(configJson);
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  // Captured before any guest code runs, so a guest cannot redefine how its errors are cut.
  const toText = String;
  const apply = Reflect.apply;
  const sliceText = String.prototype.slice;
  const limits = config.errorTextLimits;
  // Error texts leave the VM at most this long: the guest can throw far more than the host should copy.
  function cap(value, max) {
    const text = toText(value);
    return text.length <= max + limits.markerRoom ? text : apply(sliceText, text, [0, max]) + "… [truncated: " + text.length + " characters in all]";
  }
  const bridgeErrors = new WeakSet();

  // Math.random: sfc32 seeded from sha256(determinismSeed), so a replay draws the same numbers.
  let a = config.seedWords[0] | 0, b = config.seedWords[1] | 0, c = config.seedWords[2] | 0, d = config.seedWords[3] | 0;
  function random() {
    d = (d + 1) | 0;
    const t = (((a + b) | 0) + d) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  for (let i = 0; i < 12; i += 1) random();
  Object.defineProperty(Math, "random", { value: random, writable: false, configurable: false, enumerable: false });

  // Date: a logical clock that starts at config.clockStartMs and advances 1 ms per reading.
  const RealDate = Date;
  let ticks = 0;
  function now() { const value = config.clockStartMs + ticks; ticks += 1; return value; }
  const DeterministicDate = function Date(...args) {
    if (new.target === undefined) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  };
  DeterministicDate.prototype = RealDate.prototype;
  Object.defineProperty(DeterministicDate, "now", { value: now, writable: false, configurable: false });
  Object.defineProperty(DeterministicDate, "UTC", { value: RealDate.UTC, writable: true, configurable: true });
  Object.defineProperty(DeterministicDate, "parse", { value: RealDate.parse, writable: true, configurable: true });
  Object.defineProperty(RealDate.prototype, "constructor", { value: DeterministicDate, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(globalThis, "Date", { value: DeterministicDate, writable: true, configurable: true, enumerable: false });

  const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  function childPath(path, key) {
    if (typeof key === "number") return path + "[" + key + "]";
    return identifier.test(key) ? path + "." + key : path + "[" + jsonStringify(key) + "]";
  }
  function jsonProblem(value, path, seen) {
    if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
    if (typeof value === "number") return Number.isFinite(value) ? undefined : { path, problem: String(value) + " is not a finite number" };
    if (value === undefined) return { path, problem: "undefined is not JSON (use null or leave the key out)" };
    if (typeof value !== "object") return { path, problem: "a " + typeof value + " is not JSON" };
    if (seen.has(value)) return { path, problem: "a circular reference is not JSON" };
    seen.add(value);
    try {
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value)) return { path: childPath(path, index), problem: "an array hole is not JSON" };
          const problem = jsonProblem(value[index], childPath(path, index), seen);
          if (problem) return problem;
        }
        return undefined;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        const name = value.constructor && typeof value.constructor.name === "string" ? value.constructor.name : "class instance";
        return { path, problem: "a " + name + " is not plain JSON" };
      }
      for (const key of Object.keys(value)) {
        const problem = jsonProblem(value[key], childPath(path, key), seen);
        if (problem) return problem;
      }
      return undefined;
    } finally {
      seen.delete(value);
    }
  }

  function show(value) {
    try {
      if (typeof value === "string") return value;
      if (value instanceof Error) return String(value.stack ? value.name + ": " + value.message + "\n" + value.stack : value);
      const text = jsonStringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      try { return String(value); } catch (ignored) { return "[unprintable]"; }
    }
  }
  function logger(level) {
    return function (...values) { hostLog(level, values.map(show).join(" ")); };
  }
  Object.defineProperty(globalThis, "console", {
    value: Object.freeze({ log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug") }),
    writable: true, configurable: true, enumerable: false,
  });

  async function callTool(toolName, args) {
    const value = args === undefined ? {} : args;
    const problem = jsonProblem(value, "$", new Set());
    if (problem) throw new TypeError("tools." + toolName + "(args): arguments must be JSON, but at " + problem.path + " " + problem.problem);
    let resultJson;
    try {
      resultJson = await hostCallTool(toolName, jsonStringify(value));
    } catch (error) {
      bridgeErrors.add(error);
      throw error;
    }
    return jsonParse(resultJson);
  }
  const toolFunctions = Object.create(null);
  for (const toolName of config.allowedTools) {
    toolFunctions[toolName] = function (args) { return callTool(toolName, args); };
  }
  Object.freeze(toolFunctions);
  // Unknown names still go to the bridge, which refuses them by name (and records the attempt).
  const tools = new Proxy(toolFunctions, {
    get(target, key) {
      if (typeof key !== "string") return undefined;
      if (Object.prototype.hasOwnProperty.call(target, key)) return target[key];
      if (key === "then" || key === "toJSON") return undefined;
      return function (args) { return callTool(key, args); };
    },
  });

  function describeThrown(error) {
    if (bridgeErrors.has(error)) {
      return { ok: false, kind: error.kind, toolName: error.toolName, callIndex: error.callIndex, message: cap(error.message, limits.message) };
    }
    try {
      if (typeof error === "object" && error !== null && "message" in error) {
        return { ok: false, kind: "guest_threw", name: cap(error.name, limits.name), message: cap(error.message, limits.message), stack: cap(error.stack || "", limits.stack) };
      }
      return { ok: false, kind: "guest_threw", name: "NonError", message: cap("a non-Error value was thrown: " + show(error), limits.message), stack: "" };
    } catch (ignored) {
      return { ok: false, kind: "guest_threw", name: "NonError", message: "an unprintable value was thrown", stack: "" };
    }
  }

  return async function invoke(namespace, inputJson) {
    const run = namespace.run;
    if (typeof run !== "function") {
      return { ok: false, kind: "invalid_entrypoint", message: "the entrypoint must export async function run({ input, tools }); it exports " +
        (Object.keys(namespace).length === 0 ? "nothing" : Object.keys(namespace).join(", ")) };
    }
    let output;
    try {
      output = await run({ input: jsonParse(inputJson), tools });
    } catch (error) {
      return describeThrown(error);
    }
    const problem = jsonProblem(output, "$", new Set());
    if (problem) return { ok: false, kind: "output_not_json", path: problem.path, problem: problem.problem };
    return { ok: true, json: jsonStringify(output) };
  };
})`;
