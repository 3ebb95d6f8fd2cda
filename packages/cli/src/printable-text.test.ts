import { describe, expect, it } from "vitest";
import { exitForError } from "./exit-for-error.js";
import { formatTable } from "./inspect/format-table.js";
import { printable } from "./printable-text.js";
import { ProgressPrinter } from "./run/progress-printer.js";

// eslint-disable-next-line no-control-regex
const anyControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const hostile = "a\u001b]0;title\u0007b\rc\bd\u001b[2Je\u009bf\u0000";

describe("printable", () => {
  it("escapes C0, DEL and C1 controls and leaves other text alone", () => {
    expect(printable(hostile)).toBe("a\\x1b]0;title\\x07b\\rc\\bd\\x1b[2Je\\x9bf\\0");
    expect(printable("plain é ✓ 日本")).toBe("plain é ✓ 日本");
    expect(printable("tab\tnew\nline")).toBe("tab\\tnew\\nline");
  });

  it("is applied to error lines, table cells and progress lines", () => {
    const { message } = exitForError(new Error(hostile));
    expect(anyControl.test(message)).toBe(false);
    expect(message).toContain("\\x1b]0;title");
    const table = formatTable({ header: ["step"], rows: [[`fan[${hostile}]`]] });
    expect(anyControl.test(table)).toBe(false);
    const written: string[] = [];
    let now = 0;
    const printer = new ProgressPrinter({ write: (text) => written.push(text), live: true, now: () => now });
    const event = (sequence: number, type: string, payload: unknown) => ({ eventId: `evt_${sequence}`, runId: "r", sequence, type, recordedAt: "", payload }) as never;
    printer.events([event(1, "StepAttemptStarted", { stepPath: `s${hostile}`, attempt: 1 })]);
    // A second later: the start line stays (one whose end comes within a flush is taken back).
    now += 1_000;
    printer.events([
      event(2, "StepFailed", { stepPath: `s${hostile}`, error: { name: `N${hostile}`, message: hostile } }),
      event(3, "RunFailed", { error: { causeCode: "step_failed", message: hostile } }),
    ]);
    printer.flush();
    const lines = written.join("").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(anyControl.test(line), line).toBe(false);
    const compact: string[] = [];
    const piped = new ProgressPrinter({ write: (text) => compact.push(text), live: false });
    piped.events([event(1, "StepCompleted", { stepPath: `s${hostile}` })]);
    piped.flush();
    expect(compact[0]).toContain("s");
    expect(anyControl.test(compact[0]!.trimEnd())).toBe(false);
  });

  it("bounds a huge error message on its one line", () => {
    const { message } = exitForError(new Error("x".repeat(10_000_000)));
    expect(message.length).toBeLessThan(2200);
    expect(message).toContain("more characters");
  });
});
