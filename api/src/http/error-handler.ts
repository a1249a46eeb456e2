// Maps every error to the one JSON error shape, in one place; nothing else sets error statuses.
import { Elysia } from 'elysia';
import { AppError, errorBody } from './errors.ts';
import { responseIssues } from './response-contract.ts';

/** Extracts the first human message of a validation error (valibot's, through Standard Schema). */
function validationMessage(error: unknown): string {
  const all = (error as { all?: Array<{ message?: string; summary?: string }> }).all;
  const first = Array.isArray(all) ? all[0] : undefined;
  return first?.message ?? first?.summary ?? 'Invalid request';
}

/** Plugin turning thrown errors into `{ error: { code, message } }` with the right status. */
export const errorHandler = (log: (message: string, cause: unknown) => void = console.error) =>
  new Elysia({ name: 'error-handler' }).onError(
    { as: 'global' },
    ({ code, error, set, request }) => {
      const appError = toAppError(code, error, log, request);
      set.status = appError.status;
      set.headers['content-type'] = 'application/json';
      for (const [name, value] of Object.entries(appError.headers ?? {})) set.headers[name] = value;
      return errorBody(appError);
    },
  );

const INTERNAL_MESSAGE = 'Something went wrong on our side; please try again';

function toAppError(
  code: unknown,
  error: unknown,
  log: (m: string, c: unknown) => void,
  request: Request,
): AppError {
  if (error instanceof AppError) return error;
  switch (code) {
    case 'VALIDATION':
      // Note: an answer that does not fit the route's declared response is our fault: 500, and
      // the log names the route and the issues (never the answer, which may hold a secret).
      if ((error as { type?: unknown }).type === 'response') {
        const route = `${request.method} ${new URL(request.url).pathname}`;
        log('Answer does not match its declared response', {
          route,
          issues: responseIssues(error),
        });
        return new AppError('internal', INTERNAL_MESSAGE);
      }
      return new AppError('validation_failed', validationMessage(error));
    case 'NOT_FOUND':
      return new AppError('not_found', 'Not found');
    case 'PARSE':
      return new AppError('bad_request', 'The request body is not valid JSON');
    case 'INVALID_COOKIE_SIGNATURE':
      return new AppError('unauthorized', 'Your session is not valid; sign in again');
    default:
      log('Unhandled error', error);
      return new AppError('internal', INTERNAL_MESSAGE);
  }
}
