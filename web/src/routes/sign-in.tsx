// Route /sign-in: the merchant signs in, then returns to `redirect` (a path of this app) or /admin.
import { createFileRoute } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import * as v from 'valibot';
import { AuthForm } from '../admin/components/auth-form.tsx';

const SearchSchema = v.object({ redirect: v.optional(v.string()) });

export const Route = createFileRoute('/sign-in')({
  validateSearch: valibotValidator(SearchSchema),
  component: SignInPage,
});

function SignInPage() {
  const { redirect } = Route.useSearch();
  return <AuthForm mode="sign-in" redirect={redirect} />;
}
