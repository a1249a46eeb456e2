// One webhook request over node:http(s): a fixed deadline, no redirects followed, and a DNS
// lookup that refuses private addresses at connect time (see url-safety.ts).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_USER_AGENT } from './signing.ts';
import { isPublicAddress, safeLookup, WEBHOOK_URL_MESSAGES } from './url-safety.ts';

/** What one attempt produced. */
export interface AttemptResult {
  /** The response status; null when no response arrived. */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** First 500 characters of the response body. */
  responseBody: string | null;
  delivered: boolean;
  /** Whether another attempt may succeed: network errors, 408, 429 and 5xx. */
  retryable: boolean;
}

/** Delivered on 2xx; retried on 408, 429 and 5xx; anything else (3xx, 4xx) is final. */
export function classifyStatus(status: number): { delivered: boolean; retryable: boolean } {
  if (status >= 200 && status <= 299) return { delivered: true, retryable: false };
  return { delivered: false, retryable: status === 408 || status === 429 || status >= 500 };
}

const BODY_LIMIT = 500;

/** POSTs `body` to `url` with `headers`; never throws. */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string, retryable: boolean): AttemptResult => ({
    statusCode: null,
    latencyMs: elapsed(),
    error,
    responseBody: null,
    delivered: false,
    retryable,
  });
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // Note: node connects to an IP literal without a lookup, so it is checked here.
  if (isIP(host) && !options.allowPrivate && !isPublicAddress(host))
    return Promise.resolve(failure(WEBHOOK_URL_MESSAGES.privateAddress(host), false));
  if (target.protocol !== 'https:' && !(options.allowPrivate && target.protocol === 'http:'))
    return Promise.resolve(failure(WEBHOOK_URL_MESSAGES.https, false));

  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      lookup: safeLookup(options.allowPrivate) as never,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': WEBHOOK_USER_AGENT,
      },
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no response within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(failure(error.message, error.code !== 'EPRIVATEADDRESS'));
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < BODY_LIMIT) text += chunk;
      });
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        const { delivered, retryable } = classifyStatus(status);
        const redirect = status >= 300 && status < 400;
        resolve({
          statusCode: status,
          latencyMs: elapsed(),
          error: delivered
            ? null
            : redirect
              ? `redirect to ${response.headers.location ?? '(no location)'} not followed`
              : `HTTP ${status}`,
          responseBody: text.slice(0, BODY_LIMIT) || null,
          delivered,
          retryable,
        });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        resolve(failure(error.message, true));
      });
    });
    request.end(body);
  });
}
