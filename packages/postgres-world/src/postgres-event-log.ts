import { EventLogCorruptError, EventLogGapError, LeaseLostError, envelopeOf, eventIdFor, type EventEnvelope, type PreparedEvent, type ResolvedListEventsOptions, type RunSummary } from "@little-stack/local-world";
import type { PostgresDatabase } from "./postgres-database.js";

/** Longest run of events one statement carries; a bigger batch is still one statement (arrays). */
const maxSequenceConflicts = 1000;

/** The database's clock as ISO-8601 UTC with milliseconds, like `Date#toISOString`. */
export const isoNow = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The event log on PostgreSQL. An append is ONE statement: it advances the run's head in `runs`
 * (compare-and-set on the last sequence, and — when fenced — only while the fence is the current,
 * unexpired one) and inserts the events only if that row was updated. The row lock taken by the
 * update serializes appends to a run and conflicts with any takeover, so a stale holder can never
 * slip a write in between.
 */
export function postgresEventLog(database: PostgresDatabase, schema: string) {
  const runs = `${schema}.runs`;
  const events = `${schema}.events`;
  const appendSql = `
WITH head AS (
  UPDATE ${runs} SET
    last_sequence = last_sequence + $3,
    first_event_type = COALESCE(first_event_type, $5),
    first_recorded_at = COALESCE(first_recorded_at, ${isoNow}),
    last_event_type = $6,
    last_recorded_at = ${isoNow}
  WHERE run_id = $1 AND last_sequence = $2
    AND ($4::bigint IS NULL OR (fence = $4 AND lease_token IS NOT NULL AND lease_expires_at > clock_timestamp()))
  RETURNING last_recorded_at
)
INSERT INTO ${events} (run_id, sequence, event_id, type, recorded_at, payload, fence)
SELECT $1, $2 + e.ordinality, e.event_id, e.type, head.last_recorded_at, e.payload, $4::bigint
FROM head, unnest($7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS e(event_id, type, payload, ordinality)
RETURNING recorded_at`;

  /** The next sequence per run this world appended to: a hint, checked by the statement itself. */
  const nextSequences = new Map<string, number>();
  const knownRuns = new Set<string>();
  /** Appends whose answer was lost: found committed by reading back, or not and sent again. */
  const ambiguity = { foundCommitted: 0, resent: 0 };

  async function head(runId: string): Promise<{ lastSequence: number; fenceHeld: (fence: number) => boolean } | undefined> {
    const result = await database.query<{ last_sequence: number; fence: string; held: boolean }>(
      `SELECT last_sequence, fence, (lease_token IS NOT NULL AND lease_expires_at > clock_timestamp()) AS held FROM ${runs} WHERE run_id = $1`,
      [runId],
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    return { lastSequence: row.last_sequence, fenceHeld: (fence) => row.held && Number(row.fence) === fence };
  }

  /** Our events, if an earlier ambiguous attempt did commit them: same sequences, same ids. */
  async function readBack(runId: string, after: number, eventIds: readonly string[]): Promise<string | undefined> {
    const result = await database.query<{ event_id: string; recorded_at: string }>(
      `SELECT event_id, recorded_at FROM ${events} WHERE run_id = $1 AND sequence > $2 AND sequence <= $3 ORDER BY sequence`,
      [runId, after, after + eventIds.length],
    );
    if (result.rows.length !== eventIds.length) return undefined;
    return result.rows.every((row, index) => row.event_id === eventIds[index]) ? result.rows[0]!.recorded_at : undefined;
  }

  function idsFor(runId: string, after: number, prepared: readonly PreparedEvent[]): string[] {
    return prepared.map((event, index) => eventIdFor({ runId, sequence: after + index + 1, type: event.type, payloadJson: event.payloadJson }));
  }

  function envelopes(runId: string, after: number, prepared: readonly PreparedEvent[], eventIds: readonly string[], recordedAt: string): EventEnvelope[] {
    return prepared.map((event, index) =>
      envelopeOf({ eventId: eventIds[index]!, runId, sequence: after + index + 1, type: event.type, recordedAt, payloadJson: event.payloadJson }),
    );
  }

  function rowsToEnvelopes(runId: string, rows: readonly { sequence: number; event_id: string; type: string; recorded_at: string; payload: string }[]): EventEnvelope[] {
    return rows.map((row) => {
      // Every event read is checked against its id: a row edited behind the world's back is refused.
      const expected = eventIdFor({ runId, sequence: row.sequence, type: row.type, payloadJson: row.payload });
      if (expected !== row.event_id || !isJson(row.payload)) {
        throw new EventLogCorruptError(
          `${database.target} (${events})`,
          expected !== row.event_id ? `its type or payload no longer hashes to its id ${row.event_id}` : "its payload is not JSON",
          undefined,
          { runId, sequence: row.sequence },
        );
      }
      return envelopeOf({ eventId: row.event_id, runId, sequence: row.sequence, type: row.type, recordedAt: row.recorded_at, payloadJson: row.payload });
    });
  }

  /**
   * Reads the rows now and returns what checks them and makes the envelopes (a gap, a row that
   * no longer hashes to its id, a payload that is not JSON throw from it): `list` calls it at
   * once, a deferred list on its first read.
   */
  async function fetchRows(runId: string, options: ResolvedListEventsOptions): Promise<() => EventEnvelope[]> {
    const result = await database.retrying("list events", () =>
      options.typePrefix === undefined
        ? database.query<{ sequence: number; event_id: string; type: string; recorded_at: string; payload: string }>(
            `SELECT sequence, event_id, type, recorded_at, payload FROM ${events} WHERE run_id = $1 AND sequence > $2 ORDER BY sequence`,
            [runId, options.afterSequence],
          )
        : database.query<{ sequence: number; event_id: string; type: string; recorded_at: string; payload: string }>(
            `SELECT sequence, event_id, type, recorded_at, payload FROM ${events} WHERE run_id = $1 AND sequence > $2 AND starts_with(type, $3) ORDER BY sequence`,
            [runId, options.afterSequence, options.typePrefix],
          ),
    );
    return () => {
      if (options.typePrefix === undefined) {
        let expected = options.afterSequence + 1;
        for (const row of result.rows) {
          if (row.sequence !== expected) throw new EventLogGapError(runId, expected, row.sequence);
          expected += 1;
        }
      }
      return rowsToEnvelopes(runId, result.rows);
    };
  }

  return {
    ambiguity: () => ({ ...ambiguity }),

    async append(runId: string, prepared: readonly PreparedEvent[], fence: number | undefined): Promise<EventEnvelope[]> {
      if (prepared.length === 0) return [];
      /** The head the last attempt sent was based on: where its events would sit if it committed. */
      let sentAfter: number | undefined;
      /** Every head an attempt of this append was sent with whose answer was lost. */
      const sentHeads: number[] = [];
      return database.retrying("append events", async (ambiguous) => {
        if (ambiguous && sentAfter !== undefined) sentHeads.push(sentAfter);
        if (ambiguous && sentAfter !== undefined) {
          // The attempt that failed on the connection may have committed. If the events at its
          // sequences carry our ids, it did, and they must not be appended twice.
          nextSequences.delete(runId);
          const ids = idsFor(runId, sentAfter, prepared);
          const recordedAt = await readBack(runId, sentAfter, ids);
          if (recordedAt !== undefined) {
            ambiguity.foundCommitted += 1;
            nextSequences.set(runId, sentAfter + prepared.length);
            return envelopes(runId, sentAfter, prepared, ids, recordedAt);
          }
          ambiguity.resent += 1;
        }
        if (fence === undefined && !knownRuns.has(runId)) {
          await database.query(`INSERT INTO ${runs} (run_id) VALUES ($1) ON CONFLICT (run_id) DO NOTHING`, [runId]);
          knownRuns.add(runId);
        }
        let after = nextSequences.get(runId);
        if (after === undefined) after = (await head(runId))?.lastSequence ?? 0;
        for (let conflicts = 0; ; conflicts += 1) {
          const eventIds = idsFor(runId, after, prepared);
          sentAfter = after;
          const result = await database.prepared<{ recorded_at: string }>(`little_append_${schema}`, appendSql, [
            runId,
            after,
            prepared.length,
            fence ?? null,
            prepared[0]!.type,
            prepared[prepared.length - 1]!.type,
            eventIds,
            prepared.map((event) => event.type),
            prepared.map((event) => event.payloadJson),
          ]);
          if (result.rows.length === prepared.length) {
            nextSequences.set(runId, after + prepared.length);
            return envelopes(runId, after, prepared, eventIds, result.rows[0]!.recorded_at);
          }
          // Refused: a stale fence, or another appender moved the head.
          nextSequences.delete(runId);
          const current = await head(runId);
          if (fence !== undefined && (current === undefined || !current.fenceHeld(fence))) {
            throw new LeaseLostError({ runId, fence, reason: "its lease was released, lapsed by the database's clock, or another holder took the run over" });
          }
          if (current === undefined) {
            knownRuns.delete(runId);
            throw new Error(`run row of ${runId} vanished during an append`);
          }
          // A statement of this append that failed on the connection may have been executed late
          // (a stalled connection delivers it after we gave up on it): if the head moved past it
          // and our ids sit there, that statement is what moved it.
          for (const sent of sentHeads) {
            if (current.lastSequence < sent + prepared.length) continue;
            const ids = idsFor(runId, sent, prepared);
            const recordedAt = await readBack(runId, sent, ids);
            if (recordedAt !== undefined) {
              ambiguity.foundCommitted += 1;
              nextSequences.set(runId, sent + prepared.length);
              return envelopes(runId, sent, prepared, ids, recordedAt);
            }
          }
          if (conflicts >= maxSequenceConflicts) throw new Error(`appending to run ${runId} kept losing the race for its next sequence`);
          after = current.lastSequence;
        }
      });
    },

    async list(runId: string, options: ResolvedListEventsOptions): Promise<EventEnvelope[]> {
      return (await fetchRows(runId, options))();
    },

    fetchRows,

    async summaries(runId?: string): Promise<RunSummary[]> {
      const result = await database.retrying("read run summaries", () =>
        database.query<{ run_id: string; last_sequence: number; first_event_type: string; first_recorded_at: string; last_event_type: string; last_recorded_at: string }>(
          `SELECT run_id, last_sequence, first_event_type, first_recorded_at, last_event_type, last_recorded_at FROM ${runs}
           WHERE last_sequence > 0 ${runId === undefined ? "" : "AND run_id = $1"}
           ORDER BY first_recorded_at COLLATE "C", run_id COLLATE "C"`,
          runId === undefined ? [] : [runId],
        ),
      );
      return result.rows.map((row) => ({
        runId: row.run_id,
        eventCount: row.last_sequence,
        firstEventType: row.first_event_type,
        firstRecordedAt: row.first_recorded_at,
        lastEventType: row.last_event_type,
        lastRecordedAt: row.last_recorded_at,
      }));
    },
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
