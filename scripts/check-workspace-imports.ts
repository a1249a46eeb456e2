// Fails when a file of one workspace imports a file of another by a relative path ('../../api/…'):
// workspaces import one another by package name, through the `exports` map of the package.json
// of the one imported (`@store/shared`, `@store/api/…`, `@store/stack/…`, `@store/indexer/…`).
// bench/ and scripts/ count as areas of their own. Prints each offending import and exits 1.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dir, '..');
const AREAS = ['api', 'web', 'stack', 'indexer', 'shared', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.ponder', 'generated', 'test-results']);
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
// Static imports and re-exports (`from '…'`), side-effect imports and dynamic `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

const areaOf = (path: string) => relative(root, path).split(sep)[0];

const offences: string[] = [];
for (const area of AREAS) {
  for (const file of sourceFiles(join(root, area))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const [, specifier] of line.matchAll(SPECIFIER)) {
        if (!specifier) continue;
        const target = areaOf(resolve(dirname(file), specifier));
        if (target !== area) {
          offences.push(
            `${relative(root, file)}:${index + 1}: '${specifier}' reaches into ${target}/`,
          );
        }
      }
    });
  }
}

if (offences.length > 0) {
  console.error(offences.join('\n'));
  console.error(
    `${offences.length} relative import(s) from one workspace into another: import by package name (@store/…) instead`,
  );
  process.exit(1);
}
console.log('no relative imports between workspaces');
