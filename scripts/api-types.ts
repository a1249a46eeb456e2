// `bun run api:types`: writes the web app's API types (web/src/lib/api-types.gen.ts) from the API's
// OpenAPI document, built in-process from the routes (no database or chain is contacted).
import { writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, apiTypesSource } from '@store/api/http/openapi-types';

await writeFile(API_TYPES_FILE, await apiTypesSource());
console.log(`wrote ${API_TYPES_FILE}`);
