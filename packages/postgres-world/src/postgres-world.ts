import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import { canonicalJson } from "@little-stack/canonical";
import {
  ArtifactIntegrityError,
  ArtifactNotFoundError,
  decodeArtifactJson,
  decodeArtifactText,
  deferredEventList,
  encodeArtifact,
  LeaseLostError,
  OuterLoopManifestCorruptError,
  prepareEvents,
  requireArtifactId,
  requireDurable,
  requireFence,
  requireOuterLoopId,
  requireRunId,
  resolveListEventsOptions,
  RunLockedError,
  serializeOuterLoopManifest,
  UnknownRunError,
  verifyArtifact,
  WorldClosedError,
  worldPaths,
  type ArtifactManifest,
  type JsonObject,
  type RunClaim,
  type RunLock,
  type RunLockOwner,
  type RunQueue,
  type RunSubmission,
  type RunSubmissionInput,
  type StoredArtifact,
  type World,
} from "@little-stack/local-world";
import { LeaseKeeper, leaseLock, type HeldLease } from "./lease-keeper.js";
import { openPostgresDatabase } from "./postgres-database.js";
import { SubmissionConflictError } from "./postgres-errors.js";
import { isoNow, postgresEventLog } from "./postgres-event-log.js";
import { describeConnection, resolvePostgresWorldOptions, type PostgresWorldOptions } from "./postgres-world-options.js";
import { migrateSchema } from "./schema-migrations.js";
import { checkSharedDataDir } from "./shared-data-dir.js";
import { checkSubmissionInput, submissionOf, type SubmissionRow } from "./run-submission.js";

export type PostgresWorld = World &
  RunQueue & {
    /** The options in force, defaults applied (the connection string without its password). */
    readonly settings: { readonly target: string; readonly schema: string; readonly leaseMs: number; readonly renewEveryMs: number; readonly holder: string };
    /** Resolves once the schema is migrated (every other call waits for it anyway). */
    ready(): Promise<void>;
    /**
     * Appends whose answer was lost on the connection (a restart, a stall) since this world
     * opened: `foundCommitted` were found stored by reading back (and not sent again), `resent`
     * were not stored and were sent again.
     */
    ambiguousAppends(): { readonly foundCommitted: number; readonly resent: number };
  };

type LeaseRow = { fence: string; expires_at: string; acquired_at: string; previous_owner: string | null; previous_token: string | null };

/**
 * The `World` contract on PostgreSQL 15+, plus the run queue workers claim from. Returns at once;
 * the first call connects and migrates the schema (versioned, safe from many workers at once).
 */
export function postgresWorld(options: PostgresWorldOptions): PostgresWorld {
  const settings = resolvePostgresWorldOptions(options);
  const { schema, holder, leaseMs } = settings;
  const target = describeConnection(settings.connectionString);
  const database = openPostgresDatabase(settings, target);
  const eventLog = postgresEventLog(database, schema);
  const runs = `${schema}.runs`;
  const paths = worldPaths(settings.dataDir);
  const leaseInterval = `($1::bigint * interval '1 millisecond')`;
  const keeper = new LeaseKeeper({
    leaseMs,
    renewEveryMs: settings.renewEveryMs,
    async renew(leases) {
      const result = await database.query<{ lease_token: string; expires_at: string }>(
        `UPDATE ${runs} SET lease_expires_at = clock_timestamp() + ${leaseInterval}
         FROM unnest($2::text[], $3::text[]) AS held(run_id, token)
         WHERE ${runs}.run_id = held.run_id AND ${runs}.lease_token = held.token AND ${runs}.lease_expires_at > clock_timestamp()
         RETURNING ${runs}.lease_token, ${iso("lease_expires_at")} AS expires_at`,
        [leaseMs, leases.map((lease) => lease.runId), leases.map((lease) => lease.token)],
      );
      return new Map(result.rows.map((row) => [row.lease_token, row.expires_at]));
    },
  });
  let closed = false;
  let migrated: Promise<void> | undefined;
  let worldId: string | undefined;
  let dataDirChecked: Promise<void> | undefined;

  function open(operation: string): Promise<void> {
    if (closed) return Promise.reject(new WorldClosedError(operation));
    return ready();
  }

  function ready(): Promise<void> {
    migrated ??= database
      .retrying("migrate the schema", () => migrateSchema(database.pool, schema))
      .catch((error: unknown) => {
        migrated = undefined; // a later call tries again (the database may come up)
        throw error;
      });
    return migrated;
  }

  /** Before the first execution: the data dir must be the one all workers of this database share. */
  function checkDataDir(): Promise<void> {
    dataDirChecked ??= (async () => {
      worldId ??= (await database.query<{ value: string }>(`SELECT value FROM ${schema}.world_meta WHERE key = 'world_id'`)).rows[0]!.value;
      await checkSharedDataDir({
        dataDir: paths.dataDir,
        worldId,
        recordedDataDirId: async () =>
          (await database.query<{ value: string }>(`SELECT value FROM ${schema}.world_meta WHERE key = 'data_dir_id'`)).rows[0]?.value,
        recordDataDirId: async (candidate) =>
          (
            await database.query<{ value: string }>(
              `WITH inserted AS (INSERT INTO ${schema}.world_meta (key, value) VALUES ('data_dir_id', $1) ON CONFLICT (key) DO NOTHING RETURNING value)
               SELECT value FROM inserted UNION ALL SELECT value FROM ${schema}.world_meta WHERE key = 'data_dir_id' LIMIT 1`,
              [candidate],
            )
          ).rows[0]!.value,
      });
    })().catch((error: unknown) => {
      dataDirChecked = undefined;
      throw error;
    });
    return dataDirChecked;
  }

  /** Who holds a lease, for the next holder's `recoveredFrom` and for `RunLockedError` messages. */
  function ownerText(token: string): string {
    return JSON.stringify({ token, pid: process.pid, hostname: hostname(), holder, acquiredAt: new Date().toISOString() });
  }

  function previousOwner(runId: string, row: LeaseRow): RunLockOwner | undefined {
    if (row.previous_owner === null || row.previous_token === null) return undefined;
    const parsed = JSON.parse(row.previous_owner) as Partial<RunLockOwner> & { expiresAt?: string };
    return {
      ...parsed,
      runId,
      token: row.previous_token,
      pid: parsed.pid ?? 0,
      hostname: parsed.hostname ?? "unknown",
      acquiredAt: parsed.acquiredAt ?? "unknown",
    };
  }

  /** Registers an acquired lease with the keeper and hands out its lock. */
  function holdLease(runId: string, token: string, row: LeaseRow, sentAt: number): RunLock {
    const lease: HeldLease = { runId, token, fence: Number(row.fence), controller: new AbortController(), confirmedAt: sentAt, expiresAt: row.expires_at };
    keeper.hold(lease);
    return leaseLock({
      lease,
      holder,
      acquiredAt: row.acquired_at,
      recoveredFrom: previousOwner(runId, row),
      release: async () => {
        keeper.release(token);
        await database.retrying("release a run lease", () =>
          database.query(`UPDATE ${runs} SET lease_token = NULL, lease_expires_at = NULL WHERE run_id = $1 AND lease_token = $2`, [runId, token]),
        );
      },
    });
  }

  /** The lease-taking half of acquire and claim: fence + 1, our token, expiry by the database clock. */
  const takeLease = (candidate: string, alsoSet = "") => `
    previous AS (SELECT run_id, lease_token, lease_owner FROM ${runs} WHERE run_id IN (SELECT run_id FROM ${candidate}))
    UPDATE ${runs} SET fence = ${runs}.fence + 1, lease_token = $2, holder = $3, lease_owner = $4,
      lease_expires_at = clock_timestamp() + ${leaseInterval}${alsoSet}
    FROM previous WHERE ${runs}.run_id = previous.run_id`;
  const leaseColumns = `${runs}.fence, ${iso(`${runs}.lease_expires_at`)} AS expires_at, ${isoNow} AS acquired_at,
      CASE WHEN previous.lease_token IS DISTINCT FROM $2 THEN previous.lease_owner END AS previous_owner,
      CASE WHEN previous.lease_token IS DISTINCT FROM $2 THEN previous.lease_token END AS previous_token`;

  async function readArtifact(artifactId: string): Promise<StoredArtifact> {
    requireArtifactId(artifactId);
    const result = await database.retrying("read an artifact", () =>
      database.query<{ run_id: string; step_path: string; name: string; content_type: string; encoding: string; sha256: string; size: string; bytes: Buffer }>(
        `SELECT run_id, step_path, name, content_type, encoding, sha256, size, bytes FROM ${schema}.artifacts WHERE id = $1`,
        [artifactId],
      ),
    );
    const row = result.rows[0];
    if (row === undefined) throw new ArtifactNotFoundError(artifactId);
    const manifest = {
      id: artifactId,
      runId: row.run_id,
      stepPath: row.step_path,
      name: row.name,
      contentType: row.content_type,
      encoding: row.encoding,
      sha256: row.sha256,
      size: Number(row.size),
    };
    const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    return { manifest: verifyArtifact(artifactId, manifest, bytes), bytes };
  }

  const submissionColumnsOf = (table: string) => `${table}.run_id, ${table}.submission, ${table}.tools, ${table}.models,
    ${table}.queue_state, ${table}.outcome, ${table}.failure, ${table}.claims, ${table}.holder,
    ${iso(`${table}.submitted_at`)} AS submitted_at, ${iso(`${table}.lease_expires_at`)} AS lease_expires_at`;
  const submissionColumns = submissionColumnsOf(runs);

  const world: PostgresWorld = {
    paths,
    maxConcurrentSteps: settings.maxConcurrentSteps,
    settings: { target, schema, leaseMs, renewEveryMs: settings.renewEveryMs, holder },
    ready: () => open("connect"),
    ambiguousAppends: () => eventLog.ambiguity(),

    async appendEvents(runId, events, appendOptions) {
      await open("append events");
      requireRunId(runId);
      let fence = requireFence(appendOptions);
      // `durable: false` permits skipping the sync; every commit here is synchronous all the same
      // (one statement: an asynchronous commit would take a transaction of three).
      requireDurable(appendOptions);
      const prepared = prepareEvents(runId, events);
      if (fence === undefined) {
        // A run this world holds is fenced even when the writer names no fence (the runtime does
        // not): the lease this world took for it fences the append, and a lost one refuses it here.
        const held = keeper.current(runId);
        if (held?.lost === true) {
          throw new LeaseLostError({ runId, fence: held.fence, reason: "this world's lease on the run was lost; it writes nothing more to it" });
        }
        fence = held?.fence;
      }
      try {
        return await eventLog.append(runId, prepared, fence);
      } catch (error) {
        // A holder whose append was refused stops at once, not at the next renewal.
        if (error instanceof LeaseLostError) keeper.loseFence(runId, error.fence, error.message);
        throw error;
      }
    },

    async listEvents(runId, listOptions) {
      await open("list events");
      requireRunId(runId);
      return eventLog.list(runId, resolveListEventsOptions(listOptions));
    },

    async deferListEvents(runId, listOptions) {
      await open("list events");
      requireRunId(runId);
      // The rows can only be read asynchronously, so they are fetched now; checking them (each
      // row's id hash, its JSON) waits for the first read().
      return deferredEventList(await eventLog.fetchRows(runId, resolveListEventsOptions(listOptions)));
    },

    async listRuns() {
      await open("list runs");
      return eventLog.summaries();
    },

    async getRun(runId) {
      await open("get a run");
      requireRunId(runId);
      return (await eventLog.summaries(runId))[0];
    },

    async writeArtifact(input) {
      await open("write an artifact");
      const { manifest, bytes } = encodeArtifact(input);
      // Written and verified in one statement: the digest the database computes over the stored
      // bytes must be the manifest's before anything may reference the artifact.
      const result = await database.retrying("write an artifact", () =>
        database.query<{ digest: string }>(
          `INSERT INTO ${schema}.artifacts (id, run_id, step_path, name, content_type, encoding, sha256, size, bytes)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM ${runs} WHERE run_id = $2 AND last_sequence > 0)
           ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes
           RETURNING 'sha256:' || encode(sha256(bytes), 'hex') AS digest`,
          [manifest.id, manifest.runId, manifest.stepPath, manifest.name, manifest.contentType, manifest.encoding, manifest.sha256, manifest.size, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
        ),
      );
      const row = result.rows[0];
      if (row === undefined) throw new UnknownRunError(manifest.runId, "writing an artifact");
      if (row.digest !== manifest.sha256) throw new ArtifactIntegrityError(manifest.id, `the database stored bytes hashing to ${row.digest}, expected ${manifest.sha256}`);
      return manifest;
    },

    async readArtifact(artifactId) {
      await open("read an artifact");
      return readArtifact(artifactId);
    },

    async readArtifactText(artifactId) {
      await open("read an artifact");
      const { manifest, bytes } = await readArtifact(artifactId);
      return decodeArtifactText(manifest, bytes);
    },

    async readArtifactJson(artifactId) {
      await open("read an artifact");
      const { manifest, bytes } = await readArtifact(artifactId);
      return decodeArtifactJson(manifest, bytes);
    },

    async getArtifactManifest(artifactId): Promise<ArtifactManifest | undefined> {
      await open("read an artifact manifest");
      try {
        return (await readArtifact(artifactId)).manifest;
      } catch (error) {
        if (error instanceof ArtifactNotFoundError) return undefined;
        throw error;
      }
    },

    async acquireRunLock(runId) {
      await open("acquire a run lock");
      requireRunId(runId);
      await checkDataDir();
      const token = randomBytes(16).toString("hex");
      const sentAt = performance.now();
      // Retried with the same token: an acquisition that committed unseen is found again (and
      // its fence moves on once more), never left held by nobody.
      const result = await database.retrying("acquire a run lease", async () => {
        await database.query(`INSERT INTO ${runs} (run_id) VALUES ($1) ON CONFLICT (run_id) DO NOTHING`, [runId]);
        return database.query<LeaseRow>(
          `WITH candidate AS (
             SELECT run_id FROM ${runs} WHERE run_id = $5
               AND (lease_token IS NULL OR lease_token = $2 OR lease_expires_at <= clock_timestamp())
             FOR UPDATE
           ), ${takeLease("candidate")}
           RETURNING ${leaseColumns}`,
          [leaseMs, token, holder, ownerText(token), runId],
        );
      });
      const row = result.rows[0];
      if (row === undefined) throw await lockedError(runId);
      return holdLease(runId, token, row, sentAt);
    },

    async readOuterLoopManifest(outerLoopId) {
      await open("read an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      const result = await database.retrying("read an outer-loop manifest", () =>
        database.query<{ manifest: string }>(`SELECT manifest FROM ${schema}.outer_loops WHERE id = $1`, [outerLoopId]),
      );
      const text = result.rows[0]?.manifest;
      if (text === undefined) return undefined;
      let manifest: unknown;
      try {
        manifest = JSON.parse(text);
      } catch (error) {
        throw new OuterLoopManifestCorruptError(outerLoopId, `${target} (${schema}.outer_loops)`, error);
      }
      if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
        throw new OuterLoopManifestCorruptError(outerLoopId, `${target} (${schema}.outer_loops)`);
      }
      return manifest as JsonObject;
    },

    async writeOuterLoopManifest(outerLoopId, manifest) {
      await open("write an outer-loop manifest");
      requireOuterLoopId(outerLoopId);
      const text = serializeOuterLoopManifest(outerLoopId, manifest);
      await database.retrying("write an outer-loop manifest", () =>
        database.query(`INSERT INTO ${schema}.outer_loops (id, manifest) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET manifest = EXCLUDED.manifest`, [outerLoopId, text]),
      );
    },

    async submitRun(input: RunSubmissionInput): Promise<RunSubmission> {
      await open("submit a run");
      const checked = checkSubmissionInput(input);
      const text = canonicalJson({ workflowVersion: checked.workflowVersion, input: checked.input, options: checked.options });
      const result = await database.retrying("submit a run", async () => {
        await database.query(
          `INSERT INTO ${runs} (run_id, submission, tools, models, queue_state, submitted_at) VALUES ($1, $2, $3, $4, 'queued', clock_timestamp())
           ON CONFLICT (run_id) DO UPDATE SET submission = EXCLUDED.submission, tools = EXCLUDED.tools, models = EXCLUDED.models,
             queue_state = 'queued', submitted_at = EXCLUDED.submitted_at
           WHERE ${runs}.submission IS NULL AND ${runs}.last_sequence = 0 AND ${runs}.lease_token IS NULL`,
          [checked.runId, text, checked.tools, checked.models],
        );
        return database.query<SubmissionRow>(`SELECT ${submissionColumns} FROM ${runs} WHERE run_id = $1`, [checked.runId]);
      });
      const row = result.rows[0]!;
      if (row.submission !== text || row.tools?.join("\n") !== checked.tools.join("\n") || row.models?.join("\n") !== checked.models.join("\n")) {
        throw new SubmissionConflictError(checked.runId);
      }
      return submissionOf(row);
    },

    async claimRun(claimOptions): Promise<RunClaim | undefined> {
      await open("claim a run");
      await checkDataDir();
      const tools = [...new Set(claimOptions.tools)].sort();
      const models = [...new Set(claimOptions.models)].sort();
      const token = randomBytes(16).toString("hex");
      const sentAt = performance.now();
      const result = await database.retrying("claim a run", async (ambiguous) => {
        if (ambiguous) {
          // The claim that failed on the connection may have committed: look for our token.
          const mine = await database.query<LeaseRow & SubmissionRow>(
            `SELECT ${submissionColumns}, fence, ${iso("lease_expires_at")} AS expires_at, ${isoNow} AS acquired_at, NULL AS previous_owner, NULL AS previous_token
             FROM ${runs} WHERE lease_token = $1`,
            [token],
          );
          if (mine.rows.length > 0) return mine;
        }
        return database.query<LeaseRow & SubmissionRow>(
          `WITH candidate AS (
             SELECT run_id FROM ${runs}
             WHERE queue_state IN ('queued', 'running') AND (lease_token IS NULL OR lease_expires_at <= clock_timestamp())
               AND tools <@ $5::text[] AND models <@ $6::text[]
             ORDER BY submitted_at, run_id
             LIMIT 1
             FOR UPDATE SKIP LOCKED
           ), ${takeLease("candidate", `, queue_state = 'running', claims = ${runs}.claims + 1`)}
           RETURNING ${leaseColumns}, ${submissionColumns}`,
          [leaseMs, token, holder, ownerText(token), tools, models],
        );
      });
      const row = result.rows[0];
      if (row === undefined) return undefined;
      const lock = holdLease(row.run_id, token, row, sentAt);
      return { submission: submissionOf(row), lock };
    },

    async finishRun(lock, outcome, failure) {
      await open("finish a run");
      requireRunId(lock.runId);
      if (outcome !== "completed" && outcome !== "failed") throw new TypeError(`finishRun outcome must be "completed" or "failed", got ${String(outcome)}`);
      const failureText =
        failure === undefined ? null : JSON.stringify({ message: String(failure.message), ...(failure.causeCode === undefined ? {} : { causeCode: String(failure.causeCode) }) });
      const result = await database.retrying("finish a run", () =>
        database.query<{ done: boolean }>(
          `WITH finished AS (
             UPDATE ${runs} SET queue_state = 'finished', outcome = $3, failure = $5, lease_token = NULL, lease_expires_at = NULL
             WHERE run_id = $1 AND lease_token = $2 AND fence = $4 AND lease_expires_at > clock_timestamp() RETURNING 1
           )
           SELECT EXISTS (SELECT 1 FROM finished) OR EXISTS (SELECT 1 FROM ${runs} WHERE run_id = $1 AND queue_state = 'finished' AND outcome = $3 AND fence = $4) AS done`,
          [lock.runId, lock.token, outcome, lock.fence, failureText],
        ),
      );
      if (result.rows[0]?.done !== true) {
        const reason = "the lease was lost before the run could be marked finished";
        keeper.lose(lock.token, reason);
        throw new LeaseLostError({ runId: lock.runId, fence: lock.fence, reason });
      }
      keeper.release(lock.token);
      await lock.release();
    },

    async getSubmission(runId) {
      await open("read a submission");
      requireRunId(runId);
      const result = await database.retrying("read a submission", () =>
        database.query<SubmissionRow>(`SELECT ${submissionColumns} FROM ${runs} WHERE run_id = $1 AND submission IS NOT NULL`, [runId]),
      );
      return result.rows[0] === undefined ? undefined : submissionOf(result.rows[0]);
    },

    async listSubmissions(listOptions) {
      await open("list submissions");
      const state = listOptions?.state;
      if (state !== undefined && state !== "queued" && state !== "running" && state !== "finished") {
        throw new TypeError(`listSubmissions state must be queued, running or finished, got ${String(state)}`);
      }
      const result = await database.retrying("list submissions", () =>
        database.query<SubmissionRow>(
          `SELECT ${submissionColumns} FROM ${runs} WHERE submission IS NOT NULL ${state === undefined ? "" : "AND queue_state = $1"} ORDER BY submitted_at, run_id COLLATE "C"`,
          state === undefined ? [] : [state],
        ),
      );
      return result.rows.map(submissionOf);
    },

    async close() {
      if (closed) return;
      closed = true;
      const held = keeper.tokens();
      keeper.loseAll("the world holding the lease was closed");
      if (held.length > 0 && migrated !== undefined) {
        await database
          .query(`UPDATE ${runs} SET lease_token = NULL, lease_expires_at = NULL WHERE lease_token = ANY($1::text[])`, [held])
          .catch(() => undefined);
      }
      await database.end();
    },
  };

  async function lockedError(runId: string): Promise<RunLockedError> {
    const current = await database.query<{ lease_owner: string | null; lease_token: string | null; expires_at: string | null; fence: string }>(
      `SELECT lease_owner, lease_token, ${iso("lease_expires_at")} AS expires_at, fence FROM ${runs} WHERE run_id = $1`,
      [runId],
    );
    const row = current.rows[0];
    const parsed = row?.lease_owner === null || row?.lease_owner === undefined ? {} : (JSON.parse(row.lease_owner) as Partial<RunLockOwner>);
    const owner: RunLockOwner = {
      runId,
      token: row?.lease_token ?? "",
      pid: parsed.pid ?? 0,
      hostname: parsed.hostname ?? "unknown",
      acquiredAt: parsed.acquiredAt ?? "unknown",
      ...(parsed.holder === undefined ? {} : { holder: parsed.holder }),
      ...(row?.fence === undefined ? {} : { fence: Number(row.fence) }),
      ...(row?.expires_at === null || row?.expires_at === undefined ? {} : { expiresAt: row.expires_at }),
    };
    return new RunLockedError(owner, `held by ${parsed.holder ?? "another holder"} under a lease that runs until ${row?.expires_at ?? "?"} by the database's clock unless renewed`);
  }

  return world;
}

function iso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
