// The child process that decodes, draws and re-encodes one upload (started by render-process.ts):
// the image's bytes on its standard input, the upload's kind as its argument; on its standard
// output one JSON answer, the sizes made of it (base64) or the refusal ({ error: { code, message } }).
// Anything else (a crash, running out of memory, being killed) leaves no answer.
import { UPLOAD_KINDS, type UploadKind } from '@store/shared/uploads';
import sharp from 'sharp';
import { AppError } from '../http/errors.ts';
import { processImage } from './images.ts';

/** What the child writes on its standard output. */
export type RenderAnswer =
  | { variants: Array<{ name: string; ext: string; contentType: string; body: string }> }
  | { error: { code: string; message: string } };

// Note: one libvips thread and no cache: the API shares the machine, and this process lives for
// one image only.
sharp.concurrency(1);
sharp.cache(false);

async function answer(): Promise<RenderAnswer> {
  const kind = process.argv[2] ?? '';
  if (!(kind in UPLOAD_KINDS)) throw new Error(`not an upload kind: ${kind}`);
  const bytes = new Uint8Array(await Bun.stdin.arrayBuffer());
  try {
    const variants = await processImage(bytes, kind as UploadKind);
    return {
      variants: variants.map((variant) => ({
        ...variant,
        body: Buffer.from(variant.body).toString('base64'),
      })),
    };
  } catch (error) {
    if (error instanceof AppError) return { error: { code: error.code, message: error.message } };
    throw error;
  }
}

if (import.meta.main) await Bun.write(Bun.stdout, JSON.stringify(await answer()));
