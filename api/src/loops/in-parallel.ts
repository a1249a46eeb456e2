// Work on many items at once, at most `limit` at a time, for the loops that record or send one
// item per transaction (detection's wallet changes).

/**
 * Runs `work` on every item, at most `limit` at a time; the results in the items' order. Every
 * item is worked on even when one fails; then the first failure is thrown.
 */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}
