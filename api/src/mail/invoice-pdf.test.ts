// The invoice PDF prints names and addresses as written in the scripts its embedded font covers
// (read back with pdftotext); a character no glyph exists for prints as '?', never as a refusal.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InvoiceDocument, renderInvoicePdf } from './invoice-pdf.ts';

const invoice: InvoiceDocument = {
  number: 'INV-000007',
  issuedAt: new Date('2026-11-20T10:00:00Z'),
  orderNumber: '#1A2B3C4D',
  orderedAt: new Date('2026-11-20T09:58:00Z'),
  seller: {
    name: 'Ζωή Παπαδοπούλου ΙΚΕ',
    storeName: 'Kaffeehaus Müller',
    addressLines: ['Hauptstraße 5', '10117 Berlin', 'Germany'],
    taxId: 'DE123456789',
  },
  buyer: {
    name: 'Пётр Иванов',
    email: 'petr@example.com',
    phone: '+7 495 000-00-00',
    addressLines: ['ул. Тверская, 7', '125009 Москва', 'Russia'],
  },
  lines: [
    { title: 'Kaffeebecher – Größe L', quantity: 2, unitUsdc: '10.00', totalUsdc: '20.00' },
    { title: '茶杯 (tea cup)', quantity: 1, unitUsdc: '5.00', totalUsdc: '5.00' },
  ],
  subtotalUsdc: '25.00',
  discountUsdc: null,
  shippingUsdc: '0.00',
  taxUsdc: '0.00',
  totalUsdc: '25.00',
  payment: { chain: 'Local chain (31337)', txHash: `0x${'ab'.repeat(32)}`, paidAt: null },
};

describe('invoice PDF', () => {
  test('Greek, Cyrillic and German print as written; a script without glyphs prints ?', async () => {
    const bytes = await renderInvoicePdf(invoice);
    const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
    try {
      const file = join(dir, 'invoice.pdf');
      writeFileSync(file, bytes);
      const read = spawnSync('pdftotext', ['-layout', file, '-']);
      expect(read.status).toBe(0);
      const text = read.stdout.toString();
      for (const written of [
        'Ζωή Παπαδοπούλου ΙΚΕ',
        'Kaffeehaus Müller',
        'Hauptstraße 5',
        'Пётр Иванов',
        'ул. Тверская, 7',
        '125009 Москва',
        'Kaffeebecher – Größe L',
        '?? (tea cup)',
        'INV-000007',
      ])
        expect(text).toContain(written);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The font is subset: only the glyphs used are embedded.
    expect(bytes.length).toBeLessThan(200_000);
  });
});
