// A file product's file as uploaded: its type one of DIGITAL_FILE's, checked by content (a file
// claiming to be a PDF starts as one; a text is UTF-8 without NUL), and a file name safe to send
// in Content-Disposition.
import { DIGITAL_FILE, type DigitalFileType, DIGITAL_FILE_MESSAGES as M } from '@store/shared';
import { AppError } from '../../http/errors.ts';

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Whether `bytes` look like a file of `type` (its magic number, or readable text). */
export function contentMatches(type: DigitalFileType, bytes: Uint8Array): boolean {
  switch (type) {
    case 'application/pdf':
      return startsWith(bytes, ascii('%PDF-'));
    case 'application/zip':
      return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);
    case 'application/epub+zip':
      return (
        startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && startsWith(bytes, ascii('mimetype'), 30)
      );
    case 'image/png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'image/webp':
      return startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8);
    case 'audio/mpeg':
      return (
        startsWith(bytes, ascii('ID3')) || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)
      );
    case 'video/mp4':
      return startsWith(bytes, ascii('ftyp'), 4);
    default: {
      // Note: text, CSV, Markdown and JSON: UTF-8 without NUL (JSON parsed as well).
      if (bytes.includes(0)) return false;
      try {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        if (type === 'application/json') JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    }
  }
}

/** The accepted type a Content-Type header names (parameters such as charset ignored). */
export function fileTypeOf(header: string | null): DigitalFileType {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const known = DIGITAL_FILE.types.find((t) => t === type);
  if (!known) throw new AppError('unsupported_media_type', M.type);
  return known;
}

const EXTENSIONS: Record<DigitalFileType, string> = {
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/epub+zip': 'epub',
  'application/json': 'json',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/markdown': 'md',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
};

/** The name the file is delivered under: the one given (checked), else `download.{ext}`. */
export function fileNameOf(given: string | undefined, type: DigitalFileType): string {
  if (given === undefined || given === '') return `download.${EXTENSIONS[type]}`;
  const name = given.trim();
  if (
    name.length === 0 ||
    name.length > DIGITAL_FILE.maxName ||
    !/^[A-Za-z0-9 ._()-]+$/.test(name) ||
    name.startsWith('.')
  )
    throw new AppError('validation_failed', M.name);
  return name;
}

/** The Content-Disposition of a download of `name` (checked by `fileNameOf`: plain ASCII). */
export const attachment = (name: string) => `attachment; filename="${name}"`;
