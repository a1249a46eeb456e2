// Fails when a file of the API imports across its layers the wrong way. From the bottom up:
// - the ground (db/, chain/, keys/, loops/, mail/, webhooks/, retention/): rows, chain, keys, loops
//   and the outboxes, importing nothing above them;
// - payments/, the payments domain: recording a payment's state, indexed transfers, forwarding,
//   refunds, the relayer, stock commits; the HTTP modules and the worker both use it;
// - worker/, the worker's loops, and modules/ with http/ and app.ts, the HTTP side: neither
//   imports the other.
// Prints each offending import and exits 1.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const src = resolve(import.meta.dir, '..', 'api', 'src');
const GROUND = ['db', 'chain', 'keys', 'loops', 'mail', 'webhooks', 'retention'];
const HTTP = ['modules', 'http', 'app.ts', 'context.ts', 'index.ts'];
/** What each layer must not import (top-level folders or files of api/src). */
const FORBIDDEN: Record<string, string[]> = {
  ...Object.fromEntries(
    GROUND.map((layer) => [layer, ['payments', 'worker', 'worker.ts', ...HTTP]]),
  ),
  payments: ['worker', 'worker.ts', ...HTTP],
  worker: HTTP,
  modules: ['worker', 'worker.ts'],
  http: ['worker', 'worker.ts'],
};
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

const layerOf = (path: string) => relative(src, path).split(sep)[0] ?? '';

const offences: string[] = [];
for (const file of sourceFiles(src)) {
  const forbidden = FORBIDDEN[layerOf(file)];
  if (!forbidden) continue;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const [, specifier] of line.matchAll(SPECIFIER)) {
        if (!specifier) continue;
        const target = layerOf(resolve(dirname(file), specifier));
        if (forbidden.includes(target)) {
          offences.push(
            `api/src/${relative(src, file)}:${index + 1}: '${specifier}' reaches ${target}`,
          );
        }
      }
    });
}
if (offences.length > 0) {
  console.error(`${offences.length} import(s) across the API's layers the wrong way:`);
  for (const offence of offences) console.error(`  ${offence}`);
  process.exit(1);
}
console.log('API layers: the ground, payments, then the worker and the HTTP side apart');
