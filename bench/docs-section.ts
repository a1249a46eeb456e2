// Each benchmark owns one section of docs/benchmarks.md, between its own markers.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The file every benchmark writes its latest figures to. */
export const BENCHMARKS_DOC = resolve(import.meta.dir, '../docs/benchmarks.md');

/**
 * Replaces the section of benchmark `name` (between `<!-- bench:name:start/end -->`), leaving
 * every other section as it is; appends the section when it is not there yet.
 */
export async function writeBenchmarkSection(name: string, body: string): Promise<void> {
  const START = `<!-- bench:${name}:start -->`;
  const END = `<!-- bench:${name}:end -->`;
  const section = `${START}\n${body.trim()}\n${END}`;
  // Note: read right before writing, since other benchmarks write their own sections.
  const current = existsSync(BENCHMARKS_DOC)
    ? await readFile(BENCHMARKS_DOC, 'utf8')
    : '# Benchmarks\n\nOne section per benchmark; each is rewritten by its own run.\n';
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  await writeFile(BENCHMARKS_DOC, next);
}
