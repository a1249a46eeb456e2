// The admin forms' TanStack Form hook: the app's form contexts (lib/form.tsx) with the fields the
// store and product dialogs need: any input type, a text area, a select, a colour and a checkbox.
// Every field has a label, and its hint and error are tied to it with aria-describedby.
import { createFormHook } from '@tanstack/react-form';
import { type ReactNode, useId } from 'react';
import { fieldContext, formContext, useFieldContext } from '../../lib/form.tsx';

function firstError(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  }
  return undefined;
}

interface Common {
  label: string;
  hint?: string;
}

/** Label, control, hint and error of the field in context; `control` gets the ARIA props. */
function FieldShell<T>(
  props: Common & { control: (aria: AriaProps) => ReactNode; inline?: boolean },
) {
  const field = useFieldContext<T>();
  const id = useId();
  const shown = field.state.meta.isTouched || field.form.state.submissionAttempts > 0;
  const error = shown ? firstError(field.state.meta.errors) : undefined;
  const described = [props.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  const aria: AriaProps = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div className={props.inline ? 'field field-inline' : 'field'}>
      {props.inline ? null : <label htmlFor={id}>{props.label}</label>}
      {props.control(aria)}
      {props.inline ? <label htmlFor={id}>{props.label}</label> : null}
      {props.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface AriaProps {
  id: string;
  name: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A text-like input; `onUserChange` runs only for what the merchant types. */
function InputField(
  props: Common & {
    type?: 'text' | 'password' | 'url';
    autoComplete?: string;
    placeholder?: string;
    inputMode?: 'text' | 'decimal' | 'numeric';
    onUserChange?: (value: string) => void;
  },
) {
  const field = useFieldContext<string>();
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        <input
          {...aria}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          inputMode={props.inputMode}
          value={field.state.value ?? ''}
          onChange={(event) => {
            field.handleChange(event.target.value);
            props.onUserChange?.(event.target.value);
          }}
          onBlur={field.handleBlur}
        />
      )}
    />
  );
}

/** A multi-line text input. */
function TextAreaField(props: Common) {
  const field = useFieldContext<string>();
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        <textarea
          {...aria}
          rows={3}
          value={field.state.value ?? ''}
          onChange={(event) => field.handleChange(event.target.value)}
          onBlur={field.handleBlur}
        />
      )}
    />
  );
}

/** A select of fixed options. */
function ChoiceField(props: Common & { options: readonly { value: string; label: string }[] }) {
  const field = useFieldContext<string>();
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        <select
          {...aria}
          value={field.state.value ?? ''}
          onChange={(event) => field.handleChange(event.target.value)}
          onBlur={field.handleBlur}
        >
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A hex colour typed as text, with a swatch of it. */
function ColorField(props: Common) {
  const field = useFieldContext<string>();
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        <span className="color-input">
          <span
            className="color-swatch"
            style={{ background: field.state.value }}
            aria-hidden="true"
          />
          <input
            {...aria}
            value={field.state.value ?? ''}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        </span>
      )}
    />
  );
}

/** A checkbox with its label after it. */
function CheckboxField(props: Common) {
  const field = useFieldContext<boolean>();
  return (
    <FieldShell<boolean>
      {...props}
      inline
      control={(aria) => (
        <input
          {...aria}
          type="checkbox"
          checked={field.state.value ?? false}
          onChange={(event) => field.handleChange(event.target.checked)}
          onBlur={field.handleBlur}
        />
      )}
    />
  );
}

export const { useAppForm: useAdminForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { InputField, TextAreaField, ChoiceField, ColorField, CheckboxField },
  formComponents: {},
});
