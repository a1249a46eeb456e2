// Image uploads from the admin's forms: the file's own bytes to POST /api/uploads/{kind}; the
// server checks the type by content, re-encodes it and answers the path to store.
import type { UploadKind, UploadResponse } from '@store/shared';
import { apiErrorOf } from '../lib/api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from '../lib/connectivity.ts';
import type { MerchantProduct } from './types.ts';

/** Uploads `file` as a store logo or product picture; resolves to the stored image's answer. */
export async function uploadImage(kind: UploadKind, file: Blob): Promise<UploadResponse> {
  let response: Response;
  try {
    response = await fetch(`/api/uploads/${kind}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (error) {
    reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  if (!response.ok) throw await apiErrorOf(response);
  return (await response.json()) as UploadResponse;
}

/** Uploads a file product's file (PUT /api/products/{id}/file); resolves to the product. */
export async function uploadProductFile(productId: string, file: File): Promise<MerchantProduct> {
  let response: Response;
  try {
    response = await fetch(
      `/api/products/${productId}/file?name=${encodeURIComponent(safeFileName(file.name))}`,
      {
        method: 'PUT',
        credentials: 'include',
        headers: { 'content-type': file.type || 'application/octet-stream' },
        body: file,
      },
    );
  } catch (error) {
    reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  if (!response.ok) throw await apiErrorOf(response);
  return (await response.json()) as MerchantProduct;
}

/** A file's name as the API accepts it (letters, digits, spaces, . _ - ( ), 120 at most). */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9 ._()-]/g, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return cleaned || 'download';
}
