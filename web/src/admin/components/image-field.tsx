// An image field of the admin's forms: a file chosen, dropped or taken with a phone's camera is
// uploaded at once and its served path fills the field; the field still takes a typed URL (or an
// emoji, for a logo). The form saves the path like any other value.
import { UPLOAD_KINDS, type UploadKind } from '@store/shared';
import { useId, useRef, useState } from 'react';
import { errorText } from '../../lib/api.ts';
import { FieldShell, type LabelProps, useFieldContext } from '../../lib/form.tsx';
import { uploadImage } from '../uploads-api.ts';

/** Content types the file picker offers for each kind. */
const ACCEPT: Record<UploadKind, string> = {
  logo: 'image/png,image/jpeg,image/svg+xml',
  product: 'image/png,image/jpeg,image/webp',
};

const isPicture = (value: string) => /^(https?:\/\/|\/api\/uploads\/)/.test(value);

/** A URL (or emoji) input with an upload button and a drop zone. */
export function ImageField(props: LabelProps & { kind: UploadKind; placeholder?: string }) {
  const field = useFieldContext<string>();
  const picker = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({
    busy: false,
  });
  const [dragging, setDragging] = useState(false);
  const rules = UPLOAD_KINDS[props.kind];

  const send = async (file: File | undefined) => {
    if (!file) return;
    // Note: the server checks the bytes; this only spares a doomed upload of a huge file.
    if (file.size > rules.maxBytes) {
      setState({ busy: false, failed: true, message: rules.tooLarge });
      return;
    }
    setState({ busy: true, message: `Uploading ${file.name}…` });
    try {
      const uploaded = await uploadImage(props.kind, file);
      field.handleChange(uploaded.url);
      setState({ busy: false, message: `${file.name} uploaded` });
    } catch (error) {
      const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
      setState({
        busy: false,
        failed: true,
        message: offline ? 'Uploading needs a connection' : errorText(error),
      });
    }
  };

  const value = field.state.value ?? '';
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a shortcut; the Upload button does the same from the keyboard.
        <div
          className={`image-field${dragging ? ' image-field-dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void send(event.dataTransfer.files[0]);
          }}
        >
          {isPicture(value) && (
            <img className="image-field-preview" src={value} alt="" width={48} height={48} />
          )}
          <input
            {...aria}
            type="text"
            placeholder={props.placeholder}
            value={value}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
          <button
            type="button"
            className="button button-quiet"
            disabled={state.busy}
            aria-describedby={statusId}
            onClick={() => picker.current?.click()}
          >
            {state.busy ? 'Uploading…' : 'Upload'}
          </button>
          <input
            ref={picker}
            type="file"
            accept={ACCEPT[props.kind]}
            hidden
            aria-label={`${props.label}: choose a file`}
            onChange={(event) => {
              void send(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <span
            id={statusId}
            className={state.failed ? 'field-error' : 'field-hint'}
            role="status"
            aria-live="polite"
          >
            {state.message ?? ''}
          </span>
        </div>
      )}
    />
  );
}
