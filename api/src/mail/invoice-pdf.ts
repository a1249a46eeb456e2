// The invoice of a paid order as a one-or-more-page A4 PDF (pdf-lib, with DejaVu Sans embedded
// and subset, so Latin, Greek, Cyrillic, Hebrew, Armenian and Georgian names and addresses print
// as written): the seller's legal details, the invoice number and dates, the buyer, the lines, the
// totals in USDC and the payment transaction. Pure: what it prints is the InvoiceDocument given.
import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { orderTaxLabel } from '@store/shared';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';

/** Everything an invoice prints. Amounts are USDC decimal strings with 2 decimals. */
export interface InvoiceDocument {
  /** INV-000042 */
  number: string;
  issuedAt: Date;
  /** #1A2B3C4D */
  orderNumber: string;
  orderedAt: Date;
  seller: { name: string; storeName: string; addressLines: string[]; taxId: string | null };
  /** The buyer; null once the customer's personal data was erased. */
  buyer: { name: string; email: string; phone: string; addressLines: string[] } | null;
  lines: { title: string; quantity: number; unitUsdc: string; totalUsdc: string }[];
  subtotalUsdc: string;
  /** What a discount took off the subtotal; null: the order carries no discount. */
  discountUsdc: string | null;
  shippingUsdc: string;
  taxUsdc: string;
  totalUsdc: string;
  payment: {
    /** The chain's name (Base). */
    chain: string;
    txHash: string | null;
    paidAt: Date | null;
  };
}

/** The font files (DejaVu Sans, its bold), read once. */
const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;
let fontBytes: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;
const loadFonts = () => {
  fontBytes ??= Promise.all([
    readFile(Bun.resolveSync(FONT_FILES.regular, import.meta.dir)),
    readFile(Bun.resolveSync(FONT_FILES.bold, import.meta.dir)),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return fontBytes;
};

/** The characters a font draws, by font. */
const charactersOf = new WeakMap<PDFFont, Set<number>>();

/**
 * `text` in what `font` can draw, on one line: controls become spaces, and a character the font
 * has no glyph for (a script it does not cover, such as Chinese) is drawn as '?' rather than as an
 * empty box or a refused invoice.
 */
export function drawable(text: string, font: PDFFont): string {
  let known = charactersOf.get(font);
  if (!known) {
    known = new Set(font.getCharacterSet());
    charactersOf.set(font, known);
  }
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (known.has(code)) out += char;
    else out += '?';
  }
  return out;
}

/** One line of metadata (title, author): any script, controls as spaces. */
const oneLine = (text: string) => [...text].map((c) => (/\p{Cc}/u.test(c) ? ' ' : c)).join('');

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const INK = rgb(0.09, 0.09, 0.11);
const MUTED = rgb(0.38, 0.38, 0.42);
const RULE = rgb(0.85, 0.85, 0.87);

/** YYYY-MM-DD (UTC), the date an invoice prints. */
const day = (date: Date) => date.toISOString().slice(0, 10);

/** A writer of lines down the page, starting a new page when one is full. */
class Writer {
  page: PDFPage;
  y: number;
  constructor(
    private doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.page = doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  /** Room for `height` points, on a new page if need be. */
  room(height: number) {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage([A4.width, A4.height]);
      this.y = A4.height - MARGIN;
    }
  }

  /** `text` cut with an ellipsis to `width` points. */
  fit(text: string, font: PDFFont, size: number, width: number): string {
    let value = drawable(text, font);
    if (font.widthOfTextAtSize(value, size) <= width) return value;
    while (value.length > 1 && font.widthOfTextAtSize(`${value}…`, size) > width)
      value = value.slice(0, -1);
    return `${value}…`;
  }

  /** `text` broken into lines of at most `width` points (long words are cut). */
  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of drawable(text, font).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) line = next;
      else {
        if (line) lines.push(line);
        line = this.fit(word, font, size, width);
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  text(
    value: string,
    x: number,
    options: { size?: number; font?: PDFFont; color?: typeof INK; right?: boolean } = {},
  ) {
    const size = options.size ?? 10;
    const font = options.font ?? this.regular;
    const drawn = drawable(value, font);
    const left = options.right ? x - font.widthOfTextAtSize(drawn, size) : x;
    this.page.drawText(drawn, { x: left, y: this.y, size, font, color: options.color ?? INK });
  }

  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4.width - MARGIN, y: this.y },
      thickness: 0.75,
      color: RULE,
    });
  }
}

/** The invoice as PDF bytes. */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`Invoice ${invoice.number}`);
  doc.setAuthor(oneLine(invoice.seller.name));
  doc.setSubject(`Order ${invoice.orderNumber}`);
  doc.setProducer('Storefront invoices');
  doc.setCreationDate(invoice.issuedAt);
  doc.setModificationDate(invoice.issuedAt);
  const fonts = await loadFonts();
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });
  const w = new Writer(doc, regular, bold);
  const right = A4.width - MARGIN;
  const half = (A4.width - 2 * MARGIN) / 2;

  // Heading: the seller on the left, the invoice's number and dates on the right.
  w.text('INVOICE', right, { size: 20, font: bold, right: true });
  w.text(w.fit(invoice.seller.name, bold, 14, half), MARGIN, { size: 14, font: bold });
  w.y -= 18;
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Invoice date', day(invoice.issuedAt)],
    ['Order', invoice.orderNumber],
    ['Order date', day(invoice.orderedAt)],
  ];
  const sellerLines = [
    ...(invoice.seller.name !== invoice.seller.storeName ? [invoice.seller.storeName] : []),
    ...invoice.seller.addressLines,
    ...(invoice.seller.taxId ? [`Tax ID: ${invoice.seller.taxId}`] : []),
  ];
  const top = w.y;
  for (const line of sellerLines) {
    w.text(w.fit(line, regular, 10, half), MARGIN);
    w.y -= 13;
  }
  const afterSeller = w.y;
  w.y = top;
  for (const [label, value] of facts) {
    w.text(label, right - 110, { color: MUTED, right: true });
    w.text(value, right, { font: bold, right: true });
    w.y -= 13;
  }
  w.y = Math.min(afterSeller, w.y) - 16;

  // The buyer.
  w.text('Bill to', MARGIN, { font: bold, size: 11 });
  w.y -= 15;
  const buyerLines = invoice.buyer
    ? [
        invoice.buyer.name,
        ...invoice.buyer.addressLines,
        invoice.buyer.email,
        ...(invoice.buyer.phone ? [invoice.buyer.phone] : []),
      ].filter((line) => line.trim() !== '')
    : ['Customer details erased on request'];
  for (const line of buyerLines) {
    w.text(w.fit(line, regular, 10, half * 2), MARGIN, { color: invoice.buyer ? INK : MUTED });
    w.y -= 13;
  }
  w.y -= 14;

  // The lines.
  const columns = { qty: right - 190, unit: right - 90, total: right };
  const header = () => {
    w.text('Item', MARGIN, { font: bold });
    w.text('Qty', columns.qty, { font: bold, right: true });
    w.text('Unit price', columns.unit, { font: bold, right: true });
    w.text('Amount', columns.total, { font: bold, right: true });
    w.y -= 6;
    w.rule();
    w.y -= 14;
  };
  header();
  const titleWidth = columns.qty - 40 - MARGIN;
  for (const line of invoice.lines) {
    const titles = w.wrap(line.title, regular, 10, titleWidth).slice(0, 3);
    w.room(13 * titles.length + 4);
    if (w.y === A4.height - MARGIN) header();
    w.text(String(line.quantity), columns.qty, { right: true });
    w.text(`${line.unitUsdc} USDC`, columns.unit, { right: true });
    w.text(`${line.totalUsdc} USDC`, columns.total, { right: true });
    for (const title of titles) {
      w.text(title, MARGIN);
      w.y -= 13;
    }
    w.y -= 4;
  }
  w.rule();
  w.y -= 16;

  // The totals.
  const totals: [string, string, boolean][] = [
    ['Subtotal', invoice.subtotalUsdc, false],
    ...(invoice.discountUsdc && invoice.discountUsdc !== '0.00'
      ? ([['Discount', `-${invoice.discountUsdc}`, false]] as [string, string, boolean][])
      : []),
    ['Shipping', invoice.shippingUsdc, false],
    [orderTaxLabel(invoice), invoice.taxUsdc, false],
    ['Total', invoice.totalUsdc, true],
  ];
  w.room(16 * totals.length + 90);
  for (const [label, value, strong] of totals) {
    const font = strong ? bold : regular;
    w.text(label, columns.unit, { right: true, font, size: strong ? 12 : 10 });
    w.text(`${value} USDC`, columns.total, { right: true, font, size: strong ? 12 : 10 });
    w.y -= strong ? 18 : 14;
  }
  w.y -= 10;

  // The payment.
  w.text('Payment', MARGIN, { font: bold, size: 11 });
  w.y -= 15;
  const paymentLines = [
    `Paid in USDC on ${invoice.payment.chain}${
      invoice.payment.paidAt ? ` on ${day(invoice.payment.paidAt)}` : ''
    }`,
    ...(invoice.payment.txHash ? [`Transaction: ${invoice.payment.txHash}`] : []),
  ];
  for (const line of paymentLines) {
    w.text(w.fit(line, regular, 9, half * 2), MARGIN, { size: 9 });
    w.y -= 12;
  }
  return doc.save({ useObjectStreams: false });
}
