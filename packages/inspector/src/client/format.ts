/// <reference lib="dom" />

/** `$0.000036`, or `n/a` for unpriced usage (never `$0` for something that has no price). */
export function dollars(costUsd: number | null | undefined): string {
  if (costUsd === null || costUsd === undefined) return "n/a";
  if (costUsd === 0) return "$0";
  return costUsd < 0.01 ? `$${costUsd.toFixed(6)}` : `$${costUsd.toFixed(4)}`;
}

export function duration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined) return "–";
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))}ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)}s`;
  return `${Math.floor(milliseconds / 60_000)}m${Math.round((milliseconds % 60_000) / 1000)}s`;
}

export function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`;
}

export function time(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** JSON for a person: strings as they are, everything else indented. */
export function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "null";
}
