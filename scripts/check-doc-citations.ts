// Fails when a source file cites a document that is not in the repository, or a docs/ section
// that does not exist. Comments cite the product docs as `docs/<page>.md#<section>`; the section
// must be a heading of that page (its anchor as GitHub makes it). The docs' own links between
// pages are checked the same way. The old specification is not in the repository, so any
// mention of it (`SPEC`, `SPEC.md`, `SPEC §n`) is refused. Prints each offence and exits 1.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
const AREAS = ['api', 'web', 'stack', 'indexer', 'shared', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.ponder', 'generated', 'test-results', 'drizzle']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|css|html)$/;
const SELF = relative(root, import.meta.path);
// A mention of the old specification (built from parts so this file does not match itself).
const OLD_SPEC = new RegExp(`\\b${'SP'}EC\\b`);
// `docs/page.md` or `docs/page.md#section` in a source file.
const DOC_REF = /\bdocs\/([\w./-]+\.md)(?:#([\w-]+))?/g;
// A markdown link to another page or a section: `](page.md#section)`, `](#section)`.
const MD_LINK = /\]\(((?:\.{0,2}\/)?[\w./-]*\.md)?(?:#([\w-]+))?\)/g;

function* files(dir: string, pattern: RegExp): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path, pattern);
    else if (pattern.test(entry.name)) yield path;
  }
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string> | null>();
/** The anchors of a markdown file's headings (null when the file does not exist). */
function anchorsOf(file: string): Set<string> | null {
  const cached = anchorCache.get(file);
  if (cached !== undefined) return cached;
  if (!existsSync(file)) {
    anchorCache.set(file, null);
    return null;
  }
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const title = fenced ? undefined : line.match(/^#{1,6}\s+(.+?)\s*#*\s*$/)?.[1];
    if (!title) continue;
    const base = anchorOf(title);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

const offences: string[] = [];
/** Checks one citation of `page` (and `section`), found at `where`. */
function check(where: string, page: string, section: string | undefined, shown: string) {
  const anchors = anchorsOf(page);
  if (anchors === null) offences.push(`${where}: ${shown}: no such file ${relative(root, page)}`);
  else if (section && !anchors.has(section))
    offences.push(`${where}: ${shown}: ${relative(root, page)} has no section #${section}`);
}

for (const area of AREAS) {
  for (const file of files(join(root, area), SOURCE)) {
    const name = relative(root, file);
    if (name === SELF) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const where = `${name}:${index + 1}`;
        if (OLD_SPEC.test(line))
          offences.push(`${where}: cites the old specification; cite docs/ or nothing`);
        for (const [shown, page, section] of line.matchAll(DOC_REF))
          if (page) check(where, join(root, 'docs', page), section, shown);
      });
  }
}

const markdown = [join(root, 'README.md'), ...files(join(root, 'docs'), /\.md$/)];
for (const file of markdown) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const where = `${relative(root, file)}:${index + 1}`;
      for (const [shown, page, section] of line.matchAll(MD_LINK)) {
        if (!page && !section) continue;
        check(where, page ? resolve(dirname(file), page) : file, section, shown);
      }
    });
}

if (offences.length > 0) {
  console.error(offences.join('\n'));
  console.error(`${offences.length} citation(s) of a missing document or docs section`);
  process.exit(1);
}
console.log('docs citations: every cited page and section exists');
