// The admin forms' TanStack Form hook: the app's form contexts, input and select (lib/form.tsx)
// with the other fields the store and product dialogs need: a text area, a colour, a checkbox and
// an image (uploaded, or a URL).
// Every field has a label, and its hint and error are tied to it with aria-describedby.
import { createFormHook } from '@tanstack/react-form';
import {
  FieldShell,
  fieldContext,
  formContext,
  InputField,
  type LabelProps,
  SelectField,
  useFieldContext,
} from '../../lib/form.tsx';
import { ImageField } from './image-field.tsx';

/** A multi-line text input. */
function TextAreaField(props: LabelProps) {
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

/** A hex colour typed as text, with a swatch of it. */
function ColorField(props: LabelProps) {
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
function CheckboxField(props: LabelProps) {
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
  fieldComponents: {
    InputField,
    SelectField,
    TextAreaField,
    ColorField,
    CheckboxField,
    ImageField,
  },
  formComponents: {},
});
