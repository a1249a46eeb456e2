// Where uploaded images are kept: a folder (UPLOADS_DIR, under the data directory by default) or
// any S3-compatible store when S3_URL is set (Bun's own S3 client). Keys are `{id}/{size}.{ext}`
// (images) and `{id}/file` (file products).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { S3Client } from 'bun';

/** A place for objects. */
export interface ObjectStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
}

/**
 * Keys the server writes and reads: an image's sizes, or a file product's file (`{id}/file`);
 * nothing else (no path can leave the folder).
 */
const KEY = /^[0-9a-f]{32}\/((card|page|logo)\.(webp|png)|file)$/;

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not an upload key: ${key}`);
  return key;
}

/** Objects as files under `dir`. Note: written to a temporary name first, so a crash leaves no half file. */
export function folderStore(dir: string): ObjectStore {
  const root = normalize(dir);
  return {
    async put(key, body) {
      const file = join(root, checkedKey(key));
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, body);
      await rename(temporary, file);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(join(root, checkedKey(key))));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}

/**
 * Objects in an S3-compatible bucket: `s3://ACCESS_KEY:SECRET@host[:port]/bucket?region=…`
 * (https to the host; `http://` hosts with `?insecure=true`, for a local MinIO).
 */
export function s3Store(url: string): ObjectStore {
  const parsed = new URL(url);
  const bucket = parsed.pathname.replace(/^\//, '').split('/')[0];
  if (parsed.protocol !== 's3:' || !bucket || !parsed.username || !parsed.password)
    throw new Error('`S3_URL` must be s3://ACCESS_KEY:SECRET@host/bucket');
  const scheme = parsed.searchParams.get('insecure') === 'true' ? 'http' : 'https';
  const client = new S3Client({
    accessKeyId: decodeURIComponent(parsed.username),
    secretAccessKey: decodeURIComponent(parsed.password),
    endpoint: `${scheme}://${parsed.host}`,
    bucket,
    region: parsed.searchParams.get('region') ?? 'us-east-1',
  });
  return {
    async put(key, body, contentType) {
      await client.write(checkedKey(key), body, { type: contentType });
    },
    async get(key) {
      const file = client.file(checkedKey(key));
      if (!(await file.exists())) return null;
      return new Uint8Array(await file.arrayBuffer());
    },
  };
}

/** The store the configuration names. */
export function objectStoreFor(config: { s3Url: string | null; uploadsDir: string }): ObjectStore {
  return config.s3Url ? s3Store(config.s3Url) : folderStore(config.uploadsDir);
}
