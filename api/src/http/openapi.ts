// The OpenAPI document's view of the valibot schemas.
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

// Note: trims, lowercasing and defaults have no JSON Schema form; `ignore` documents the rest.
/** Converts a valibot schema for `@elysiajs/openapi`'s `mapJsonSchema`. */
export const valibotToJsonSchema = (schema: unknown) =>
  toJsonSchema(schema as v.GenericSchema, { errorMode: 'ignore', target: 'draft-2020-12' });
