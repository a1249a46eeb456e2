// Development only: the local mail catcher. An SMTP server on loopback that accepts every message
// the worker sends (shoppers' receipts) and keeps the latest ones in memory, and an inbox page over
// HTTP that lists them and shows each (its HTML in a sandboxed frame: no script runs).
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '@store/shared';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One caught message. */
export interface CaughtMail {
  id: number;
  receivedAt: string;
  from: string;
  to: string[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
}

/** A running catcher. */
export interface MailCatcher {
  /** What the worker's SMTP_URL is set to. */
  smtpUrl: string;
  /** The inbox page. */
  inboxUrl: string;
  messages(): CaughtMail[];
  stop(): Promise<void>;
}

/** Messages kept (the oldest are dropped beyond this). */
const KEPT = 200;
/** Largest message accepted (a receipt is a few kilobytes). */
const MAX_BYTES = 1024 * 1024;

const addresses = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap(
    (entry: { value?: { address?: string }[] }) =>
      entry.value?.map((a) => a.address ?? '').filter(Boolean) ?? [],
  );
};

function inboxPage(messages: CaughtMail[]): string {
  const rows = messages
    .slice()
    .reverse()
    .map(
      (m) =>
        `<li><a href="/messages/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a>` +
        `<span>to ${escapeHtml(m.to.join(', '))} · ${escapeHtml(m.receivedAt)}</span></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Local inbox</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:760px;padding:16px;color:#18181b}li{padding:10px 0;border-bottom:1px solid #e4e4e7;list-style:none}ul{padding:0}span{display:block;color:#52525b;font-size:13px}</style></head>
<body><h1>Local inbox</h1><p>Every email the local stack sent (receipts to shoppers). Nothing leaves this machine.</p>${
    messages.length === 0 ? '<p>No email yet.</p>' : `<ul>${rows}</ul>`
  }</body></html>`;
}

function messagePage(m: CaughtMail): string {
  const body = m.html
    ? `<iframe title="Message" sandbox="" srcdoc="${escapeHtml(m.html)}" style="width:100%;height:80vh;border:1px solid #e4e4e7"></iframe>`
    : `<pre>${escapeHtml(m.text)}</pre>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(m.subject)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:760px;padding:16px;color:#18181b}dt{font-weight:600}dd{margin:0 0 6px}</style></head>
<body><p><a href="/">← Local inbox</a></p><h1>${escapeHtml(m.subject)}</h1><dl><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>To</dt><dd>${escapeHtml(m.to.join(', '))}</dd>${
    m.replyTo ? `<dt>Reply-To</dt><dd>${escapeHtml(m.replyTo)}</dd>` : ''
  }<dt>Received</dt><dd>${escapeHtml(m.receivedAt)}</dd></dl>${body}</body></html>`;
}

/**
 * Starts the catcher on loopback: SMTP on `smtpPort`, the inbox on `inboxPort` (0: any free
 * port). Note: no authentication and no TLS; it never listens beyond 127.0.0.1.
 */
export async function startMailCatcher(options: {
  smtpPort: number;
  inboxPort: number;
}): Promise<MailCatcher> {
  const caught: CaughtMail[] = [];
  let nextId = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_BYTES,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          caught.push({
            id: nextId++,
            receivedAt: new Date().toISOString(),
            from: mail.from?.text ?? '',
            to: addresses(mail.to),
            replyTo: mail.replyTo?.text ?? null,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
          });
          if (caught.length > KEPT) caught.shift();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(options.smtpPort, '127.0.0.1', () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const inbox = Bun.serve({
    hostname: '127.0.0.1',
    port: options.inboxPort,
    fetch(request) {
      const { pathname } = new URL(request.url);
      const html = (body: string) =>
        new Response(body, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy':
              "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'",
          },
        });
      if (pathname === '/') return html(inboxPage(caught));
      if (pathname === '/api/messages') return Response.json(caught);
      const match = /^\/messages\/(\d+)$/.exec(pathname);
      const message = match && caught.find((m) => m.id === Number(match[1]));
      if (message) return html(messagePage(message));
      return new Response('Not found', { status: 404 });
    },
  });
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    inboxUrl: `http://127.0.0.1:${inbox.port}`,
    messages: () => caught.slice(),
    stop: async () => {
      await inbox.stop(true);
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
