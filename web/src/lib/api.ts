// The one fetch wrapper of the web app (docs/api.md#web-client-behaviour): cookies sent, JSON
// content type only with a body, non-OK responses raised as "status: text", an Idempotency-Key on
// every mutation, and no retries.
import { reportNetworkFailure, reportNetworkSuccess } from './connectivity.ts';

/**
 * Raised for a non-OK response; `message` is "{status}: {text}" (docs/api.md#web-client-behaviour).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    /** The server's own message (its `{ error: { message } }`), the body text, or the status text. */
    readonly text: string,
    /** The server's error code when it sent one (`not_found`, `validation_failed`, …). */
    readonly code?: string,
    /** The server's `error.details` when it sent some (a 409's `current` record, …). */
    readonly details?: unknown,
  ) {
    super(`${status}: ${text}`);
  }
}

/** True when the error is the API's 404 (an unknown order, store or product). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The human part of an error, for a toast description. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.text;
  if (error instanceof Error) return error.message;
  return String(error);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Options of one request. */
export interface RequestOptions {
  /** Reuse one key when the same logical mutation is sent again (a retried submit). */
  idempotencyKey?: string;
  /** '401: returnNull' answers null instead of throwing on 401. */
  on401?: 'throw' | 'returnNull';
  signal?: AbortSignal;
  /** Extra request headers (a fresh second-factor code: X-TOTP-Code). */
  headers?: Record<string, string>;
}

/** A fresh Idempotency-Key. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

async function readErrorText(
  response: Response,
): Promise<{ text: string; code?: string; details?: unknown }> {
  const body = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: unknown; code?: unknown; details?: unknown };
    };
    const message = parsed.error?.message;
    if (typeof message === 'string' && message) {
      const code = typeof parsed.error?.code === 'string' ? parsed.error.code : undefined;
      const details = parsed.error?.details;
      return { text: message, ...(code === undefined ? {} : { code }), details };
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  return { text: body || response.statusText };
}

/** The ApiError of a non-OK response (for the few calls that do not go through apiRequest). */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const { text, code, details } = await readErrorText(response);
  return new ApiError(response.status, text, code, details);
}

/** Sends one request to the API and returns its JSON body (null for an empty body). */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (MUTATING.has(method))
    headers['idempotency-key'] = options.idempotencyKey ?? newIdempotencyKey();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (!options.signal?.aborted) reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  if (response.status === 401 && options.on401 === 'returnNull') return null as T;
  if (!response.ok) {
    const { text, code, details } = await readErrorText(response);
    throw new ApiError(response.status, text, code, details);
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** GET of a query key: segments joined with '/', each one URL-encoded after the first. */
export function apiGet<T>(key: readonly string[], options?: RequestOptions): Promise<T> {
  const [base = '', ...rest] = key;
  const path = [base, ...rest.map((segment) => encodeURIComponent(segment))].join('/');
  return apiRequest<T>('GET', path, undefined, options);
}
