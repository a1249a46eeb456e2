// An in-memory stand-in for the merchant API's store and product writes, for unit tests: it keeps
// versions (409 with the current record on a stale `updatedAt`), stores each Idempotency-Key's
// first answer and replays it, and can drop the connection before or after doing the work.
import { ApiError } from '../../lib/api.ts';
import type { EntityRequest } from '../api.ts';
import type { MerchantProduct, MerchantStore } from '../types.ts';

type Row = Record<string, unknown> & { id: string; updatedAt: string };

/** A fake API; `send` has the outbox sender's signature. */
/** What the API fills in for a product's fields its form left out (the answer's full shape). */
const PRODUCT_DEFAULTS = {
  description: null,
  imageUrl: null,
  isPublished: false,
  inventory: 0,
  trackInventory: false,
  soldOut: false,
  digital: null,
  x402Url: null,
  maxPriceUsdc: null,
};

export class TestServer {
  readonly stores = new Map<string, Row>();
  readonly products = new Map<string, Row>();
  readonly calls: { method: string; url: string; body: Record<string, unknown>; key: string }[] =
    [];
  /** 'down': no request arrives; 'drop-answer': the work is done, the answer is lost (once). */
  network: 'up' | 'down' | 'drop-answer' = 'up';
  /** Keys another tab is still sending: answered 409 `idempotency_in_progress` in `busyText`. */
  readonly inFlight = new Set<string>();
  /** The wording of the in-flight 409; the client must decide by its code, not by this text. */
  busyText = 'A request with this Idempotency-Key is in progress';
  /** Answers to replay, by Idempotency-Key. */
  private readonly answers = new Map<string, { hash: string; answer: Row | ApiError }>();
  private clock = Date.parse('2025-01-01T00:00:00.000Z');
  private ids = 0;

  private nextVersion(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  /** Changes a row as another device would (a new version). */
  editElsewhere(kind: 'store' | 'product', id: string, changes: Record<string, unknown>): Row {
    const table = kind === 'store' ? this.stores : this.products;
    const row = { ...(table.get(id) as Row), ...changes, updatedAt: this.nextVersion() };
    table.set(id, row);
    return row;
  }

  /** Adds a row directly (what the merchant had before going offline). */
  seed(kind: 'store' | 'product', fields: Record<string, unknown>): Row {
    const row = {
      id: `srv-${++this.ids}`,
      createdAt: new Date(this.clock).toISOString(),
      ...(kind === 'product' ? PRODUCT_DEFAULTS : {}),
      ...fields,
      updatedAt: this.nextVersion(),
    };
    (kind === 'store' ? this.stores : this.products).set(row.id, row);
    return row;
  }

  send = async (
    kind: 'store' | 'product',
    request: EntityRequest,
    key: string,
  ): Promise<MerchantStore | MerchantProduct> => {
    if (this.network === 'down') throw new TypeError('Failed to fetch');
    const body = request.body as Record<string, unknown>;
    this.calls.push({ method: request.method, url: request.url, body, key });
    if (this.inFlight.has(key)) throw new ApiError(409, this.busyText, 'idempotency_in_progress');
    const hash = JSON.stringify([request.method, request.url, body]);
    const stored = this.answers.get(key);
    let answer: Row | ApiError;
    if (stored) {
      answer =
        stored.hash === hash ? stored.answer : new ApiError(422, 'Key reused', 'validation_failed');
    } else {
      answer = this.handle(kind, request, body);
      this.answers.set(key, { hash, answer });
    }
    if (this.network === 'drop-answer') {
      this.network = 'up';
      throw new TypeError('Network connection lost');
    }
    if (answer instanceof ApiError) throw answer;
    return answer as unknown as MerchantStore | MerchantProduct;
  };

  private handle(kind: 'store' | 'product', request: EntityRequest, body: Record<string, unknown>) {
    const table = kind === 'store' ? this.stores : this.products;
    if (request.method === 'POST') {
      if (kind === 'product' && !this.stores.has(String(body.storeId)))
        return new ApiError(404, 'Store not found', 'not_found');
      if (kind === 'store' && [...this.stores.values()].some((s) => s.slug === body.slug))
        return new ApiError(
          409,
          'That store slug is already taken; choose another',
          'already_exists',
        );
      return this.seed(kind, { productCount: 0, ...body });
    }
    const id = decodeURIComponent(request.url.split('/').at(-1) ?? '');
    const current = table.get(id);
    if (!current) return new ApiError(404, 'Not found', 'not_found');
    const { updatedAt, ...changes } = body;
    if (updatedAt !== undefined && updatedAt !== current.updatedAt)
      return new ApiError(409, `This ${kind} was changed since you loaded it`, 'stale_version', {
        current,
      });
    return this.editElsewhere(kind, id, changes);
  }
}
