// The toast after a dialog's save (SPEC §8 texts for success and failure) and whether the dialog
// may close: it stays open only when the server refused the edit, so it can be fixed.
import { toast, toastError } from '../../lib/toast.ts';
import type { SubmitOutcome } from '../outbox/submit.ts';

/** Toast texts of one dialog. */
export interface SaveTexts {
  success: { title: string; description?: string };
  failure: string;
}

/** Offline save: not in SPEC, which has no offline mode. */
export const SAVED_OFFLINE = {
  title: 'Saved offline',
  description: "It will sync when you're back online.",
} as const;

/** Shows the outcome's toast; answers true when the dialog should close and reset. */
export function reportSave(outcome: SubmitOutcome, texts: SaveTexts): boolean {
  switch (outcome.status) {
    case 'synced':
      toast(texts.success);
      return true;
    case 'queued':
      toast(SAVED_OFFLINE);
      return true;
    case 'conflict':
      toastError(
        'Changed elsewhere',
        'Choose which version to keep in the list of unsynced changes.',
      );
      return true;
    case 'failed':
      toastError(texts.failure, outcome.message);
      return outcome.kept;
  }
}
