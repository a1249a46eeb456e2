// A dialog's save through the outbox, the toast after it (docs/messages.md: success and failure
// toasts) and whether the dialog may close: it stays open only when the server refused the edit.
import { toast, toastError } from '../../lib/toast.ts';
import { editedBody } from '../form-values.ts';
import type { Mutation } from '../outbox/queue.ts';
import { type SubmitOutcome, submitMutation } from '../outbox/submit.ts';
import type { MerchantProduct, MerchantStore } from '../types.ts';

/** Toast texts of one dialog. */
export interface SaveTexts {
  success: { title: string; description?: string };
  failure: string;
}

/** Offline save. */
export const SAVED_OFFLINE = {
  title: 'Saved offline',
  description: "It will sync when you're back online.",
} as const;

/**
 * Shows the outcome's toast (none for a refusal the dialog shows itself); answers true when the
 * dialog should close and reset.
 */
function reportSave(outcome: SubmitOutcome, texts: SaveTexts, showsRefusal = false): boolean {
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
      if (outcome.kept || !showsRefusal) toastError(texts.failure, outcome.message);
      return outcome.kept;
  }
}

/**
 * Saves a store or product dialog: a new entity's whole body, or only the fields an edit changed
 * (nothing at all when it changed none); answers true when the dialog should close and reset.
 */
export async function saveFromDialog(save: {
  target: Pick<Mutation, 'userId' | 'kind' | 'storeId'>;
  /** The entity edited; absent when creating one. */
  current: MerchantStore | MerchantProduct | undefined;
  /** The form's values as opened and as submitted, and the body parsed from the latter. */
  initial: object;
  value: object;
  body: Record<string, unknown>;
  texts: SaveTexts;
  /**
   * Told how the save went (the saved entity, or the server's refusal); a dialog given it shows a
   * refusal itself, so no toast covers it.
   */
  onOutcome?: (outcome: SubmitOutcome) => void;
}): Promise<boolean> {
  const { current, texts } = save;
  const changes = current ? editedBody(save.initial, save.value, save.body) : save.body;
  // Note: an edit that changed nothing sends nothing.
  if (current && Object.keys(changes).length === 0) {
    toast(texts.success);
    return true;
  }
  const outcome = await submitMutation({
    ...save.target,
    op: current ? 'update' : 'create',
    changes,
    ...(current ? { entityId: current.id, current } : {}),
    ...(current?.updatedAt ? { baseUpdatedAt: current.updatedAt } : {}),
  });
  save.onOutcome?.(outcome);
  return reportSave(outcome, texts, save.onOutcome !== undefined);
}
