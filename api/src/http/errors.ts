// The one application error type, with a closed set of codes mapped to HTTP statuses here alone.

/** Codes an API error can carry; each has exactly one HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  /** An edit made on an older version; `details.current` is the record as it is now. */
  stale_version: 409,
  /** A request with the same Idempotency-Key is still running; retry later. */
  idempotency_in_progress: 409,
  /** A unique name (store slug, username) another record already has. */
  already_exists: 409,
  /** The record is not in a state that allows this (an order not pending, forwarding not stopped). */
  invalid_state: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error whose message is safe to show to the client. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Headers the response carries besides the body (a 503's Retry-After). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** Builds the error body for an AppError. */
export function errorBody(error: AppError): ErrorBody {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.details !== undefined) body.error.details = error.details;
  return body;
}
