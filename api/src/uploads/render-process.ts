// Uploads are decoded, drawn and re-encoded in a child process of their own (render-child.ts),
// never on the API's event loop: an image whose work is out of all proportion to its bytes (an
// SVG's effects, a small file claiming a huge canvas) costs that process alone. The child is killed
// (SIGKILL, which stops native code too, unlike a Worker's terminate) after the time limit, its
// data segment and heap are capped (RLIMIT_DATA, set by `ulimit -d` before it starts), and each
// API process runs a few at a time (one per spare core) with a short queue behind them.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_MESSAGES, type UploadKind } from '@store/shared/uploads';
import { AppError, type ErrorCode } from '../http/errors.ts';
import { checkUpload, type ImageVariant } from './images.ts';
import type { RenderAnswer } from './render-child.ts';

/** How long and how much memory one upload's process may take. */
export interface RenderLimits {
  /** Wall-clock milliseconds from its start; then it is killed and the upload refused. */
  timeMs: number;
  /** Megabytes of data segment and heap (Bun itself needs about 300). */
  memoryMb: number;
}

const CHILD_ENTRY = join(import.meta.dir, 'render-child.ts');
/** Uploads one API process works on at once: one per core beyond the API's own, at most 4. */
const MAX_RUNNING = Math.max(1, Math.min(4, availableParallelism() - 1));
/** Uploads that may wait for a turn; one more is answered 503. */
const MAX_WAITING = 16;

/** At most `size` holders at once; up to `maxWaiting` more wait their turn in order. */
class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly maxWaiting: number,
  ) {}

  /** Waits for a slot; the function that gives it back (once). 503 when the queue is full. */
  async acquire(): Promise<() => void> {
    if (this.running < this.size) this.running += 1;
    else if (this.waiting.length >= this.maxWaiting)
      throw new AppError('unavailable', UPLOAD_MESSAGES.busy);
    // Note: a slot given back passes straight to the first waiter, so `running` stays as it is.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}

const slots = new Slots(MAX_RUNNING, MAX_WAITING);

/**
 * The served sizes of an upload of `kind`, made in a child process within `limits`. The checks
 * that need no decoding run here first, so a refused file never starts a process.
 */
export async function renderUpload(
  bytes: Uint8Array,
  kind: UploadKind,
  limits: RenderLimits,
): Promise<ImageVariant[]> {
  checkUpload(bytes, kind);
  const release = await slots.acquire();
  try {
    return variantsOf(await runChild(bytes, kind, limits));
  } finally {
    release();
  }
}

/** The child's answer; null when it gave none (killed, crashed, out of memory). */
async function runChild(
  bytes: Uint8Array,
  kind: UploadKind,
  limits: RenderLimits,
): Promise<RenderAnswer | null> {
  // Note: the shell sets the limits and then becomes the child (exec), so its pid is the child's.
  // The CPU-time limit only stops a child that outlives the API (nothing left to kill it).
  const cpuSeconds = Math.ceil((2 * limits.timeMs) / 1000) + 1;
  const child = Bun.spawn(
    [
      '/bin/sh',
      '-c',
      'ulimit -d "$1" && ulimit -t "$2" && shift 2 && exec "$@"',
      'sh',
      String(limits.memoryMb * 1024),
      String(cpuSeconds),
      process.execPath,
      CHILD_ENTRY,
      kind,
    ],
    // Note: no secrets of the API's environment reach the child.
    { stdin: bytes, stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } },
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, limits.timeMs);
  try {
    const [output, errors, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (timedOut) return null;
    if (exitCode !== 0) {
      // Note: one line, not Bun's crash report (what running out of memory there looks like).
      const reason = errors.trim().split('\n')[0]?.slice(0, 200) || 'no message';
      console.error(
        `An upload's image process ended without an answer (exit ${exitCode}, ${child.signalCode ?? 'no signal'}): ${reason}`,
      );
      return null;
    }
    try {
      return JSON.parse(output) as RenderAnswer;
    } catch {
      return null;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The sizes of a child's answer, or its refusal thrown as the API's error. */
function variantsOf(answer: RenderAnswer | null): ImageVariant[] {
  if (!answer) throw new AppError('validation_failed', UPLOAD_MESSAGES.tooComplex);
  if ('error' in answer) throw new AppError(answer.error.code as ErrorCode, answer.error.message);
  return answer.variants.map((variant) => ({
    name: variant.name as ImageVariant['name'],
    ext: variant.ext as ImageVariant['ext'],
    contentType: variant.contentType,
    body: new Uint8Array(Buffer.from(variant.body, 'base64')),
  }));
}
