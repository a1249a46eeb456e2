// Image uploads from the admin's forms: the file's own bytes to POST /api/uploads/{kind}; the
// server checks the type by content, re-encodes it and answers the path to store.
import type { UploadKind, UploadResponse } from '@store/shared';
import { apiErrorOf } from '../lib/api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from '../lib/connectivity.ts';

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
