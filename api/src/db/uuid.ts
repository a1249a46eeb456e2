// Ids are UUIDs: a value that is not one can never be an id and must not reach a uuid column
// (Postgres would answer an error, not "not found").
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * Ids as one Postgres array literal, for `= any(${...}::uuid[])`: one parameter whatever their
 * number, so the statement keeps one prepared shape.
 */
export function uuidArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}
