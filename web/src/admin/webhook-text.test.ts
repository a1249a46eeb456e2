// Pure texts of the webhook pages: a delivery's state, attempt lines and the next try.
import { describe, expect, it } from 'vitest';
import {
  attemptSummary,
  deliveryState,
  deliveryTone,
  lastAttemptSummary,
  nextAttemptText,
} from './webhook-text.ts';

describe('deliveryState', () => {
  const base = { attemptCount: 1, deliveredAt: null };
  it('reads delivered and failed as they are', () => {
    expect(deliveryState({ ...base, status: 'delivered' })).toBe('delivered');
    expect(deliveryState({ ...base, status: 'failed' })).toBe('failed');
  });

  it('tells a retry from a first send or a redelivery', () => {
    expect(deliveryState({ ...base, status: 'pending' })).toBe('retrying');
    expect(deliveryState({ status: 'pending', attemptCount: 0, deliveredAt: null })).toBe(
      'sending',
    );
    expect(deliveryState({ ...base, status: 'pending', deliveredAt: '2025-01-01T00:00:00Z' })).toBe(
      'sending',
    );
  });

  it('colours each state', () => {
    expect(deliveryTone('delivered')).toBe('success');
    expect(deliveryTone('retrying')).toBe('warning');
    expect(deliveryTone('sending')).toBe('warning');
    expect(deliveryTone('failed')).toBe('danger');
  });
});

describe('attempt lines', () => {
  it('give the status code, the latency and the error', () => {
    expect(attemptSummary({ statusCode: 200, latencyMs: 35.4, error: null })).toBe(
      'HTTP 200 · 35 ms',
    );
    expect(attemptSummary({ statusCode: null, latencyMs: 10000, error: 'timed out' })).toBe(
      'No response · 10000 ms · timed out',
    );
  });

  it('summarise the last attempt, or say none was made', () => {
    expect(lastAttemptSummary({ attempts: [] })).toBe('Not sent yet');
    const attempts = [
      { attemptedAt: 'a', statusCode: 500, latencyMs: 3, error: 'HTTP 500', responseBody: null },
      { attemptedAt: 'b', statusCode: 204, latencyMs: 4, error: null, responseBody: null },
    ];
    expect(lastAttemptSummary({ attempts })).toBe('HTTP 204 · 4 ms');
  });
});

describe('nextAttemptText', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it('says when nothing is planned or when the try is due', () => {
    expect(nextAttemptText(null, now)).toBe('—');
    expect(nextAttemptText('not a date', now)).toBe('—');
    expect(nextAttemptText('2025-06-01T11:59:00Z', now)).toBe('now');
  });

  it('gives a later time as a local date and time', () => {
    const later = '2025-06-01T12:05:00Z';
    expect(nextAttemptText(later, now)).toBe(new Date(later).toLocaleString());
  });
});
