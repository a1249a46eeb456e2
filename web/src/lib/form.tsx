// The app's TanStack Form hook with its labelled input and select (the admin forms add theirs in
// admin/components/fields.tsx). Errors come from the shared valibot schemas (Standard Schema); a
// field shows its first message once touched or submitted.
import { createFormHook, createFormHookContexts } from '@tanstack/react-form';
import { type FormEvent, type ReactNode, useId } from 'react';

export const { fieldContext, formContext, useFieldContext } = createFormHookContexts();

function firstError(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  }
  return undefined;
}

/** The label and optional hint every field has. */
export interface LabelProps {
  label: string;
  hint?: string;
}

/** The ARIA props FieldShell gives its control. */
interface AriaProps {
  id: string;
  name: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * Label, control, hint and error of the field in context; `control` gets the ARIA props. The
 * error shows after a blur or a submit attempt; `inline` puts the label after the control.
 */
export function FieldShell<T>(
  props: LabelProps & { inline?: boolean; control: (aria: AriaProps) => ReactNode },
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

/** A form's onSubmit: no page load, TanStack Form validates and submits. */
export function submitWith(form: { handleSubmit: () => Promise<unknown> }) {
  return (event: FormEvent) => {
    event.preventDefault();
    void form.handleSubmit();
  };
}

/** A labelled text-like input bound to the field in context; `onUserChange` runs only for typing. */
export function InputField(
  props: LabelProps & {
    type?: 'text' | 'email' | 'tel' | 'password' | 'url' | 'datetime-local';
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

/** A labelled select of fixed options, led by an empty `placeholder` option when given. */
export function SelectField(
  props: LabelProps & {
    options: readonly { value: string; label: string }[];
    placeholder?: string;
    autoComplete?: string;
  },
) {
  const field = useFieldContext<string>();
  return (
    <FieldShell<string>
      {...props}
      control={(aria) => (
        <select
          {...aria}
          autoComplete={props.autoComplete}
          value={field.state.value ?? ''}
          onChange={(event) => field.handleChange(event.target.value)}
          onBlur={field.handleBlur}
        >
          {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
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

export const { useAppForm, withFieldGroup } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { InputField, SelectField },
  formComponents: {},
});
