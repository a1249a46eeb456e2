// A labelled text input for the builder's plain fields, with its problem under it.
import { useId } from 'react';

/** Label + input bound to a string. */
export function TextInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'url' | 'email' | 'tel' | 'number';
  placeholder?: string;
  hint?: string;
  step?: string;
  min?: string;
  inputMode?: 'decimal' | 'numeric';
  /** A narrow column of the item rows. */
  narrow?: boolean;
  /** The field's problem, shown under it. */
  error?: string;
  readOnly?: boolean;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean);
  return (
    <div className={props.narrow ? 'field field-narrow' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        step={props.step}
        min={props.min}
        inputMode={props.inputMode}
        readOnly={props.readOnly}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="muted small">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
