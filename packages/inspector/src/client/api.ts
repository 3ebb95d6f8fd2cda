/// <reference lib="dom" />

/** GETs JSON from the inspector's API; a non-2xx answer throws with the server's message. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

export function runPath(runId: string): string {
  return `#/runs/${encodeURIComponent(runId)}`;
}

export function stepPath(runId: string, path: string): string {
  return `#/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(path)}`;
}
