import { describe, expect, test } from 'vitest';
import { escapeHtml } from './html.ts';

describe('escapeHtml', () => {
  test('escapes the five characters that open markup or end an attribute, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('Crème brûlée, 5 × 2')).toBe('Crème brûlée, 5 × 2');
  });
});
