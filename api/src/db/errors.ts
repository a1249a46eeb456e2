// Recognising Postgres errors the API turns into user-facing answers.

/** True when the error (or its cause, as drizzle wraps driver errors) is a unique violation. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint_name } = e as { code?: string; constraint_name?: string };
    if (code === '23505') return constraint === undefined || constraint_name === constraint;
  }
  return false;
}
