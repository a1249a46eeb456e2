// What a route declares it answers, checked on every answer: Elysia runs a route's `response`
// schema on what the handler returns (a Standard Schema), and this one reads the answer as it goes
// on the wire (its JSON) through the shared valibot schema. An answer that does not parse, or that
// carries a field its schema does not name, is refused: the error handler answers 500 and logs the
// issues (never the body).
import * as v from 'valibot';

/** The Standard Schema vendor of a declared response (the OpenAPI plugin maps it by this name). */
export const DECLARED_RESPONSE_VENDOR = 'declared-response';

interface Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey>;
}

/**
 * A route's declared answer: the shared valibot schema, checked as Standard Schema v1 on the JSON
 * form of the answer. Note: it states no static types, so a handler may return rows with `Date`s
 * (they go out as the ISO strings the schema reads); the check runs on every answer.
 */
export interface DeclaredResponse<S extends v.GenericSchema = v.GenericSchema> {
  readonly schema: S;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: typeof DECLARED_RESPONSE_VENDOR;
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: v.InferOutput<S>; readonly issues?: undefined }
      | { readonly issues: Issue[] };
    readonly types?: { readonly input: unknown; readonly output: unknown };
  };
}

/** True for a declared response (what `declaredResponse` makes). */
export function isDeclaredResponse(value: unknown): value is DeclaredResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { '~standard'?: { vendor?: string } })['~standard']?.vendor ===
      DECLARED_RESPONSE_VENDOR
  );
}

/** Paths of the fields of `value` that `parsed` (what its schema read from it) left out. */
export function undocumentedFields(value: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(value) && Array.isArray(parsed))
    return value.flatMap((item, i) => undocumentedFields(item, parsed[i], `${at}[${i}]`));
  if (!value || typeof value !== 'object' || !parsed || typeof parsed !== 'object') return [];
  return Object.entries(value).flatMap(([key, field]) =>
    key in parsed
      ? undocumentedFields(field, (parsed as Record<string, unknown>)[key], `${at}.${key}`)
      : [`${at}.${key}`],
  );
}

/** The JSON form of an answer, as the client reads it (dates as ISO strings, no `undefined`). */
function wireForm(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value));
}

/** Declares `schema` as a route's answer: what `response` takes, and what the document names. */
export function declaredResponse<S extends v.GenericSchema>(schema: S): DeclaredResponse<S> {
  return {
    schema,
    '~standard': {
      version: 1,
      vendor: DECLARED_RESPONSE_VENDOR,
      validate(value) {
        const wire = wireForm(value);
        const result = v.safeParse(schema, wire);
        if (!result.success)
          return {
            issues: result.issues.map((issue) => ({
              message: issue.message,
              path: issue.path?.map((item) => item.key as PropertyKey),
            })),
          };
        const extra = undocumentedFields(wire, result.output);
        if (extra.length > 0)
          return { issues: extra.map((path) => ({ message: `Undocumented field ${path}` })) };
        return { value: result.output };
      },
    },
  };
}

/** The issues of a refused answer as the log shows them: paths and messages, never values. */
export function responseIssues(error: unknown): string[] {
  const all = (error as { all?: unknown }).all;
  if (!Array.isArray(all)) return [];
  return (all as { path?: unknown; message?: unknown }[]).map(
    ({ path, message }) => `${typeof path === 'string' ? path : 'root'}: ${String(message)}`,
  );
}
