// Route /sign-up: a new merchant account, then `redirect` (a path of this app) or /admin.
import { createFileRoute } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import * as v from 'valibot';
import { AuthForm } from '../admin/components/auth-form.tsx';

const SearchSchema = v.object({ redirect: v.optional(v.string()) });

export const Route = createFileRoute('/sign-up')({
  validateSearch: valibotValidator(SearchSchema),
  component: SignUpPage,
});

function SignUpPage() {
  const { redirect } = Route.useSearch();
  return <AuthForm mode="sign-up" redirect={redirect} />;
}
