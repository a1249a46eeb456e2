// Path parameter checks shared by the routes: a malformed id or slug is a 404 before any fetch.
import { SLUG_PATTERN } from '@store/shared';
import { notFound } from '@tanstack/react-router';
import * as v from 'valibot';

/** A store slug as the store form allows it. */
export const SlugParamSchema = v.pipe(v.string(), v.regex(SLUG_PATTERN));
/** An order, product or store id: 1-100 URL-safe characters. */
export const IdParamSchema = v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/));

/** Throws the router's notFound() unless `value` matches `schema`; use from a route loader. */
export function requireParam(schema: v.GenericSchema<string, string>, value: string): void {
  if (!v.is(schema, value)) throw notFound();
}
