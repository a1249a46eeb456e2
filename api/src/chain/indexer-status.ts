// The indexer's progress as its HTTP server reports it: used by the API's health check in every
// deployment, and by the local stack while it waits for a new indexer.

/** The indexer's progress: `ready` once the historical sync is done, and its latest block. */
export type IndexerStatus = { ready: boolean; blockNumber: number | null };

/** How long an answer may take: an indexer that does not answer in that time is down. */
const ANSWER_TIMEOUT_MS = 3000;

/** Whether Ponder's `/ready` answers 200 (503 while it backfills; false when unreachable). */
export async function isIndexerReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ready`, {
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Reads Ponder's `/ready` and `/status` (`{ [chain]: { id, block: { number } } }`) together. */
export async function getIndexerStatus(url: string): Promise<IndexerStatus> {
  const [ready, response] = await Promise.all([
    isIndexerReady(url),
    fetch(`${url}/status`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) }),
  ]);
  if (!response.ok) return { ready, blockNumber: null };
  const status = (await response.json()) as Record<string, { block?: { number?: number } }>;
  const [chain] = Object.values(status);
  return { ready, blockNumber: chain?.block?.number ?? null };
}
