import { describe, expect, it, vi } from "vitest";
import { isoNow } from "./recorded-at.js";

describe("isoNow", () => {
  it("is new Date().toISOString() of the current millisecond, made again when the clock moves", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-12-07T10:00:00.123Z"));
      expect(isoNow()).toBe("2026-12-07T10:00:00.123Z");
      expect(isoNow()).toBe(new Date().toISOString());
      vi.setSystemTime(new Date("2026-12-07T10:00:00.124Z"));
      expect(isoNow()).toBe("2026-12-07T10:00:00.124Z");
      // A clock set back is followed too (the cache is keyed by the exact millisecond).
      vi.setSystemTime(new Date("2026-01-01T00:00:00.000Z"));
      expect(isoNow()).toBe("2026-01-01T00:00:00.000Z");
    } finally {
      vi.useRealTimers();
    }
  });
});
