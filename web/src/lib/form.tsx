// The app's TanStack Form hook with its labelled field components. Errors come from the shared
// valibot schemas (Standard Schema); a field shows its first message once touched or submitted.
import { createFormHook, createFormHookContexts } from '@tanstack/react-form';
import { useId } from 'react';

export const { fieldContext, formContext, useFieldContext } = createFormHookContexts();

function firstError(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  }
  return undefined;
}

/** The visible error of the field in context (after a blur or a submit attempt). */
function useFieldError(): string | undefined {
  const field = useFieldContext<string>();
  const shown = field.state.meta.isTouched || field.form.state.submissionAttempts > 0;
  return shown ? firstError(field.state.meta.errors) : undefined;
}

interface FieldProps {
  label: string;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  placeholder?: string;
}

/** A labelled text input bound to the field in context. */
function TextField(props: FieldProps) {
  const field = useFieldContext<string>();
  const id = useId();
  const error = useFieldError();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={field.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        value={field.state.value ?? ''}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled select bound to the field in context. */
function SelectField(props: {
  label: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  autoComplete?: string;
}) {
  const field = useFieldContext<string>();
  const id = useId();
  const error = useFieldError();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={field.name}
        autoComplete={props.autoComplete}
        value={field.state.value ?? ''}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export const { useAppForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, SelectField },
  formComponents: {},
});
