// A small result type for rules whose failure is an expected, user-facing message.

/** Success with a value or failure with an error (usually a message of messages.ts). */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

/** Wraps a value as a success. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Wraps an error as a failure. */
export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
