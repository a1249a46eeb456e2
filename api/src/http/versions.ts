import * as v from 'valibot';
import { AppError } from './errors.ts';

/** The `updatedAt` field of PUT/PATCH bodies: the ISO timestamp of the version the edit is based on. */
export const UpdatedAtSchema = v.optional(
  v.pipe(
    v.string('updatedAt must be the ISO timestamp of the version you edited'),
    v.isoTimestamp('updatedAt must be the ISO timestamp of the version you edited'),
  ),
);

/** The version an edit expects, as a Date; undefined when the client sent none (last write wins). */
export function expectedVersion(updatedAt: string | undefined): Date | undefined {
  return updatedAt === undefined ? undefined : new Date(updatedAt);
}

/** The 409 of a stale edit, carrying the current record so the client can show the conflict. */
export function staleEdit(what: string, current: unknown): AppError {
  return new AppError(
    'stale_version',
    `This ${what} was changed since you loaded it; review the current version and try again`,
    { current },
  );
}
