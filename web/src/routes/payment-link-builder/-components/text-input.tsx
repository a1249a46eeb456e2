// A labelled text input for the builder's plain fields.
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
}) {
  const id = useId();
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
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="muted small">
          {props.hint}
        </p>
      )}
    </div>
  );
}
